import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefusedExactly, postParams, type Row } from '../../support/envelope';
import { CALL_LIMITS } from '../../../server/http/limits';
import { RELAXED_LIMITS, startServer, type TestServer } from '../../support/server';
import { findByAccount, insertRole } from './support';

/**
 * A tiny OAuth 2 provider on 127.0.0.1: the code `code-<login>` is exchanged for a token, and the token for the
 * profile of `<login>`. Anything else is refused, as a real provider would.
 */
async function startProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/token') {
        const form = new URLSearchParams(raw);
        const code = form.get('code') ?? '';
        const valid = form.get('client_id') === 'vigil' && form.get('client_secret') === 'vigil-secret' && code.startsWith('code-');
        return valid ? send(200, { access_token: `token-${code.slice(5)}`, token_type: 'bearer' }) : send(400, { error: 'invalid_grant' });
      }
      const token = request.headers.authorization?.match(/^Bearer token-(\w+)$/)?.[1];
      if (request.method === 'GET' && request.url === '/user' && token) {
        return send(200, { id: `uid-${token}`, login: token, name: `第三方 ${token}`, avatar_url: `https://idp.example/${token}.png`, email: `${token}@idp.example` });
      }
      send(401, { error: 'unauthorized' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type TokenBody = Record<string, string>;

const REGISTER_LIMIT = 20;

describe.each(await storeKinds())('third-party registration on %s', (store) => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let server: TestServer;
  let tenantAdmin: ApiClient;

  beforeAll(async () => {
    provider = await startProvider();
    server = await startServer(store, {
      socialProviders: [{ source: 'local', clientId: 'vigil', clientSecret: 'vigil-secret', tokenUrl: `${provider.url}/token`, userInfoUrl: `${provider.url}/user` }],
      // Twenty registrations an hour from one address: more than the tests before the last make.
      limits: { ...RELAXED_LIMITS, register: { ...CALL_LIMITS.register, max: REGISTER_LIMIT } },
    });
    tenantAdmin = await signedIn(server.url, 'admin', 'admin', '100001');
  });
  afterAll(async () => {
    await server.stop();
    await provider.close();
  });

  /** Signs in through the provider; returns the raw token response and a client holding its access token. */
  const social = async (login: string, tenantId = '100001') => {
    const client = new ApiClient(server.url, tenantId);
    const reply = await client.request<TokenBody>('POST', '/api/blade-auth/oauth/token', {
      query: { grant_type: 'social', source: 'local', code: `code-${login}`, state: 'xyz', tenantId, scope: 'all' },
      headers: { 'tenant-id': tenantId },
    });
    client.token = reply.body.access_token;
    return { body: reply.body, client };
  };

  it('registers a guest as a pending user that an administrator approves and grants a role', async () => {
    const { body: guestToken, client: guest } = await social('alice');
    expect(guestToken).toMatchObject({ user_id: '-1', tenant_id: '100001', account: 'alice' });
    expect(guestToken.oauth_id).toMatch(/^\d+$/);
    // A guest token opens nothing but registration.
    expect((await guest.get('/api/blade-user/info')).status).toBe(401);

    const register = (body: Record<string, unknown>) => guest.post('/api/blade-user/register-guest', body);
    const form = { tenantId: '100001', name: '爱丽丝', account: 'alice', password: 'Alice@2026', password2: 'Alice@2026', oauthId: guestToken.oauth_id };
    expectRefusedExactly(await register({ ...form, tenantId: '' }), '请先输入租户编号');
    expectRefusedExactly(await register({ ...form, account: '' }), '请先输入账号名称');
    expectRefusedExactly(await register({ ...form, password: '' }), '请先输入密码');
    expectRefusedExactly(await register({ ...form, password2: '' }), '请先输入密码');
    expectRefusedExactly(await register({ ...form, password2: 'Alice@2027' }), '两次密码输入不一致');
    expectRefusedExactly(await register({ ...form, password: 'alice', password2: 'alice' }), '密码长度应为6到30位');
    expectRefusedExactly(await register({ ...form, tenantId: '999999' }), '租户信息错误');
    expectRefusedExactly(await register({ ...form, oauthId: '123456789' }), '第三方登录信息错误');
    expectRefusedExactly(await register({ ...form, account: 'admin' }), '当前用户已存在!');
    expect(await findByAccount(tenantAdmin, 'alice')).toBeUndefined();

    const { password2: _password2, ...withoutConfirmation } = form;
    expectOk(await register(withoutConfirmation));
    expectRefusedExactly(await register({ ...form, account: 'alice2' }), '该第三方账号已绑定用户');

    const pending = await findByAccount(tenantAdmin, 'alice');
    expect(pending).toMatchObject({ tenantId: '100001', status: 0, name: '爱丽丝', realName: '爱丽丝', avatar: 'https://idp.example/alice.png', email: 'alice@idp.example' });
    const password = () => new ApiClient(server.url, '100001').login('alice', 'Alice@2026', '100001');
    expect((await password()).error_description).toBe('账号待管理员审核');
    expect((await social('alice')).body.error_description).toBe('账号待管理员审核');

    // The administrator approves (status 1), then grants a role: only then can the user sign in.
    const id = String(pending?.id);
    expectOk(await tenantAdmin.post('/api/blade-user/submit', { id, status: 1 }));
    expect((await password()).error_description).toBe('未获得用户的角色信息');
    const roleId = await insertRole(server, '100001', 'observer');
    expectOk(await postParams(tenantAdmin, '/api/blade-user/grant', { userIds: id, roleIds: roleId }));
    expect(await password()).toMatchObject({ user_id: id, role_id: roleId, role_name: 'observer', account: 'alice' });
    const again = await social('alice');
    expect(again.body).toMatchObject({ user_id: id, oauth_id: guestToken.oauth_id, role_id: roleId });
    expect(expectOk(await again.client.get<Row>('/api/blade-user/info'))).toMatchObject({ id, account: 'alice', roleName: '角色 observer' });
  });

  it('lets a guest read who it is and sign out, and nothing else; its token opens nothing after', async () => {
    const { client: guest } = await social('dave');
    expect(expectOk(await guest.get<{ userId: string; account: string }>('/api/blade-auth/oauth/user-info'))).toMatchObject({ userId: '-1', account: 'dave' });
    // A guest holds no menu: the users' list is closed to it, as every other screen's calls are.
    expect((await guest.get('/api/blade-user/list')).status).toBe(401);
    expectOk(await guest.post('/api/blade-auth/oauth/logout', {}));
    expect((await guest.get('/api/blade-auth/oauth/user-info')).status).toBe(401);
  });

  it('accepts registration only from a guest for its own identity', async () => {
    const { body: bob } = await social('bob');
    const { client: carol } = await social('carol');
    const form = { tenantId: '100001', name: 'Bob', account: 'bob', password: 'Bob@20260', password2: 'Bob@20260', oauthId: bob.oauth_id };
    expectRefusedExactly(await carol.post('/api/blade-user/register-guest', form), '第三方登录信息错误');
    expect((await tenantAdmin.post('/api/blade-user/register-guest', form)).status).toBe(403);
    expect((await new ApiClient(server.url).post('/api/blade-user/register-guest', form)).body.msg).toBe('缺失令牌,鉴权失败');
    expect(await findByAccount(tenantAdmin, 'bob')).toBeUndefined();
  });

  it('lets an identity register again once its user was removed', async () => {
    const { body: token, client: dave } = await social('dave');
    const form = { tenantId: '100001', account: 'dave', password: 'Dave@2026', oauthId: token.oauth_id };
    expectOk(await dave.post('/api/blade-user/register-guest', form));
    const first = await findByAccount(tenantAdmin, 'dave');
    expect(first).toMatchObject({ name: 'dave', status: 0 });
    expectOk(await postParams(tenantAdmin, '/api/blade-user/remove', { ids: String(first?.id) }));
    const { body: again, client: daveAgain } = await social('dave');
    expect(again).toMatchObject({ user_id: '-1', oauth_id: token.oauth_id });
    expectOk(await daveAgain.post('/api/blade-user/register-guest', { ...form, account: 'dave_again' }));
    expect(await findByAccount(tenantAdmin, 'dave_again')).toMatchObject({ status: 0 });
  });

  // Last: it spends the address's registrations for the hour.
  it('refuses registrations from one address past the hour’s limit, in its own words', async () => {
    const { client: erin } = await social('erin');
    let refused: Awaited<ReturnType<typeof erin.post>> | undefined;
    for (let i = 0; i <= REGISTER_LIMIT && !refused; i++) {
      const answer = await erin.post('/api/blade-user/register-guest', { tenantId: '100001', account: '' });
      if (answer.status === 429) refused = answer;
      else expect(answer.body.msg).toBe('请先输入账号名称');
    }
    expect(refused?.body).toMatchObject({ code: 429, success: false, msg: expect.stringMatching(/^注册过于频繁,请 \d+ 秒后再试$/) });
  });
});
