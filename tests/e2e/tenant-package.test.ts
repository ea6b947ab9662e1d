import { describe, expect, it } from 'vitest';
import { consoleSuite } from './support/console';
import { blurField, confirmYes, dialog, rowAction, selectRow } from './support/crud';

interface Package {
  id: string;
  packageName: string;
  menuId: string;
}

describe('tenant package page', () => {
  const c = consoleSuite({ screen: { menu: '租户产品包', path: '/system/tenantpackage' } });
  const packages = async () => (await c.api.get<{ records: Package[] }>('/api/blade-system/tenant-package/list', { size: 100 })).body.data.records;
  const menuIdOf = async (name: string) => {
    const tree = (await c.api.get<Array<{ id: string; title: string; children?: unknown[] }>>('/api/blade-system/tenant-package/menu-tree')).body.data;
    type Node = { id: string; title: string; children?: Node[] };
    const find = (nodes: Node[]): Node | undefined => nodes.map((n) => (n.title === name ? n : find(n.children ?? []))).find(Boolean);
    return find(tree as Node[])?.id;
  };


  it('validates name and menus, in a 600 px dialog', async () => {
    const { page } = c;
    expect(await page.locator('.vg-page-size select').inputValue()).toBe('10');
    await page.locator('.vg-add').click();
    await expect.poll(async () => Math.round((await dialog(page).boundingBox())?.width ?? 0)).toBe(600);
    await blurField(page, 'packageName');
    await dialog(page).getByText('请输入产品包名称').waitFor();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await dialog(page).getByText('请选择菜单').waitFor();
    await dialog(page).getByRole('button', { name: '取消' }).click();
  });

  it('adds with a menu tree selection, edits, deletes; has no view button', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    await page.locator('#field-packageName').fill('E2E 产品包');
    await page.locator('#field-menuId').click();
    const tree = page.locator('.vg-tree-select');
    await tree.locator('.bp6-tree-node').filter({ hasText: '工作台' }).first().locator('.bp6-tree-node-caret').first().click();
    await tree.getByText('通知公告').click();
    await tree.getByText('工作台').click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#field-menuId').innerText()).toContain('通知公告');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: 'E2E 产品包' }).first().waitFor();
    const [desk, notice] = [await menuIdOf('工作台'), await menuIdOf('通知公告')];
    const saved = (await packages()).find((p) => p.packageName === 'E2E 产品包');
    expect(saved?.menuId.split(',').sort()).toEqual([desk, notice].sort());
    expect(await page.locator('.vg-action-view').count()).toBe(0);

    await (await rowAction(page, 'E2E 产品包', 'edit')).click();
    await expect.poll(() => page.locator('#field-menuId').innerText()).toContain('通知公告');
    await page.locator('#field-packageName').fill('E2E 产品包 改');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: 'E2E 产品包 改' }).first().waitFor();
    expect((await packages()).find((p) => p.id === saved?.id)?.menuId.split(',').sort()).toEqual([desk, notice].sort());

    await (await rowAction(page, 'E2E 产品包 改', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await packages()).some((p) => p.id === saved?.id)).toBe(false);
  });

  it('batch deletes the selected packages after warning on an empty selection', async () => {
    const { page } = c;
    await page.locator('.vg-batch-delete').click();
    await page.getByText('请选择至少一条数据').last().waitFor();
    const menuId = await menuIdOf('通知公告');
    for (const name of ['包一', '包二']) await c.api.post('/api/blade-system/tenant-package/submit', { packageName: name, menuId });
    await page.locator('.vg-crud-toolbar [title="刷新"]').click();
    await selectRow(page, '包一');
    await selectRow(page, '包二');
    await page.locator('.vg-batch-delete').click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await packages()).filter((p) => ['包一', '包二'].includes(p.packageName)).length).toBe(0);
  });
});
