import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/client';
import { consoleSuite, openMenu } from './support/console';
import { blurField, confirmYes, dialog, rowAction, rowIndexOf, selectRow } from './support/crud';
import { expectEvery } from '../support/lists';

interface Page<T> {
  records: T[];
  total: number;
}
interface UserRow {
  id: string;
  account: string;
  roleId?: string;
  status?: number;
  tenantId: string;
}
interface MenuRow {
  id: string;
  code: string;
}

const INITIAL_PASSWORD = 'Vigil@123456';

describe('user, dept and post screens', () => {
  const c = consoleSuite();
  const users = async (query: Record<string, string> = {}) => (await c.api.get<Page<UserRow>>('/api/blade-user/page', { size: 100, ...query })).body.data;
  const cell = (text: string) => c.page.locator('.vg-crud-main .bp6-table-cell').filter({ hasText: text });

  /** Signs out by dropping the browser's session, then signs in through the login page. */
  async function loginAs(account: string, password: string, tenantId?: string) {
    const { page } = c;
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    if (tenantId) await page.fill('#tenantId', tenantId);
    await page.fill('#username', account);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await page.waitForURL('**/wel/index');
  }

  /** The user table is wider than the page: scrolls to its action column (Blueprint renders visible columns only). */
  async function showActions(right = true) {
    await c.page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el, end) => {
      el.scrollLeft = end ? el.scrollWidth : 0;
    }, right);
  }


  it('creates a user, grants it a role through 角色配置; the user sees only the granted menus and buttons', async () => {
    // A role holding the param screen without its delete button.
    await c.api.post('/api/blade-system/role/submit', { parentId: '0', roleName: 'E2E 巡检员', roleAlias: 'e2e_inspector', sort: 9 });
    const role = (await c.api.get<Page<{ id: string; roleAlias: string }>>('/api/blade-system/role/list', { roleAlias: 'e2e_inspector' })).body.data.records[0];
    const menus = (await c.api.get<Page<MenuRow>>('/api/blade-system/menu/list', { size: 1000 })).body.data.records;
    const granted = menus.filter((m) => ['system', 'param', 'param_add', 'param_edit', 'param_view'].includes(m.code)).map((m) => m.id);
    expect(granted).toHaveLength(5);
    expect((await c.api.post('/api/blade-system/role/grant', { roleIds: role.id, menuIds: granted.join(',') })).body).toMatchObject({ success: true });

    const { page } = c;
    await openMenu(c.page, '用户管理', '/system/user');
    await page.locator('.vg-add').click();
    await page.locator('#field-account').fill('e2e_user');
    await page.locator('#field-password').fill('abc');
    await blurField(page, 'password');
    await dialog(page).getByText('密码长度为6-30位,且须包含数字、字母和特殊字符').waitFor();
    await page.locator('#field-phone').fill('1380013800');
    await blurField(page, 'phone');
    await dialog(page).getByText('手机号码长度不为11位').waitFor();
    await page.locator('#field-phone').fill('12800138000');
    await blurField(page, 'phone');
    await dialog(page).getByText('手机号码格式不正确').waitFor();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    for (const message of ['请输入用户昵称', '请输入用户姓名']) await dialog(page).getByText(message).waitFor();
    await page.locator('#field-password').fill('First@123');
    await page.locator('#field-phone').fill('13800138000');
    await page.locator('#field-name').fill('E2E');
    await page.locator('#field-realName').fill('端到端');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await cell('e2e_user').first().waitFor();

    await selectRow(page, 'e2e_user');
    await page.locator('.vg-user-role').click();
    await page.locator('#grant-roles').click();
    await page.locator('.vg-tree-select').getByText('E2E 巡检员').click();
    await page.keyboard.press('Escape');
    await page.locator('.vg-grant-save').click();
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(async () => (await users({ account: 'e2e_user' })).records[0]?.roleId).toBe(role.id);
    await expect.poll(() => cell('E2E 巡检员').count()).toBeGreaterThan(0);

    await loginAs('e2e_user', 'First@123');
    const sidebar = page.locator('.vg-sidebar');
    await sidebar.getByText('参数管理').waitFor({ state: 'attached' });
    expect(await sidebar.getByText('用户管理').count()).toBe(0);
    await openMenu(c.page, '参数管理', '/system/param');
    await page.locator('.vg-add').waitFor();
    await page.locator('.vg-action-edit').first().waitFor();
    expect(await page.locator('.vg-batch-delete').count()).toBe(0);
    expect(await page.locator('.vg-action-delete').count()).toBe(0);
  });

  it('resets a password to the initial password after a confirmation', async () => {
    const { page } = c;
    await loginAs('admin', 'admin');
    await openMenu(c.page, '用户管理', '/system/user');
    // The password is set on add only: the edit form has none.
    const index = await rowIndexOf(page, 'e2e_user');
    await showActions();
    await page.locator(`.bp6-table-cell-row-${index} .vg-action-edit`).click();
    await expect.poll(() => page.locator('#field-realName').inputValue()).toBe('端到端');
    expect(await page.locator('#field-password').count()).toBe(0);
    await dialog(page).getByRole('button', { name: '取消' }).click();
    await showActions(false);
    await selectRow(page, 'e2e_user');
    await page.locator('.vg-user-reset').click();
    await confirmYes(page, '确定将选择账号密码重置为初始密码?');
    await page.getByText('操作成功!').last().waitFor();
    await loginAs('e2e_user', INITIAL_PASSWORD);
    await page.locator('.vg-sidebar').getByText('参数管理').waitFor({ state: 'attached' });
  });

  it('approves a pending user and keeps the platform settings', async () => {
    const { page } = c;
    await c.api.post('/api/blade-user/submit', { account: 'e2e_pending', password: 'Pend@123', name: '待审', realName: '待审', status: 0 });
    await loginAs('admin', 'admin');
    await openMenu(c.page, '用户管理', '/system/user');
    const index = await rowIndexOf(page, 'e2e_pending');
    await page.locator(`.bp6-table-cell-row-${index}`).filter({ hasText: '待审核' }).first().waitFor();
    await showActions();
    await page.locator(`.bp6-table-cell-row-${index} .vg-action-approve`).click();
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(async () => (await users({ account: 'e2e_pending' })).records[0]?.status).toBe(1);
    await expect.poll(() => page.locator(`.bp6-table-cell-row-${index} .vg-action-approve`).count()).toBe(0);

    await showActions();
    await page.locator(`.bp6-table-cell-row-${index} .vg-action-platform`).click();
    await page.locator('#platform-userType').selectOption({ index: 1 });
    await page.locator('#platform-userExt').fill('{"device":"pad"}');
    await page.locator('.vg-platform-save').click();
    await page.getByText('操作成功!').last().waitFor();
    const id = (await users({ account: 'e2e_pending' })).records[0].id;
    expect((await c.api.get<{ userExt: string }>('/api/blade-user/platform-detail', { userId: id })).body.data.userExt).toBe('{"device":"pad"}');
  });

  it('filters users by a dept and the depts below it', async () => {
    const { page } = c;
    const top = (await c.api.post<{ id: string }>('/api/blade-system/dept/submit', { parentId: '0', deptName: 'E2E总部', sort: 50 })).body.data;
    const branch = (await c.api.post<{ id: string }>('/api/blade-system/dept/submit', { parentId: top.id, deptName: 'E2E分部', sort: 1 })).body.data;
    await c.api.post('/api/blade-user/submit', { account: 'e2e_top', password: 'Top@1234', name: '总部', realName: '总部', deptId: top.id });
    await c.api.post('/api/blade-user/submit', { account: 'e2e_branch', password: 'Bra@1234', name: '分部', realName: '分部', deptId: branch.id });
    await page.reload();
    await page.locator('.vg-dept-filter').getByText('E2E总部').click();
    await cell('e2e_branch').first().waitFor();
    await cell('e2e_top').first().waitFor();
    await expect.poll(() => cell('e2e_user').count()).toBe(0);
    // Top-level depts open at once, so the branch is already shown.
    await page.locator('.vg-dept-filter').getByText('E2E分部').click();
    await expect.poll(() => cell('e2e_top').count()).toBe(0);
    await cell('e2e_branch').first().waitFor();
    await page.locator('.vg-dept-all').click();
    await cell('e2e_user').first().waitFor();
  });

  it('adds a child dept from a row of the dept tree table', async () => {
    const { page } = c;
    await openMenu(c.page, '部门管理', '/system/dept');
    await (await rowAction(page, 'E2E总部', 'add-child')).click();
    await expect.poll(() => page.locator('#field-parentId').innerText()).toContain('E2E总部');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await dialog(page).getByText('请输入机构名称').waitFor();
    await page.locator('#field-deptName').fill('E2E子部门');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    const top = (await c.api.get<Array<{ id: string; deptName: string }>>('/api/blade-system/dept/lazy-list', { deptName: 'E2E总部' })).body.data[0];
    const children = (await c.api.get<Array<{ deptName: string }>>('/api/blade-system/dept/lazy-list', { parentId: top.id })).body.data;
    expect(children.map((d) => d.deptName).sort()).toEqual(['E2E分部', 'E2E子部门']);
  });

  it('adds a post with the spec messages', async () => {
    const { page } = c;
    await openMenu(c.page, '岗位管理', '/system/post');
    await page.locator('.vg-add').click();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    for (const message of ['请输入岗位编号', '请输入岗位名称']) await dialog(page).getByText(message).waitFor();
    await page.locator('#field-category').selectOption({ index: 1 });
    await page.locator('#field-postCode').fill('e2e_post');
    await page.locator('#field-postName').fill('E2E 岗位');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await c.page.locator('.bp6-table-cell').filter({ hasText: 'e2e_post' }).first().waitFor();
  });

  it("shows tenant 100001's administrator only its own users", async () => {
    const { page } = c;
    const demo = await signedIn(c.server.url, 'admin', 'admin', '100001');
    await demo.post('/api/blade-user/submit', { account: 'demo_only', password: 'Demo@123', name: '租户用户', realName: '租户用户' });
    const own = (await demo.get<Page<UserRow>>('/api/blade-user/page', { size: 100 })).body.data.records;
    expectEvery(own, (u) => u.tenantId === '100001');

    await loginAs('admin', 'admin', '100001');
    await openMenu(c.page, '用户管理', '/system/user');
    await cell('demo_only').first().waitFor();
    await expect.poll(() => page.locator('.vg-total').innerText()).toContain(String(own.length));
    expect(await cell('e2e_user').count()).toBe(0);
    // The tenant column is the platform administrator's.
    expect(await page.locator('.vg-crud-main').getByText('所属租户').count()).toBe(0);
  });
});
