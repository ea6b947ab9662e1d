import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, openConsole, openMenu } from './support/console';

describe('a page whose chunk fails to load', () => {
  let c: ConsoleUnderTest;

  beforeAll(async () => {
    c = await openConsole();
    await c.login();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('says so in words with an inline icon, and 重试 imports the chunk again once the server answers', async () => {
    const { page } = c;
    // The server "goes down" for scripts only: the shell stays, the next page's chunk cannot be fetched.
    const blockScripts = (route: { abort(): Promise<void> }) => route.abort();
    await page.route('**/assets/*.js', blockScripts);
    await openMenu(page, '参数管理');
    const boundary = page.locator('.vg-page-boundary');
    await boundary.waitFor();
    const said = await boundary.innerText();
    expect(said).toContain('页面加载失败');
    expect(said).toContain('请稍后重试');
    expect(said).not.toContain('Failed to fetch');
    expect(await boundary.locator('svg.vg-boundary-icon').count()).toBe(1);

    await page.unroute('**/assets/*.js', blockScripts);
    await boundary.locator('.vg-boundary-retry').click();
    await page.locator('.vg-crud-main .vg-add').waitFor();
    expect(await boundary.count()).toBe(0);
  });
});
