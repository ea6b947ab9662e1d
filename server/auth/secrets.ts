import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Resource, SECRET_MASK } from '../../resources/define';
import type { Row } from '../db/database';

/**
 * Secrets at rest (docs/security.md "Secrets at rest"): what the server keeps to connect elsewhere — SMTP and SMS keys,
 * S3 secret keys, third-party platforms' passwords and client secrets, push targets' passwords, tokens, signing keys and
 * headers, data sources' passwords — is stored sealed with AES-256-GCM under a key of the environment (SECRETS_KEY) or
 * of DATA_DIR/secrets-key. A sealed value reads `enc:v1:<key id>:<base64url of iv, ciphertext, tag>`; a value without
 * the prefix is a plaintext row of before, used as it is and sealed on its next save or at the next start.
 */

export const SEALED_PREFIX = 'enc:v1:';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const SECRETS_MESSAGES = {
  unreadable: '已保存的密钥无法解密(SECRETS_KEY 可能已更换),请重新填写',
};

/** A sealed value no configured key opens (another key, or altered): the secret must be entered again. */
export class UnreadableSecret extends Error {
  constructor() {
    super(SECRETS_MESSAGES.unreadable);
    this.name = 'UnreadableSecret';
  }
}

/** The first 8 hex digits of the key's SHA-256: names the key in a sealed value without telling anything of it. */
export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(SEALED_PREFIX);

/** The resources' declared secrets: whole fields, and a field that is secret on some rows (a param). */
type SecretDeclaration = Pick<Resource, 'secrets' | 'secretRows'>;

export class Secrets {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  /** `keys[0]` seals; every key opens (the earlier ones while a rotation re-seals what they sealed). */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('no secrets key');
    for (const key of keys) {
      if (key.length !== KEY_BYTES) throw new Error(`a secrets key must be ${KEY_BYTES} bytes`);
      this.keys.set(keyIdOf(key), key);
    }
    this.currentId = keyIdOf(keys[0]);
  }

  /** Seals a plaintext; a value already sealed is returned as it is. */
  seal(plain: string): string {
    if (isSealed(plain)) return plain;
    const key = this.keys.get(this.currentId) as Buffer;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, iv);
    const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${this.currentId}:${body.toString('base64url')}`;
  }

  /** The plaintext of a sealed value; a plaintext (a row of before) is returned as it is. */
  open(value: string): string {
    if (!isSealed(value)) return value;
    const rest = value.slice(SEALED_PREFIX.length);
    const colon = rest.indexOf(':');
    const key = this.keys.get(rest.slice(0, colon));
    if (!key) throw new UnreadableSecret();
    const body = Buffer.from(rest.slice(colon + 1), 'base64url');
    // A body altered, or too short to hold its nonce and a whole tag, fails here.
    try {
      const decipher = createDecipheriv(ALGORITHM, key, body.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableSecret();
    }
  }

  /** Whether a stored value is sealed with the current key (else the start re-seals it). */
  isCurrent(value: string): boolean {
    return value.startsWith(`${SEALED_PREFIX}${this.currentId}:`);
  }

  /** A stored row with its declared secrets opened: for the server's own use (connecting, signing), never to answer. */
  reveal<T extends Row>(resource: SecretDeclaration, row: T): T {
    const out: Row = { ...row };
    const rows = resource.secretRows;
    for (const field of [...(resource.secrets ?? []), ...(rows ? [rows.field] : [])]) {
      const value = out[field];
      if (isSealed(value)) out[field] = this.open(value);
    }
    return out as T;
  }

  /**
   * The values of a write with their declared secrets sealed; `existing` is the stored row an update changes. On rows
   * whose key names a secret (`secretRows`), the mask the answers carry keeps the stored value.
   */
  sealed(resource: SecretDeclaration, values: Row, existing?: Row): Row {
    const out: Row = { ...values };
    for (const field of resource.secrets ?? []) {
      const value = out[field];
      if (typeof value === 'string' && value !== '') out[field] = this.seal(value);
    }
    const rows = resource.secretRows;
    if (!rows) return out;
    const key = out[rows.keyField] ?? existing?.[rows.keyField];
    if (!rows.keys.includes(String(key))) return out;
    if (out[rows.field] === SECRET_MASK && existing) delete out[rows.field];
    const value = rows.field in out ? out[rows.field] : existing?.[rows.field];
    if (typeof value === 'string' && value !== '' && !isSealed(value)) out[rows.field] = this.seal(value);
    return out;
  }
}

/**
 * SECRETS_KEY: base64 of 32 bytes (`openssl rand -base64 32`), or several comma-separated, the first sealing and all
 * opening (a rotation). Without it the key is read from DATA_DIR/secrets-key, or generated there once.
 */
export function secretsKeysFrom(env: Record<string, string | undefined>, dataDir: string): Buffer[] {
  const given = (env.SECRETS_KEY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (given.length) {
    return given.map((text, i) => {
      // 32 bytes are 43 base64 characters and one `=` of padding, as `openssl rand -base64 32` prints them (the
      // padding may be left out: the same key).
      if (!/^[A-Za-z0-9+/]{43}=?$/.test(text)) {
        throw new Error(`SECRETS_KEY: key ${i + 1} is not base64 of ${KEY_BYTES} bytes (make one with: openssl rand -base64 32)`);
      }
      return Buffer.from(text, 'base64');
    });
  }
  const file = join(dataDir, 'secrets-key');
  try {
    writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Written at an earlier start, or by another process starting on the same DATA_DIR first: use that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // The decoder skips a line break an editor may have added.
  const key = Buffer.from(readFileSync(file, 'utf8'), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold base64 of ${KEY_BYTES} bytes`);
  return [key];
}
