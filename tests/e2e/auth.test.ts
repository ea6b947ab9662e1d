import { describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../support/client';
import { accessTokenOf, consoleSuite } from './support/console';

describe('login, guard and 401', () => {
  const c = consoleSuite({ signIn: false });

  it('sends a visitor from a protected route to /login, titled 登录', async () => {
    await c.page.goto('/info/index');
    await c.page.waitForURL('**/login');
    await expect.poll(() => c.page.title()).toBe('登录');
    await c.page.goto('/');
    await c.page.waitForURL('**/login');
  });

  it('shows the error_description of a wrong password and stores nothing', async () => {
    await c.page.goto('/login');
    await c.page.fill('#username', 'admin');
    await c.page.fill('#password', 'wrong-password');
    await c.page.click('button[type=submit]');
    await c.page.getByRole('alert').filter({ hasText: '用户名或密码错误' }).first().waitFor();
    expect(c.page.url()).toMatch(/\/login$/);
    expect(await accessTokenOf(c.page)).toBe('');
  });

  it('logs in to the home tab and shows the nick name', async () => {
    await c.login();
    await expect.poll(() => c.page.title()).toBe('首页');
    expect(await c.page.getByTestId('nick-name').innerText()).not.toBe('');
    expect(await accessTokenOf(c.page)).not.toBe('');
  });

  it('sends a logged-in user from /login to /', async () => {
    await c.page.goto('/login');
    await c.page.waitForURL('**/wel/index');
  });

  it('unknown paths go to /404', async () => {
    await c.page.goto('/no/such/page');
    await c.page.waitForURL('**/404');
    await c.page.getByText('404').first().waitFor();
  });

  it('a 401 from the server logs out to /login (token revoked by another client)', async () => {
    await c.page.goto('/wel/index');
    await c.page.waitForLoadState('networkidle');
    const other = new ApiClient(c.server.url);
    other.token = await accessTokenOf(c.page);
    const revoked = await other.get('/api/blade-auth/oauth/logout');
    expect(revoked.status).toBe(200);
    // The next authenticated call of the console: clear cache from the tab bar's menu.
    await c.page.getByRole('button', { name: '更多' }).click();
    await c.page.getByText('清除缓存').click();
    await c.page.getByRole('button', { name: '确定' }).click();
    await c.page.waitForURL('**/login');
    expect(await accessTokenOf(c.page)).toBe('');
  });

  it('logs out with confirmation', async () => {
    await c.login();
    await c.page.getByTestId('nick-name').click();
    await c.page.getByText('退出登录').click();
    await c.page.getByText('退出系统, 是否继续?').waitFor();
    await c.page.getByRole('button', { name: '确定' }).click();
    await c.page.waitForURL('**/login');
    await c.page.goto('/wel/index');
    await c.page.waitForURL('**/login');
  });

  it('hides the tenant field when the host resolves a tenant, and shows its background', async () => {
    await c.page.goto('/login');
    await c.page.locator('#tenantId').waitFor();
    const admin = await signedIn(c.server.url);
    const saved = await admin.post('/api/blade-system/tenant/submit', { tenantName: '主机租户', domain: 'localhost', backgroundUrl: '/img/bg/logo.svg' });
    expect(saved.body.code).toBe(200);
    await c.page.goto(`${c.server.url.replace('127.0.0.1', 'localhost')}/login`);
    await c.page.locator('#username').waitFor();
    await expect.poll(() => c.page.locator('.vg-login').getAttribute('style')).toContain('/img/bg/logo.svg');
    expect(await c.page.locator('#tenantId').count()).toBe(0);
  });
});

