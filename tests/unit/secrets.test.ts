// @vitest-environment node
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../resources/define';
import { mqttParam } from '../../resources/iot/push';
import { param } from '../../resources/system/param';
import { keyIdOf, Secrets, secretsKeysFrom, UnreadableSecret } from '../../server/auth/secrets';

/** Secrets at rest (server/auth/secrets.ts, docs/security.md): AES-256-GCM under SECRETS_KEY or DATA_DIR/secrets-key. */
describe('sealed secrets', () => {
  const key = randomBytes(32);
  const secrets = new Secrets([key]);

  it('seals with a recognisable prefix and the key id, a fresh nonce each time, and opens it again', () => {
    const sealed = secrets.seal('Owner#Push2026 密码');
    expect(sealed.startsWith(`enc:v1:${keyIdOf(key)}:`)).toBe(true);
    expect(sealed).not.toContain('Owner');
    expect(secrets.seal('Owner#Push2026 密码')).not.toBe(sealed);
    expect(secrets.open(sealed)).toBe('Owner#Push2026 密码');
    expect(secrets.isCurrent(sealed)).toBe(true);
    // Sealing is idempotent; plaintext of before opens as it is.
    expect(secrets.seal(sealed)).toBe(sealed);
    expect(secrets.open('plain-of-before')).toBe('plain-of-before');
  });

  it('refuses a value altered, or sealed under a key it does not hold', () => {
    const sealed = secrets.seal('secret');
    const body = Buffer.from(sealed.split(':')[3], 'base64url');
    body[body.length - 20] ^= 1;
    expect(() => secrets.open(`${sealed.split(':').slice(0, 3).join(':')}:${body.toString('base64url')}`)).toThrow(UnreadableSecret);
    expect(() => new Secrets([randomBytes(32)]).open(sealed)).toThrow(UnreadableSecret);
    expect(() => secrets.open('enc:v1:nonsense')).toThrow(UnreadableSecret);
    // Too short for a nonce and a whole tag: a short tag would be a weaker check, never accepted.
    const id = keyIdOf(key);
    for (const bytes of [0, 8, 12, 27]) expect(() => secrets.open(`enc:v1:${id}:${randomBytes(bytes).toString('base64url')}`), String(bytes)).toThrow(UnreadableSecret);
  });

  it('opens what an earlier key sealed while a rotation lists it after the new one', () => {
    const old = secrets.seal('rotated');
    const next = randomBytes(32);
    const rotating = new Secrets([next, key]);
    expect(rotating.open(old)).toBe('rotated');
    expect(rotating.isCurrent(old)).toBe(false);
    expect(rotating.isCurrent(rotating.seal('x'))).toBe(true);
  });

  it('seals and reveals the fields a resource declares, and a param only on its secret rows', () => {
    const stored = secrets.sealed(mqttParam, { name: 'x', username: 'owner', password: 'p', token: '', headers: '{"X-Api-Key":"k"}', secret: null });
    expect(stored).toMatchObject({ name: 'x', username: 'owner', token: '', secret: null });
    expect(String(stored.password)).toMatch(/^enc:v1:/);
    expect(secrets.reveal(mqttParam, stored)).toMatchObject({ password: 'p', headers: '{"X-Api-Key":"k"}' });

    expect(secrets.sealed(param, { paramKey: 'alarm.sound', paramValue: 'on' })).toEqual({ paramKey: 'alarm.sound', paramValue: 'on' });
    const smtp = secrets.sealed(param, { paramKey: 'alarm.smtp.password', paramValue: 'mail-pass' });
    expect(String(smtp.paramValue)).toMatch(/^enc:v1:/);
    // The mask answered in its place keeps the stored value; renaming a param to the secret key seals its value.
    expect(secrets.sealed(param, { paramName: 'SMTP', paramValue: SECRET_MASK }, smtp)).toEqual({ paramName: 'SMTP' });
    const renamed = secrets.sealed(param, { paramKey: 'alarm.smtp.password' }, { paramKey: 'x', paramValue: 'was-plain' });
    expect(secrets.open(String(renamed.paramValue))).toBe('was-plain');
    // A new value replaces the stored one.
    const changed = secrets.sealed(param, { paramValue: 'new-pass' }, smtp);
    expect(secrets.open(String(changed.paramValue))).toBe('new-pass');
    // A blank or null value is stored as it is: there is nothing to seal.
    for (const blank of ['', null]) expect(secrets.sealed(param, { paramKey: 'alarm.smtp.password', paramValue: blank })).toStrictEqual({ paramKey: 'alarm.smtp.password', paramValue: blank });
  });

  it('reveals a param only on its secret rows', () => {
    const smtp = secrets.sealed(param, { paramKey: 'alarm.smtp.password', paramValue: 'mail-pass' });
    expect(secrets.reveal(param, smtp)).toEqual({ paramKey: 'alarm.smtp.password', paramValue: 'mail-pass' });
    expect(secrets.reveal(param, { paramKey: 'alarm.sound', paramValue: 'on' })).toEqual({ paramKey: 'alarm.sound', paramValue: 'on' });
    // A declared secret the row does not hold stays absent.
    expect(secrets.reveal(mqttParam, { name: 'x', password: secrets.seal('p') })).toStrictEqual({ name: 'x', password: 'p' });
  });

  it('takes only keys of 32 bytes, at least one', () => {
    expect(() => new Secrets([])).toThrow('no secrets key');
    expect(() => new Secrets([key, randomBytes(16)])).toThrow('a secrets key must be 32 bytes');
  });
});

describe('SECRETS_KEY', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-secrets-key-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is generated once into DATA_DIR/secrets-key (owner-only), then read back', () => {
    const [first] = secretsKeysFrom({}, dataDir);
    expect(first).toHaveLength(32);
    const file = join(dataDir, 'secrets-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64').equals(first)).toBe(true);
    expect(secretsKeysFrom({}, dataDir)[0].equals(first)).toBe(true);
  });

  it('comes from the environment when given: base64 of 32 bytes, several for a rotation; anything else stops the start', () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const keys = secretsKeysFrom({ SECRETS_KEY: `${a.toString('base64')}, ${b.toString('base64')}` }, dataDir);
    expect(keys.map((k) => k.toString('hex'))).toEqual([a.toString('hex'), b.toString('hex')]);
    for (const wrong of ['short', randomBytes(16).toString('base64'), randomBytes(29).toString('base64'), `${a.toString('base64')},nope`]) {
      expect(() => secretsKeysFrom({ SECRETS_KEY: wrong }, dataDir), wrong).toThrow(/SECRETS_KEY/);
    }
  });

  it('refuses a key with a character outside base64, though the decoder would skip it and find 32 bytes', () => {
    const text = randomBytes(32).toString('base64');
    const stray = `${text.slice(0, 10)}!${text.slice(10)}`;
    expect(Buffer.from(stray, 'base64')).toHaveLength(32);
    expect(() => secretsKeysFrom({ SECRETS_KEY: stray }, dataDir)).toThrow(/SECRETS_KEY: key 1 is not base64 of 32 bytes/);
    // Nor with more padding, or after a stray character; without its padding it is the same key.
    for (const padded of [`${text}=`, `!${text}`]) expect(() => secretsKeysFrom({ SECRETS_KEY: padded }, dataDir), padded).toThrow(/SECRETS_KEY: key 1/);
    expect(secretsKeysFrom({ SECRETS_KEY: text.slice(0, -1) }, dataDir)[0].equals(Buffer.from(text, 'base64'))).toBe(true);
  });

  it('reads a key file an editor ended with a line break', () => {
    const other = mkdtempSync(join(tmpdir(), 'vigil-secrets-key-'));
    try {
      const key = randomBytes(32);
      writeFileSync(join(other, 'secrets-key'), `${key.toString('base64')}\n`);
      expect(secretsKeysFrom({}, other)[0].equals(key)).toBe(true);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('stops the start when DATA_DIR cannot hold the key file', () => {
    expect(() => secretsKeysFrom({}, join(dataDir, 'missing', 'folder'))).toThrow(/ENOENT/);
  });

  it('stops the start when DATA_DIR/secrets-key does not hold 32 bytes (a file cut short or edited)', () => {
    const other = mkdtempSync(join(tmpdir(), 'vigil-secrets-key-'));
    try {
      writeFileSync(join(other, 'secrets-key'), randomBytes(16).toString('base64'));
      expect(() => secretsKeysFrom({}, other)).toThrow('does not hold base64 of 32 bytes');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
