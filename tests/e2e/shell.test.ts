import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, openMenu, tabLabels } from './support/console';

const HELP = { name: 'Help手册', code: 'e2e_help', path: 'https://example.com/help.html', category: 1, parentId: '0', sort: 99, source: 'help', action: 0, isOpen: 1 };

describe('console shell', () => {
  let c: ConsoleUnderTest;
  beforeAll(async () => {
    c = await openConsole();
    // An external-page menu: the only kind of menu the console can show before the module screens exist.
    const admin = await signedIn(c.server.url);
    const saved = await admin.post('/api/blade-system/menu/submit', HELP);
    expect(saved.body.code).toBe(200);
    await c.login();
  });
  afterAll(() => c?.stop());

  it('shows the menu tree: the home item and the external page', async () => {
    await c.page.locator('.vg-sidebar').getByText('Help手册').waitFor();
    expect(await c.page.locator('.vg-sidebar').innerText()).toContain('首页');
  });

  it('opens pages as tabs, skipping duplicates; the home tab cannot close', async () => {
    await c.page.goto('/info/index');
    await c.page.getByRole('tab', { name: '修改密码' }).waitFor();
    await c.page.locator('.vg-sidebar').getByText('Help手册').click();
    await c.page.waitForURL('**/myiframe/urlPath?**');
    await c.page.goto('/info/index');
    await c.page.waitForURL('**/info/index');
    await expect.poll(() => tabLabels(c.page)).toEqual(['首页', '个人信息', 'Help手册']);
    expect(await c.page.locator('.vg-tab[data-value="/wel/index"] .bp6-tag-remove').count()).toBe(0);
    expect(await c.page.locator('.vg-tab[data-value="/info/index"] .bp6-tag-remove').count()).toBe(1);
  });

  it('closing the active tab opens the previous tab', async () => {
    await c.page.locator('.vg-tab', { hasText: 'Help手册' }).click();
    await c.page.waitForURL('**/myiframe/urlPath?**');
    await c.page.locator('.vg-tab', { hasText: 'Help手册' }).locator('.bp6-tag-remove').click();
    await c.page.waitForURL('**/info/index');
    expect(await tabLabels(c.page)).toEqual(['首页', '个人信息']);
  });

  it('context menu: close others keeps current and home; close all goes home', async () => {
    await c.page.locator('.vg-sidebar').getByText('Help手册').click();
    await c.page.waitForURL('**/myiframe/urlPath?**');
    await expect.poll(() => tabLabels(c.page)).toEqual(['首页', '个人信息', 'Help手册']);
    await c.page.locator('.vg-tab', { hasText: 'Help手册' }).click({ button: 'right' });
    await c.page.getByRole('menuitem', { name: '关闭其他' }).click();
    await c.page.getByRole('menuitem', { name: '关闭其他' }).waitFor({ state: 'detached' });
    await expect.poll(() => tabLabels(c.page)).toEqual(['首页', 'Help手册']);
    await c.page.getByRole('button', { name: '更多' }).click();
    await c.page.getByRole('menuitem', { name: '关闭全部' }).click();
    await c.page.getByRole('menuitem', { name: '关闭全部' }).waitFor({ state: 'detached' });
    await c.page.waitForURL('**/wel/index');
    await expect.poll(() => tabLabels(c.page)).toEqual(['首页']);
    expect(await c.page.locator('.vg-tab .bp6-tag-remove').count()).toBe(0);
  });

  it('clears the cache after confirmation', async () => {
    await c.page.getByRole('button', { name: '更多' }).click();
    await c.page.getByRole('menuitem', { name: '清除缓存' }).click();
    await c.page.getByText('是否需要清除缓存?').waitFor();
    await c.page.getByRole('button', { name: '确定' }).click();
    await c.page.getByText('清除完毕').waitFor();
  });

  it('menu search: overlay and top autocomplete match by prefix, ignoring case; Esc closes', async () => {
    await c.page.getByRole('button', { name: '菜单搜索' }).click();
    const overlay = c.page.getByRole('dialog');
    await overlay.locator('input[name=menuSearch]').fill('HELP');
    await overlay.getByText('Help手册').waitFor();
    await overlay.locator('input[name=menuSearch]').fill('手册');
    await overlay.getByText('暂无数据').waitFor();
    await c.page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    await c.page.locator('input[name=topSearch]').fill('he');
    await c.page.getByRole('menuitem', { name: /Help手册/ }).click();
    await c.page.waitForURL('**/myiframe/urlPath?**');
    expect(decodeURIComponent(c.page.url())).toContain('src=https://example.com/help.html');
  });

  it('locks the screen and unlocks with the password', async () => {
    await c.page.goto('/info/index');
    await c.page.getByRole('button', { name: '锁屏' }).click();
    await c.page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await c.page.getByText('锁屏密码不能为空').waitFor();
    await c.page.fill('input[name=lockPassword]', 'lock-pw');
    await c.page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await c.page.waitForURL('**/lock');
    await c.page.goto('/wel/index');
    await c.page.waitForURL('**/lock');
    await c.page.fill('input[name=unlock]', 'nope');
    await c.page.keyboard.press('Enter');
    await c.page.getByText('解锁密码错误,请重新输入').waitFor();
    await c.page.fill('input[name=unlock]', 'lock-pw');
    await c.page.keyboard.press('Enter');
    await c.page.waitForURL('**/info/index');
  });

  it('switches the language: visible text and title follow; the current language is disabled', async () => {
    await c.page.goto('/wel/index');
    await c.page.getByRole('button', { name: '语言' }).click();
    expect(await c.page.getByRole('menuitem', { name: '中文' }).getAttribute('aria-disabled')).toBe('true');
    await c.page.getByRole('menuitem', { name: 'English' }).click();
    await c.page.locator('.vg-tab', { hasText: 'Home' }).waitFor();
    await expect.poll(() => c.page.title()).toBe('Home');
    await c.page.reload();
    await c.page.locator('.vg-tab', { hasText: 'Home' }).waitFor();
    // The seeded menu groups have English names too (their screens' titles come from the screens).
    await c.page.locator('.vg-sidebar .vg-menu-group > .vg-menu-item', { hasText: 'System' }).waitFor();
    expect(await c.page.locator('.vg-sidebar').innerText()).not.toContain('系统管理');
    await c.page.getByRole('button', { name: 'Language' }).click();
    await c.page.getByRole('menuitem', { name: '中文' }).click();
    await expect.poll(() => c.page.title()).toBe('首页');
  });

  it("opens one menu group at a time: the current screen's, or the one chosen", async () => {
    const header = (title: string) => c.page.locator('.vg-sidebar .vg-menu-group > .vg-menu-item', { hasText: title });
    const open = () => c.page.locator('.vg-sidebar [aria-expanded="true"]');
    await openMenu(c.page, '参数管理', '/system/param');
    expect(await header('系统管理').getAttribute('aria-expanded')).toBe('true');
    expect(await open().count()).toBe(1);
    await header('权限管理').click();
    await c.page.locator('.vg-sidebar').getByText('角色管理', { exact: true }).waitFor();
    expect(await header('系统管理').getAttribute('aria-expanded')).toBe('false');
    expect(await open().count()).toBe(1);
    // Going to a screen opens its group again.
    await c.page.goto('/system/param');
    await expect.poll(() => header('系统管理').getAttribute('aria-expanded')).toBe('true');
    expect(await open().count()).toBe(1);
  });

  it('shows a server refusal in the console language', async () => {
    const refuseOldPassword = async (tab: string, save: string) => {
      await c.page.goto('/info/index');
      await c.page.getByRole('tab', { name: tab }).click();
      await c.page.locator('#oldPassword').fill('not-the-password');
      await c.page.locator('#newPassword').fill('Vigil123!');
      await c.page.locator('#newPassword1').fill('Vigil123!');
      await c.page.getByRole('button', { name: save }).click();
    };
    await c.page.getByRole('button', { name: '语言' }).click();
    await c.page.getByRole('menuitem', { name: 'English' }).click();
    await c.page.locator('.vg-tab', { hasText: 'Home' }).waitFor();
    // The server's 原密码不正确, translated by the server because the console asked in English.
    await refuseOldPassword('Change password', 'Save');
    await c.page.getByText('The current password is wrong').waitFor();
    await c.page.getByRole('button', { name: 'Language' }).click();
    await c.page.getByRole('menuitem', { name: '中文' }).click();
    await c.page.locator('.vg-tab', { hasText: '首页' }).waitFor();
    await refuseOldPassword('修改密码', '保存');
    await c.page.getByText('原密码不正确').waitFor();
  });

  it('theme and colour changes survive a reload', async () => {
    await c.page.getByRole('button', { name: '主题', exact: true }).click();
    await c.page.locator('[data-theme=theme-dark]').click();
    expect(await c.page.evaluate(() => document.body.className)).toContain('theme-dark');
    await c.page.keyboard.press('Escape');
    await c.page.getByRole('button', { name: '主题色' }).click();
    await c.page.locator('.vg-swatch[title="#11a983"]').click();
    await c.page.reload();
    await c.page.locator('.vg-tabs').waitFor();
    expect(await c.page.evaluate(() => document.body.className)).toContain('theme-dark');
    expect(await c.page.evaluate(() => document.documentElement.style.getPropertyValue('--primary'))).toBe('#11a983');
  });

  it('records a thrown UI error in the error log and uploads it to the server', async () => {
    await c.page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e thrown UI error');
      });
    });
    await expect.poll(() => c.page.getByTestId('log-badge').innerText().catch(() => '')).toBe('1');
    await c.page.getByRole('button', { name: '错误日志' }).click();
    const dialog = c.page.getByRole('dialog');
    await dialog.getByRole('cell', { name: 'e2e thrown UI error', exact: true }).waitFor();
    await dialog.getByRole('button', { name: '上传服务器' }).click();
    await c.page.getByText('确定上传本地日志到服务器?').waitFor();
    await c.page.getByRole('button', { name: '确定' }).click();
    await c.page.getByText('发送成功!').waitFor();
    await c.page.getByTestId('log-badge').waitFor({ state: 'detached' });
    const admin = await signedIn(c.server.url);
    const list = await admin.get<{ records: Array<{ message: string }> }>('/api/blade-log/error/list', { current: 1, size: 50 });
    expect(list.body.data.records.map((r) => r.message)).toContain('e2e thrown UI error');
  });

  it('collapses the sidebar with the toggle; on small screens it is a drawer that a menu click closes', async () => {
    await c.page.goto('/wel/index');
    await c.page.getByRole('button', { name: '折叠菜单' }).click();
    await c.page.locator('.vg-sidebar.collapsed').waitFor();
    await c.page.getByRole('button', { name: '折叠菜单' }).click();
    await c.page.locator('.vg-sidebar:not(.collapsed)').waitFor();
    await c.page.setViewportSize({ width: 700, height: 800 });
    // Size class and root font size follow the width after the 300 ms resize debounce.
    await expect.poll(() => c.page.evaluate(() => document.documentElement.dataset.screen)).toBe('0');
    expect(await c.page.evaluate(() => document.documentElement.style.fontSize)).toBe('7px');
    // Below 768 px the sidebar is a drawer over the page, closed until the toggle opens it.
    const drawer = c.page.locator('.vg-sidebar.drawer');
    await drawer.waitFor({ state: 'hidden' });
    await c.page.getByRole('button', { name: '折叠菜单' }).click();
    await drawer.waitFor({ state: 'visible' });
    await c.page.locator('.vg-sidebar').getByText('Help手册').click();
    await drawer.waitFor({ state: 'hidden' });
    await c.page.setViewportSize({ width: 1366, height: 800 });
    await c.page.locator('.vg-sidebar:not(.drawer):not(.collapsed)').waitFor();
  });

  it('top menu: a home item plus the top menus; choosing one loads its menus (none granted: the empty tip)', async () => {
    const admin = await signedIn(c.server.url);
    const saved = await admin.post('/api/blade-system/topmenu/submit', { code: 'e2e_top', name: '监测中心', sort: 1 });
    expect(saved.body.code).toBe(200);
    await c.page.goto('/wel/index');
    const top = c.page.getByRole('navigation', { name: '顶部菜单' });
    await top.getByRole('button', { name: '监测中心' }).click();
    await c.page.locator('.vg-sidebar').getByText('没有发现菜单').waitFor();
    await top.getByRole('button', { name: '首页' }).click();
    await c.page.locator('.vg-sidebar').getByText('Help手册').waitFor();
  });
});

