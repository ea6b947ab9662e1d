import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { startServer, type TestServer, type TestStore } from '../../support/server';
import { createStaff } from '../../support/staff';

/**
 * What a process restart must not undo (docs/testing.md "Restarts"): logged-out and rotated tokens stay refused
 * (server/auth/revocations.ts keeps them in a table), and an account's failed sign-ins — the captcha they ask for, the
 * lock they set — still hold (server/auth/sign-in-guard.ts). The seed steps are restart.test.ts's.
 */

const TOKEN = '/api/blade-auth/oauth/token';
const DEMO = '100001';
const PASSWORD = 'Staff@123';
const NEEDS_CAPTCHA = { error_code: 428, error_description: '请输入验证码', captcha_required: true };
const LOCKED = { error_code: 423, error_description: '用户登录失败次数过多', captcha_required: true };

type Body = Record<string, unknown>;

describe.each(await storeKinds())('state that outlives a restart (%s)', (kind) => {
  let server: TestServer;
  let store: TestStore;
  const tokens: Record<'loggedOut' | 'alive' | 'refreshLoggedOut' | 'refreshRotated', string> = { loggedOut: '', alive: '', refreshLoggedOut: '', refreshRotated: '' };

  const signIn = (account: string, password: string, captcha?: { key: string; code: string }) =>
    new ApiClient(server.url, DEMO)
      .request<Body>('POST', TOKEN, {
        query: { tenantId: DEMO, username: account, password, grant_type: captcha ? 'captcha' : 'password', scope: 'all', type: 'account' },
        headers: { 'tenant-id': DEMO, ...(captcha ? { 'captcha-key': captcha.key, 'captcha-code': captcha.code } : {}) },
      })
      .then((r) => r.body);
  /** A captcha as a person would solve it: the code is read from the server's store. */
  const solved = async () => {
    const reply = await new ApiClient(server.url).request<{ key: string }>('GET', '/api/blade-auth/oauth/captcha');
    const code = await server.app.platform.store.peek(`captcha:${reply.body.key}`);
    return { key: reply.body.key, code: String(code).toUpperCase() };
  };
  const refresh = (token: string) => new ApiClient(server.url, DEMO).request<Body>('POST', TOKEN, { query: { grant_type: 'refresh_token', refresh_token: token } }).then((r) => r.body);
  const userInfo = (token: string) => {
    const api = new ApiClient(server.url, DEMO);
    api.token = token;
    return api.get('/api/blade-auth/oauth/user-info');
  };

  beforeAll(async () => {
    server = await startServer(kind);
    store = server.storage;
    // A session logged out, one whose refresh token was rotated away, and one left alive.
    const out = await signedIn(server.url, 'admin', 'admin', DEMO);
    tokens.refreshLoggedOut = String((await out.login()).refresh_token);
    tokens.loggedOut = String(out.token);
    expect((await out.get('/api/blade-auth/oauth/logout')).body.code).toBe(200);
    const rotated = await signedIn(server.url, 'admin', 'admin', DEMO);
    tokens.refreshRotated = String((await rotated.login()).refresh_token);
    expect((await refresh(tokens.refreshRotated)).access_token).toBeTruthy();
    tokens.alive = String((await signedIn(server.url, 'admin', 'admin', DEMO)).token);
    // One account with 3 failures (a captcha is asked for), one locked by 5.
    await createStaff(server, DEMO, 'restart_doubted');
    await createStaff(server, DEMO, 'restart_locked');
    for (let i = 0; i < 3; i++) await signIn('restart_doubted', `wrong${i}`);
    expect(await signIn('restart_doubted', PASSWORD)).toEqual(NEEDS_CAPTCHA);
    for (let i = 0; i < 3; i++) await signIn('restart_locked', `wrong${i}`);
    for (let i = 3; i < 5; i++) await signIn('restart_locked', `wrong${i}`, await solved());
    expect(await signIn('restart_locked', PASSWORD, await solved())).toEqual(LOCKED);

    await server.stop({ keepStore: true });
    server = await startServer(kind, {}, undefined, store);
  });
  afterAll(() => server?.stop());

  it('keeps a logged-out session and a rotated refresh token refused, and a live session alive', async () => {
    expect((await userInfo(tokens.loggedOut)).status).toBe(401);
    expect((await refresh(tokens.refreshLoggedOut)).error_description).toBe('刷新令牌无效或已过期');
    expect((await refresh(tokens.refreshRotated)).error_description).toBe('刷新令牌无效或已过期');
    expect((await userInfo(tokens.alive)).status).toBe(200);
  });

  it('still asks for a captcha after earlier failures, and keeps a locked account locked', async () => {
    expect(await signIn('restart_doubted', PASSWORD)).toEqual(NEEDS_CAPTCHA);
    expect((await signIn('restart_doubted', PASSWORD, await solved())).access_token).toBeTruthy();
    expect(await signIn('restart_locked', PASSWORD, await solved())).toEqual(LOCKED);
  });
});
