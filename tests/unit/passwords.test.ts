import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/passwords';

interface Made {
  N?: number;
  r?: number;
  p?: number;
  salt?: Buffer;
  scheme?: string;
}

/** A stored hash in hashPassword's format, made here with the parameters, salt and scheme name given. */
function made(password: string, { N = 16384, r = 8, p = 1, salt = Buffer.from('0123456789abcdef'), scheme = 'scrypt' }: Made = {}): string {
  const key = scryptSync(password, salt, 32, { N, r, p });
  return [scheme, N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('password hashes', () => {
  it('name scrypt and its parameters: N = 2^14, r = 8, p = 1, a 16-byte salt and a 32-byte key', async () => {
    const [scheme, N, r, p, salt, key] = (await hashPassword('Secret#1')).split('$');
    expect([scheme, N, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(await verifyPassword('Secret#1', [scheme, N, r, p, salt, key].join('$'))).toBe(true);
  });

  it('are verified with the parameters they name: one made under other parameters still signs in', async () => {
    const older = made('Secret#1', { N: 1024, r: 4, p: 2 });
    expect(await verifyPassword('Secret#1', older)).toBe(true);
    expect(await verifyPassword('Secret#2', older)).toBe(false);
  });

  it('refuse a hash of another scheme, or one without its salt or key, whatever the password', async () => {
    expect(await verifyPassword('Secret#1', made('Secret#1', { scheme: 'bcrypt' }))).toBe(false);
    expect(await verifyPassword('Secret#1', made('Secret#1', { salt: Buffer.alloc(0) }))).toBe(false);
    expect(await verifyPassword('Secret#1', 'scrypt$16384$8$1$c2FsdA$')).toBe(false);
  });
});
