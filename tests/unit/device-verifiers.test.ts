import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DeviceVerifiers } from '../../server/ingest/credentials';

const password = Buffer.from('Device#Secret01');

describe('device verifiers', () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];

  it('match the password they were made of, for the username they were made for, and nothing else', () => {
    const verifiers = new DeviceVerifiers([oldKey]);
    const stored = verifiers.make('dev-01', password);
    expect(stored).toMatch(/^v1\$[0-9a-f]{8}\$[\w-]{43}$/);
    expect(verifiers.check(stored, 'dev-01', password)).toBe('match');
    expect(verifiers.check(stored, 'dev-01', Buffer.from('Device#Secret02'))).toBe('mismatch');
    expect(verifiers.check(stored, 'dev-02', password)).toBe('mismatch');
    // The username is length-prefixed: moving characters between it and the password changes the verifier.
    expect(verifiers.check(verifiers.make('dev-0', Buffer.from('1Device#Secret01')), 'dev-01', password)).toBe('mismatch');
  });

  it('say nothing of a password without a verifier, or with one of another version or an unlisted key', () => {
    const verifiers = new DeviceVerifiers([newKey]);
    for (const stored of [undefined, null, '', 'v2$abcdef01$xyz', new DeviceVerifiers([oldKey]).make('dev-01', password)]) {
      expect(verifiers.check(stored, 'dev-01', password)).toBe('unknown');
    }
  });

  it('keep working through a key rotation while the old key is listed, and are made under the new one', () => {
    const before = new DeviceVerifiers([oldKey]).make('dev-01', password);
    const rotating = new DeviceVerifiers([newKey, oldKey]);
    expect(rotating.check(before, 'dev-01', password)).toBe('match');
    expect(rotating.current(before)).toBe(false);
    const after = rotating.make('dev-01', password);
    expect(rotating.current(after)).toBe(true);
    expect(new DeviceVerifiers([newKey]).check(after, 'dev-01', password)).toBe('match');
  });

  it('are not the secrets key: two keys make unrelated verifiers of one password', () => {
    expect(new DeviceVerifiers([oldKey]).make('dev-01', password).split('$')[2]).not.toBe(new DeviceVerifiers([newKey]).make('dev-01', password).split('$')[2]);
  });
});
