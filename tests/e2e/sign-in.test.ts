import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../support/client';
import { accessTokenOf, consoleSuite, openMenu } from './support/console';
import { confirmYes, rowIndexOf } from './support/crud';

/** The sign-in rules seen from the console (docs/sign-in.md): the captcha after failures, the lock tag and 账号解封. */
describe('sign-in rules in the console', () => {
  const c = consoleSuite({ signIn: false });

  /** The code of the captcha the page shows now, read from the server's store as a person reads the image. */
  async function captchaCode(page: Page, next: Promise<{ key: string }>): Promise<string> {
    const { key } = await next;
    await page.locator('.vg-captcha img').waitFor();
    return (await c.server.app.platform.store.peek(`captcha:${key}`)) ?? '';
  }
  const nextCaptcha = (page: Page) =>
    page.waitForResponse((r) => r.url().includes('/blade-auth/oauth/captcha')).then((r) => r.json() as Promise<{ key: string }>);

  async function submit(page: Page, password: string) {
    await page.fill('#password', password);
    await page.click('button[type=submit]');
  }

  it('asks for the captcha after 3 wrong passwords and signs in with it', async () => {
    const { page } = c;
    await page.goto('/login');
    await page.fill('#username', 'admin');
    expect(await page.locator('#code').count()).toBe(0);
    for (let i = 1; i <= 2; i++) {
      await submit(page, `wrong-${i}`);
      await page.getByRole('alert').filter({ hasText: '用户名或密码错误' }).first().waitFor();
    }
    const shown = nextCaptcha(page);
    await submit(page, 'wrong-3');
    const code = await captchaCode(page, shown);
    // Without the captcha the form does not even send the password.
    await submit(page, 'admin');
    await page.getByRole('alert').filter({ hasText: '请输入验证码' }).first().waitFor();
    await page.fill('#code', code);
    await submit(page, 'admin');
    await page.waitForURL('**/wel/index');
    expect(await accessTokenOf(page)).not.toBe('');
  });

  it('tags a locked user on the user page and lifts the lock with 账号解封', async () => {
    const { page } = c;
    const admin = await signedIn(c.server.url);
    const me = (await admin.get<Record<string, unknown>>('/api/blade-user/info')).body.data;
    await admin.post('/api/blade-user/submit', { account: 'e2e_locked', password: 'Pass@1234', name: 'e2e_locked', realName: '被锁定', deptId: me.deptId, postId: me.postId, roleId: me.roleId });
    for (let i = 1; i <= 3; i++) await new ApiClient(c.server.url).login('e2e_locked', `Wrong@${i}`);

    await openMenu(page, '用户管理', '/system/user');
    const index = await rowIndexOf(page, 'e2e_locked');
    const row = page.locator(`.bp6-table-cell-row-${index}`);
    await row.locator('.vg-user-captcha').first().waitFor();
    await page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await row.locator('.vg-action-unlock').first().click();
    await confirmYes(page, '确定将选择账号解封?');
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(() => row.locator('.vg-user-captcha').count()).toBe(0);
    expect((await new ApiClient(c.server.url).login('e2e_locked', 'Pass@1234')).access_token).toBeTruthy();
  });
});
