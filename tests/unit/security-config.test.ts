// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { CALL_LIMITS } from '../../server/http/limits';

/** The security settings of server/config.ts (docs/security.md): defaults closed, a typo stops the start. */
describe('security configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-security-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env }, { dataDir, jwtSecret: 'x' });

  it('CORS_ORIGINS: none by default; origins, normalised; anything else refused', () => {
    expect(load({}).corsOrigins).toEqual([]);
    expect(load({ CORS_ORIGINS: ' https://Ops.Example.com, http://localhost:5173/ ,' }).corsOrigins).toEqual(['https://ops.example.com', 'http://localhost:5173']);
    for (const wrong of ['*', 'ops.example.com', 'https://ops.example.com/console', 'https://ops.example.com?x=1', 'ftp://ops.example.com', 'null']) {
      expect(() => load({ CORS_ORIGINS: wrong }), wrong).toThrow(/CORS_ORIGINS/);
    }
  });

  it('CALL_LIMITS: the table by default; names changed, 0 turns one off; a typo stops the start', () => {
    expect(load({}).limits).toEqual(CALL_LIMITS);
    const limits = load({ CALL_LIMITS: 'export=20, history=0,upload=5/10' }).limits;
    expect(limits.export).toEqual({ ...CALL_LIMITS.export, max: 20 });
    expect(limits.history.max).toBe(0);
    expect(limits.upload).toEqual({ per: 'user', max: 5, windowMs: 10_000 });
    expect(limits.captcha).toEqual(CALL_LIMITS.captcha);
    // Spaces around the signs, and a window of one second.
    expect(load({ CALL_LIMITS: ' upload = 5 / 10 ,captcha=3/1' }).limits).toMatchObject({ upload: { max: 5, windowMs: 10_000 }, captcha: { max: 3, windowMs: 1000 } });
    for (const wrong of ['exports=1', 'export', 'export=-1', 'export=1/0', 'export=ten', '9export=1', 'export=1x', 'export=1/2s']) {
      expect(() => load({ CALL_LIMITS: wrong }), wrong).toThrow(/CALL_LIMITS/);
    }
    expect(() => load({ CALL_LIMITS: 'exports=1' })).toThrow(`CALL_LIMITS: no limit named "exports" (${Object.keys(CALL_LIMITS).join(', ')})`);
  });

  it('CALL_LIMITS is the table of docs/security.md "Rate limits": who counts, how many calls, over what window', () => {
    const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
    const WINDOWS: Record<string, number> = { minute: 60_000, hour: 3_600_000 };
    const documented = [...doc.matchAll(/^\| `(\w+)` \| (user|address) \| (\d+) \/ (minute|hour) \|/gm)].map(([, name, per, max, window]) => [name, { per, max: Number(max), windowMs: WINDOWS[window] }]);
    expect(documented.length).toBeGreaterThan(10);
    expect(Object.fromEntries(documented)).toEqual(CALL_LIMITS);
  });
});
