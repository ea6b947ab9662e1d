import { createHash } from 'node:crypto';

/**
 * Seed rows get ids derived from a stable key, so seeding is idempotent (a row is inserted only when its id is
 * missing) and the same seed row has the same id on every database. 18 digits never collide with snowflakes'
 * 19 digits.
 */
export function seedId(key: string): string {
  const digest = createHash('sha1').update(key).digest();
  return (1n + (digest.readBigUInt64BE(0) % 899_999_999_999_999_999n)).toString().padStart(18, '1');
}
