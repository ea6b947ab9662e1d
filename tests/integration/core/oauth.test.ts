import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { TokenService } from '../../../server/auth/tokens';
import { ApiClient, SABER, signedIn } from '../../support/client';
import { onEveryStore } from '../../support/suite';

const TOKEN = '/api/blade-auth/oauth/token';

onEveryStore('oauth', (ctx) => {
  const anonymous = () => new ApiClient(ctx.server.url);

  it('issues the raw token response of the contract with the contract claims', async () => {
    const body = await anonymous().login();
    for (const field of ['access_token', 'token_type', 'refresh_token', 'expires_in', 'tenant_id', 'user_id', 'dept_id', 'post_id', 'role_id', 'oauth_id', 'account', 'user_name', 'nick_name', 'role_name', 'avatar', 'detail', 'license']) {
      expect(body, field).toHaveProperty(field);
    }
    expect(body.token_type).toBe('bearer');
    expect(body.role_name).toBe('administrator');
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({ iss: 'vigil', token_type: 'access_token', tenant_id: '000000', account: 'admin', client_id: 'saber' });
    for (const claim of ['aud', 'user_id', 'role_id', 'dept_id', 'post_id', 'user_name', 'nick_name', 'role_name', 'exp', 'nbf']) expect(claims, claim).toHaveProperty(claim);
  });

  it('answers a refused sign-in with error_description and no token', async () => {
    const body = await anonymous().login('admin', 'wrong');
    expect(body).toEqual({ error_code: 400, error_description: '用户名或密码错误' });
    expect(await anonymous().login('nobody', 'x')).toMatchObject({ error_description: '用户名或密码错误' });
    expect(await anonymous().login('admin', 'admin', '999999')).toMatchObject({ error_description: '租户信息错误' });
  });

  it('checks the client credentials', async () => {
    const query = { tenantId: '000000', username: 'admin', password: 'admin', grant_type: 'password' };
    const wrong = await anonymous().request('POST', TOKEN, { query, headers: { authorization: `Basic ${Buffer.from('saber:nope').toString('base64')}` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 401, success: false, msg: '客户端认证失败' });
    const response = await fetch(`${ctx.server.url}${TOKEN}?${new URLSearchParams(query)}`, { method: 'POST' });
    expect(response.status).toBe(401);
  });

  it('refuses unknown grant types', async () => {
    const reply = await anonymous().request<Record<string, unknown>>('POST', TOKEN, { query: { grant_type: 'implicit' } });
    expect(reply.body.error_description).toBe('不支持的授权类型');
  });

  it('accepts form-encoded token requests', async () => {
    const reply = await anonymous().request<Record<string, string>>('POST', TOKEN, {
      form: { tenantId: '000000', username: 'admin', password: 'admin', grant_type: 'password', scope: 'all', type: 'account' },
    });
    expect(reply.body.access_token).toBeTruthy();
  });

  it('signs in with a captcha once, and refuses a wrong or reused code', async () => {
    const captcha = await anonymous().request<{ key: string; image: string }>('GET', '/api/blade-auth/oauth/captcha');
    expect(captcha.body.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const { key } = captcha.body;
    // The code is in the picture; the test puts a known one under the same key.
    await ctx.server.app.platform.store.set(`captcha:${key}`, 'ab12', 60);
    const query = { tenantId: '000000', username: 'admin', password: 'admin', grant_type: 'captcha' };
    const wrong = await anonymous().request<Record<string, string>>('POST', TOKEN, { query, headers: { 'captcha-key': key, 'captcha-code': 'zz99' } });
    expect(wrong.body.error_description).toBe('验证码不正确');
    await ctx.server.app.platform.store.set(`captcha:${key}`, 'ab12', 60);
    const right = await anonymous().request<Record<string, string>>('POST', TOKEN, { query, headers: { 'captcha-key': key, 'captcha-code': 'AB12' } });
    expect(right.body.access_token).toBeTruthy();
    const reused = await anonymous().request<Record<string, string>>('POST', TOKEN, { query, headers: { 'captcha-key': key, 'captcha-code': 'ab12' } });
    expect(reused.body.error_description).toBe('验证码不正确');
  });

  it('rotates both tokens on refresh and refuses the old refresh token', async () => {
    const first = await anonymous().login();
    const refresh = (token: string, path = TOKEN) =>
      anonymous().request<Record<string, string>>('POST', path, { query: { grant_type: 'refresh_token', refresh_token: token, scope: 'all', tenantId: '000000' } });
    const second = (await refresh(first.refresh_token)).body;
    expect(second.access_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await refresh(first.refresh_token)).body.error_description).toBe('刷新令牌无效或已过期');
    const third = (await refresh(second.refresh_token, `${TOKEN}/refresh`)).body;
    expect(third.access_token).toBeTruthy();
    // An access token is not a refresh token.
    expect((await refresh(third.access_token)).body.error_description).toBe('刷新令牌无效或已过期');
  });

  it('issues the token for a chosen dept and role, and refuses ones the user lacks', async () => {
    const own = await anonymous().login();
    const chosen = await anonymous().login('admin', 'admin', '000000', { 'dept-id': own.dept_id, 'role-id': own.role_id });
    expect(chosen.role_id).toBe(own.role_id);
    const refused = await anonymous().login('admin', 'admin', '000000', { 'role-id': '123' });
    expect(refused.error_description).toBe('所选部门或角色不属于该用户');
    const refreshed = await anonymous().request<Record<string, string>>('POST', TOKEN, {
      query: { grant_type: 'refresh_token', refresh_token: chosen.refresh_token },
      headers: { 'dept-id': own.dept_id, 'role-id': own.role_id },
    });
    expect(refreshed.body.dept_id).toBe(own.dept_id);
  });

  it('revokes the session on logout: access and refresh tokens both stop working', async () => {
    const api = await signedIn(ctx.server.url);
    const session = api.token;
    expect((await api.get('/api/blade-auth/oauth/user-info')).body.code).toBe(200);
    const refreshToken = (await api.login()).refresh_token;
    expect((await api.get('/api/blade-auth/oauth/logout')).body.code).toBe(200);
    const after = await api.get('/api/blade-auth/oauth/user-info');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 401, msg: '请求未授权' });
    const refreshed = await anonymous().request<Record<string, string>>('POST', TOKEN, { query: { grant_type: 'refresh_token', refresh_token: refreshToken } });
    expect(refreshed.body.error_description).toBe('刷新令牌无效或已过期');
    api.token = session; // the first session is still alive
    expect((await api.get('/api/blade-auth/oauth/user-info')).body.code).toBe(200);
  });

  it('refuses missing, expired and forged tokens', async () => {
    const missing = await anonymous().get('/api/blade-system/param/list');
    expect(missing.status).toBe(401);
    expect(missing.body.msg).toBe('缺失令牌,鉴权失败');
    const good = decodeJwt((await anonymous().login()).access_token) as Record<string, unknown>;
    const claims = { ...good } as never;
    const expired = await new TokenService('test-secret-0123456789abcdef').sign(claims, -60);
    const forged = await new TokenService('another-secret').sign(claims, 600);
    for (const token of [expired.token, forged.token, 'not-a-jwt', `${expired.token.split('.').slice(0, 2).join('.')}.`]) {
      const reply = await fetch(`${ctx.server.url}/api/blade-system/param/list`, { headers: { authorization: SABER, 'blade-auth': `bearer ${token}` } });
      expect(reply.status).toBe(401);
    }
  });

  it('asks for a captcha after 3 wrong passwords instead of locking the account (sign-in.test.ts has the rules)', async () => {
    const api = anonymous();
    for (let i = 1; i <= 2; i++) expect(await api.login('admin', `bad${i}`, '100001')).toEqual({ error_code: 400, error_description: '用户名或密码错误' });
    expect(await api.login('admin', 'bad3', '100001')).toEqual({ error_code: 400, error_description: '用户名或密码错误', captcha_required: true });
    expect(await api.login('admin', 'admin', '100001')).toEqual({ error_code: 428, error_description: '请输入验证码', captcha_required: true });
    // Another tenant's account of the same name is not affected.
    expect((await api.login('admin', 'admin', '000000')).access_token).toBeTruthy();
    await ctx.server.app.platform.db.deleteFrom('blade_login_attempt').where('tenantId', '=', '100001').execute();
  });

  it('refuses sign-in to an expired tenant', async () => {
    const db = ctx.server.app.platform.db;
    await db.updateTable('blade_tenant').set({ expireTime: '2000-01-01 00:00:00' }).where('tenantId', '=', '100001').execute();
    expect((await anonymous().login('admin', 'admin', '100001')).error_description).toBe('租户授权已过期,请联系管理员');
    await db.updateTable('blade_tenant').set({ expireTime: null }).where('tenantId', '=', '100001').execute();
    expect((await anonymous().login('admin', 'admin', '100001')).access_token).toBeTruthy();
  });

  it('answers user-info and clear-cache, with and without the /api prefix', async () => {
    const api = await signedIn(ctx.server.url);
    const info = await api.get<Record<string, string>>('/blade-auth/oauth/user-info');
    expect(info.body.data).toMatchObject({ tenantId: '000000', account: 'admin', roleName: 'administrator' });
    expect((await api.get('/api/blade-auth/oauth/clear-cache')).body).toMatchObject({ code: 200, msg: '操作成功' });
  });
});
