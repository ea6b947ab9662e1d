import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, openMenu } from './support/console';
import { dialog, rowIndexOf } from './support/crud';

interface Page<T> {
  records: T[];
}
interface UserRow {
  id: string;
  tenantId: string;
  roleId?: string;
  postId?: string;
}

const DEMO = '100001';

/**
 * The platform administrator's user form: the role, dept and post pickers list the roles, depts and posts of the
 * tenant chosen in the form (adding) or of the edited user's tenant, not the administrator's own.
 */
describe('user form of another tenant', () => {
  let c: ConsoleUnderTest;
  let api: ApiClient;
  let demo: ApiClient;
  let demoRole = '';
  let demoPost = '';

  const picker = (name: string) => c.page.locator(`[data-tree-select="field-${name}"]`);
  /** Opens a tree select of the form and returns the texts of its nodes once `expected` shows. */
  async function options(name: string, expected: string): Promise<string> {
    await c.page.locator(`#field-${name}`).click();
    await picker(name).getByText(expected).waitFor();
    return picker(name).innerText();
  }
  const users = async (account: string) => (await api.get<Page<UserRow>>('/api/blade-user/page', { account_equal: account })).body.data.records;

  beforeAll(async () => {
    c = await openConsole();
    api = await signedIn(c.server.url);
    demo = await signedIn(c.server.url, 'admin', 'admin', DEMO);
    await api.post('/api/blade-system/role/submit', { parentId: '0', roleName: 'E2E 平台角色', roleAlias: 'e2e_platform', sort: 9 });
    await api.post('/api/blade-system/post/submit', { postCode: 'e2e_platform_post', postName: 'E2E 平台岗位' });
    demoRole = (await demo.post<{ id: string }>('/api/blade-system/role/submit', { parentId: '0', roleName: 'E2E 租户角色', roleAlias: 'e2e_tenant', sort: 9 })).body.data.id;
    demoPost = (await demo.post<{ id: string }>('/api/blade-system/post/submit', { postCode: 'e2e_tenant_post', postName: 'E2E 租户岗位' })).body.data.id;
    await c.login();
  });
  afterAll(() => c?.stop());

  it('lists the chosen tenant’s roles and posts when adding a user, and saves the user there', async () => {
    const { page } = c;
    const tenants = (await api.get<Page<{ tenantId: string; tenantName: string }>>('/api/blade-system/tenant/list')).body.data.records;
    const demoName = tenants.find((t) => t.tenantId === DEMO)?.tenantName ?? '';
    await openMenu(page, '用户管理', '/system/user');
    await page.locator('.vg-add').click();
    // The platform's own by default.
    expect(await options('roleId', 'E2E 平台角色')).not.toContain('E2E 租户角色');
    await page.keyboard.press('Escape');
    await page.locator('#field-roleId').click();
    await picker('roleId').getByText('E2E 平台角色').click();
    await page.keyboard.press('Escape');

    await page.locator('#field-tenantId').click();
    await picker('tenantId').getByText(demoName, { exact: true }).click();
    await expect.poll(() => page.locator('#field-tenantId').innerText()).toBe(demoName);
    // A role of the previous tenant is no longer picked, and the pickers list the chosen tenant's.
    await expect.poll(() => page.locator('#field-roleId').innerText()).toBe('请选择');
    expect(await options('roleId', 'E2E 租户角色')).not.toContain('E2E 平台角色');
    await picker('roleId').getByText('E2E 租户角色').click();
    await page.keyboard.press('Escape');
    expect(await options('postId', 'E2E 租户岗位')).not.toContain('E2E 平台岗位');
    await picker('postId').getByText('E2E 租户岗位').click();
    await page.keyboard.press('Escape');

    await page.locator('#field-account').fill('e2e_cross');
    await page.locator('#field-password').fill('Cross@123');
    await page.locator('#field-name').fill('跨租户');
    await page.locator('#field-realName').fill('跨租户');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await expect.poll(async () => (await users('e2e_cross'))[0]).toMatchObject({ tenantId: DEMO, roleId: demoRole, postId: demoPost });
  });

  it('lists the edited user’s tenant’s roles, with the tenant fixed', async () => {
    const { page } = c;
    await page.reload();
    const index = await rowIndexOf(page, 'e2e_cross');
    await page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await page.locator(`.bp6-table-cell-row-${index} .vg-action-edit`).click();
    await expect.poll(() => page.locator('#field-roleId').innerText()).toBe('E2E 租户角色');
    expect(await page.locator('#field-tenantId').isDisabled()).toBe(true);
    expect(await options('roleId', 'E2E 租户角色')).not.toContain('E2E 平台角色');
    await page.keyboard.press('Escape');
    await dialog(page).getByRole('button', { name: '取消' }).click();
  });
});
