import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessTokenOf, consoleSuite } from './support/console';

/** Paths the main frame navigates to (full loads and history pushes/replaces alike). */
function recordPaths(page: Page): string[] {
  const paths: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
  });
  return paths;
}

describe('navigation guard in the browser (spec §2, §4)', () => {
  const c = consoleSuite({ signIn: false });

  it('federated logout: a token cookie without a stored session clears the cookies once and lands on /login', async () => {
    await c.browser.context.addCookies([{ name: 'vigil-access-token', value: 'stale', url: c.server.url }]);
    const paths = recordPaths(c.page);
    await c.page.goto('/wel/index');
    await c.page.waitForURL('**/login');
    await c.page.locator('#username').waitFor();
    // The loop went round while the cookie stayed. Without it, /login is where the guard rests (it enters a page
    // without authentication: src/app/guard.test.ts), so the page stays put once the cookie is gone.
    await expect.poll(() => accessTokenOf(c.page)).toBe('');
    expect(new URL(c.page.url()).pathname).toBe('/login');
    expect(paths.filter((p) => p === '/wel/index')).toHaveLength(1);
    expect(paths.filter((p) => p === '/login')).toHaveLength(1);
    await expect.poll(() => c.page.title()).toBe('登录');
  });

  it('a query target opens one window, on the page without the target', async () => {
    await c.login();
    const opened: Page[] = [];
    c.browser.context.on('page', (page) => opened.push(page));
    await c.page.goto('/system/param?target=_blank&a=1');
    await expect.poll(() => opened.length).toBe(1);
    const popup = opened[0];
    await popup.waitForURL('**/system/param**');
    await popup.locator('.vg-tab', { hasText: '参数管理' }).waitFor();
    // Each window kept ?target= and opened the next one (11 in 3 s). Only a window whose address has a target opens
    // another (src/app/guard.test.ts): once neither has one, no more can open.
    const url = new URL(popup.url());
    expect(url.pathname).toBe('/system/param');
    expect(url.searchParams.has('target')).toBe(false);
    expect(url.searchParams.get('a')).toBe('1');
    // The opening window stays on its current tab.
    await c.page.waitForURL('**/wel/index');
    expect(opened).toHaveLength(1);
    await popup.close();
  });

  it('setting the lock password goes to /lock after 100 ms, not before', async () => {
    await c.page.goto('/info/index');
    await c.page.getByRole('button', { name: '锁屏' }).click();
    await c.page.fill('input[name=lockPassword]', 'lock-pw');
    // Stamp the confirming click and the first history entry for /lock with the page's clock.
    await c.page.evaluate(() => {
      const stamps: Record<string, number> = {};
      (window as unknown as { stamps: Record<string, number> }).stamps = stamps;
      document.addEventListener('click', () => (stamps.click ??= performance.now()), { capture: true });
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
          if (String(url ?? '').endsWith('/lock')) stamps.lock ??= performance.now();
          original(data, unused, url);
        };
      }
    });
    await c.page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await c.page.waitForURL('**/lock');
    const stamps = await c.page.evaluate(() => (window as unknown as { stamps: Record<string, number> }).stamps);
    expect(stamps.lock - stamps.click).toBeGreaterThanOrEqual(100);
    await c.page.fill('input[name=unlock]', 'lock-pw');
    await c.page.keyboard.press('Enter');
    await c.page.waitForURL('**/info/index');
  });
});
