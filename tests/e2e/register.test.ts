import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole } from './support/console';

/** A minimal OAuth 2 provider on 127.0.0.1: any code buys a token, the token tells who signed in. */
async function startProvider(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/token')) res.end(JSON.stringify({ access_token: 'provider-token' }));
    else if (req.url?.startsWith('/user') && req.headers.authorization === 'Bearer provider-token') {
      res.end(JSON.stringify({ id: 'e2e-uuid-1', login: 'octo', name: '第三方用户' }));
    } else {
      res.statusCode = 401;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('account registration for a third-party login', () => {
  let c: ConsoleUnderTest;
  let provider: { server: Server; url: string };
  beforeAll(async () => {
    provider = await startProvider();
    c = await openConsole({
      socialProviders: [{ source: 'e2e', clientId: 'id', clientSecret: 'secret', tokenUrl: `${provider.url}/token`, userInfoUrl: `${provider.url}/user` }],
    });
  });
  afterAll(async () => {
    await c?.stop();
    provider?.server.close();
  });

  it('asks an unbound identity to register, checks the form in order, then awaits approval and logs out', async () => {
    await c.page.goto('/login?source=e2e&code=abc&state=xyz');
    const dialog = c.page.getByRole('dialog', { name: '账号注册' });
    await dialog.waitFor();
    // 20% of the window; the 340 px minimum only below 1200 px (docs/console-screens.md).
    const width = async () => Math.round((await dialog.boundingBox())?.width ?? 0);
    await c.page.setViewportSize({ width: 1440, height: 800 });
    await expect.poll(width).toBe(288);
    await c.page.setViewportSize({ width: 1000, height: 800 });
    await expect.poll(width).toBe(340);
    await c.page.setViewportSize({ width: 1366, height: 800 });
    await expect.poll(width).toBe(273);
    await dialog.getByRole('button', { name: '提交' }).click();
    await c.page.getByText('请先输入账号名称').first().waitFor();
    await dialog.locator('#reg-account').fill('octo_e2e');
    await dialog.getByRole('button', { name: '提交' }).click();
    await c.page.getByText('请先输入密码').first().waitFor();
    await dialog.locator('#reg-password').fill('Octo123!');
    await dialog.locator('#reg-password2').fill('Octo123?');
    await dialog.getByRole('button', { name: '提交' }).click();
    await c.page.getByText('两次密码输入不一致').first().waitFor();
    await dialog.locator('#reg-password2').fill('Octo123!');
    await dialog.getByRole('button', { name: '提交' }).click();
    await c.page.getByText('注册申请已提交,请耐心等待管理员通过!').waitFor();
    await c.page.getByRole('button', { name: '确定' }).click();
    await c.page.waitForURL('**/login');

    // The account exists, pending an administrator: signing in is refused until approval.
    const admin = await signedIn(c.server.url);
    const users = await admin.get<{ records: Array<{ account: string; status: number }> }>('/api/blade-user/page', { current: 1, size: 100, account: 'octo_e2e' });
    expect(users.body.data.records.map((u) => [u.account, u.status])).toEqual([['octo_e2e', 0]]);
    const refused = await new ApiClient(c.server.url).login('octo_e2e', 'Octo123!');
    expect(refused.access_token).toBeUndefined();
  });
});
