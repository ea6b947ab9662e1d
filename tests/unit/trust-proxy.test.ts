// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_RULES } from '../../server/auth/sign-in-rules';
import { loadConfig } from '../../server/config';

/** TRUST_PROXY (server/config.ts): nobody by default, a typo stops the start (docs/sign-in.md). */
describe('TRUST_PROXY', () => {
  it('reads addresses, ranges and proxy-addr names, trusts nobody by default, and refuses a typo', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-trust-proxy-'));
    const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env }, { dataDir, jwtSecret: 'x' });
    try {
      expect(load({}).trustProxy).toEqual([]);
      expect(load({}).signIn).toEqual(DEFAULT_SIGN_IN_RULES);
      expect(load({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,loopback,fd00::/8,' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', 'loopback', 'fd00::/8']);
      expect(() => load({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
      expect(() => load({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
