import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/client';
import { consoleSuite, signIn } from './support/console';
import { confirmYes, dialog, rowAction } from './support/crud';

interface Tenant {
  id: string;
  tenantId: string;
  tenantName: string;
  expireTime: string | null;
  accountNumber: number;
}

describe('tenant page', () => {
  const c = consoleSuite({ screen: { menu: '租户管理', path: '/system/tenant' } });
  const tenants = async (call = 'list') =>
    (await c.api.get<{ records: Tenant[] }>(`/api/blade-system/tenant/${call}`, { size: 100 })).body.data.records.filter((t) => t.tenantName === 'E2E 桥梁公司');


  it('creates a tenant whose administrator signs in with the initial password', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await dialog(page).getByText('请输入租户名称').waitFor();
    await page.locator('#field-tenantName').fill('E2E 桥梁公司');
    await page.locator('#field-linkman').fill('张工');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    const [created] = await tenants();
    expect(created.tenantId).toMatch(/^\d{6}$/);
    await page.locator('.bp6-table-cell').filter({ hasText: created.tenantId }).first().waitFor();
    const admin = await signedIn(c.server.url, 'admin', 'Vigil@123456', created.tenantId);
    expect((await admin.get('/api/blade-system/role/tree')).body).toMatchObject({ success: true });
  });

  it('sets the account quota and expiry through 授权配置; an expired tenant cannot sign in', async () => {
    const { page } = c;
    const code = (await tenants())[0].tenantId;
    await (await rowAction(page, 'E2E 桥梁公司', 'setting')).click();
    await page.locator('#setting-expireTime').fill('2020-01-01T00:00:00');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('操作成功!').last().waitFor();
    await expect(signedIn(c.server.url, 'admin', 'Vigil@123456', code)).rejects.toThrow('租户授权已过期');

    await (await rowAction(page, 'E2E 桥梁公司', 'setting')).click();
    // Chromium shows whole minutes without seconds
    await expect.poll(() => page.locator('#setting-expireTime').inputValue()).toMatch(/^2020-01-01T00:00/);
    await page.locator('#setting-accountNumber').fill('20');
    await page.locator('#setting-expireTime').fill('2030-06-30T12:00:00');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(async () => (await tenants())[0]).toMatchObject({ accountNumber: 20, expireTime: '2030-06-30 12:00:00' });
    await page.locator('.bp6-table-cell').filter({ hasText: '2030-06-30 12:00:00' }).first().waitFor();
    await signedIn(c.server.url, 'admin', 'Vigil@123456', code);
  });

  it('sets the product package through 产品包配置 and shows it when reopened', async () => {
    const { page } = c;
    const pkg = (await c.api.get<{ records: Array<{ id: string }> }>('/api/blade-system/tenant-package/list')).body.data.records[0];
    await (await rowAction(page, 'E2E 桥梁公司', 'package')).click();
    await page.locator('#tenant-package').selectOption(pkg.id);
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('操作成功!').last().waitFor();
    const code = (await tenants())[0].tenantId;
    await expect.poll(async () => (await c.api.get<{ id: string } | null>('/api/blade-system/tenant/package-detail', { tenantId: code })).body.data?.id).toBe(pkg.id);
    await (await rowAction(page, 'E2E 桥梁公司', 'package')).click();
    await expect.poll(() => page.locator('#tenant-package').inputValue()).toBe(pkg.id);
    await dialog(page).getByRole('button', { name: '取消' }).click();
  });

  it('removes the tenant to the recycle bin, restores it, then purges it', async () => {
    const { page } = c;
    await (await rowAction(page, 'E2E 桥梁公司', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await tenants()).length).toBe(0);

    await page.locator('.vg-toolbar-recovery').click();
    const bin = page.locator('.vg-tenant-recycle');
    await (await rowAction(bin, 'E2E 桥梁公司', 'restore')).click();
    await confirmYes(page, '确定恢复选择的租户?');
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(async () => (await tenants()).length).toBe(1);
    await bin.locator('.bp6-dialog-close-button').click();
    await page.locator('.vg-crud .bp6-table-cell').filter({ hasText: 'E2E 桥梁公司' }).first().waitFor();

    await (await rowAction(page, 'E2E 桥梁公司', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await page.locator('.vg-toolbar-recovery').click();
    await (await rowAction(bin, 'E2E 桥梁公司', 'purge')).click();
    await confirmYes(page, '确定彻底删除该租户及其全部数据? 此操作不可恢复');
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await tenants('recovery')).length).toBe(0);
  });
});

describe('sidebar of a tenant administrator', () => {
  const c = consoleSuite({ signIn: false });

  it('hides the platform-only menus from tenant 100001', async () => {
    const { page } = c;
    await signIn(page, '100001');
    const sidebar = page.locator('.vg-sidebar');
    await sidebar.getByText('参数管理', { exact: true }).waitFor({ state: 'attached' });
    for (const platformOnly of ['租户管理', '菜单管理', '应用管理', '租户产品包', '数据权限', '接口权限']) {
      expect(await sidebar.getByText(platformOnly, { exact: true }).count(), platformOnly).toBe(0);
    }
  });
});
