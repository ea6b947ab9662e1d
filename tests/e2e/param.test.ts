import { describe, expect, it } from 'vitest';
import { signedIn } from '../support/client';
import { consoleSuite, openMenu, signIn } from './support/console';
import { addRow, blurField, confirmYes, dialog, rowAction, rowIndexOf, saveDialog, selectRow } from './support/crud';

interface Page<T> {
  records: T[];
  total: number;
}

describe('param page (generic list/edit)', () => {
  const c = consoleSuite({ screen: { menu: '参数管理', path: '/system/param' } });
  const list = async (query: Record<string, string> = {}) =>
    (await c.api.get<Page<{ id: string; paramKey: string; paramValue: string; remark?: string | null }>>('/api/blade-system/param/list', { size: 100, ...query })).body.data;


  it('shows every validation message on blur and on save', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    await blurField(page, 'paramName');
    await dialog(page).getByText('请输入参数名称').waitFor();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    for (const message of ['请输入参数名称', '请输入参数键名', '请输入参数键值']) await dialog(page).getByText(message).waitFor();
    await page.locator('#field-paramName').fill('E2E 参数');
    await blurField(page, 'paramName');
    await expect.poll(() => dialog(page).getByText('请输入参数名称').count()).toBe(0);
    await dialog(page).getByRole('button', { name: '取消' }).click();
  });

  it('adds, edits, views and deletes a param', async () => {
    const { page } = c;
    await addRow(page, { paramName: 'E2E 参数', paramKey: 'e2e.key', paramValue: 'first', remark: '备注一' }, 'e2e.key');
    expect((await list({ paramKey: 'e2e.key' })).records[0]).toMatchObject({ paramValue: 'first', remark: '备注一' });

    await (await rowAction(page, 'e2e.key', 'edit')).click();
    await expect.poll(() => page.locator('#field-paramValue').inputValue()).toBe('first');
    await saveDialog(page, { paramValue: 'second', remark: '' }, 'second', '更新成功');
    // An emptied optional field is cleared, not left as it was.
    expect((await list({ paramKey: 'e2e.key' })).records[0].remark ?? '').toBe('');

    await (await rowAction(page, 'e2e.key', 'view')).click();
    await expect.poll(() => page.locator('#field-paramValue').inputValue()).toBe('second');
    expect(await page.locator('#field-paramValue').isDisabled()).toBe(true);
    expect(await dialog(page).getByRole('button', { name: '保存' }).count()).toBe(0);
    await dialog(page).getByRole('button', { name: '关闭' }).click();

    await (await rowAction(page, 'e2e.key', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await list({ paramKey: 'e2e.key' })).total).toBe(0);
  });

  it('warns on batch delete without a selection, then deletes the selected rows', async () => {
    const { page } = c;
    await page.locator('.vg-batch-delete').click();
    await page.getByText('请选择至少一条数据').last().waitFor();
    for (const key of ['batch.one', 'batch.two', 'batch.keep']) await c.api.post('/api/blade-system/param/submit', { paramName: key, paramKey: key, paramValue: 'v' });
    await page.locator('.vg-crud-toolbar [title="刷新"]').click();
    await selectRow(page, 'batch.one');
    await selectRow(page, 'batch.two');
    await page.locator('.vg-batch-delete').click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await list({ paramKey: 'batch.' })).records.map((r) => r.paramKey)).toEqual(['batch.keep']);
  });

  it('searches by key (empty fields dropped) and pages 10 rows by default', async () => {
    const { page } = c;
    for (let i = 0; i < 12; i++) await c.api.post('/api/blade-system/param/submit', { paramName: `页 ${i}`, paramKey: `page.k${String(i).padStart(2, '0')}`, paramValue: 'v' });
    await page.locator('#search-paramKey').fill('page.k');
    await page.locator('.vg-search').click();
    await expect.poll(() => page.locator('.vg-total').innerText()).toContain('12');
    expect(await page.locator('.vg-current').innerText()).toBe('1 / 2');
    await page.locator('.vg-next').click();
    await expect.poll(() => page.locator('.vg-current').innerText()).toBe('2 / 2');
    // A new search goes back to page 1.
    await page.locator('#search-paramKey').fill('page.k1');
    await page.locator('.vg-search').click();
    await expect.poll(() => page.locator('.vg-current').innerText()).toBe('1 / 1');
    expect(await page.locator('.vg-total').innerText()).toContain('2');
    expect(await rowIndexOf(page, 'page.k10')).toBeGreaterThanOrEqual(0);
  });

  it('sorts on the server by a column header (ascs, then descs)', async () => {
    const { page } = c;
    const header = page.locator('.vg-sortable[data-sort="paramKey"]').last();
    await header.click();
    await expect.poll(() => rowIndexOf(page, 'page.k10')).toBe(0);
    await header.click();
    await expect.poll(() => rowIndexOf(page, 'page.k11')).toBe(0);
    await header.click();
  });

  it('filters by a creation date range and goes back to page 1', async () => {
    const { page } = c;
    await page.locator('#search-paramKey').fill('page.k');
    await page.locator('.vg-search').click();
    await page.locator('.vg-next').click();
    await expect.poll(() => page.locator('.vg-current').innerText()).toBe('2 / 2');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.locator('#search-date-from').fill(tomorrow);
    await expect.poll(() => page.locator('.vg-total').innerText()).toMatch(/\b0\b/);
    expect(await page.locator('.vg-current').innerText()).toBe('1 / 1');
    await page.locator('#search-date-from').fill('');
    await expect.poll(() => page.locator('.vg-total').innerText()).toContain('12');
  });
});

describe('param page of a second tenant', () => {
  const c = consoleSuite({ signIn: false });

  it('shows tenant 100001 only its own params', async () => {
    const platform = await signedIn(c.server.url);
    await platform.post('/api/blade-system/param/submit', { paramName: '平台参数', paramKey: 'platform.only', paramValue: 'p' });
    const demo = await signedIn(c.server.url, 'admin', 'admin', '100001');
    const own = await demo.post<{ success: boolean }>('/api/blade-system/param/submit', { paramName: '租户参数', paramKey: 'tenant.own', paramValue: 't' });
    expect(own.body).toMatchObject({ success: true });

    const { page } = c;
    await signIn(page, '100001');
    await openMenu(page, '参数管理');
    await page.locator('.bp6-table-cell').filter({ hasText: 'tenant.own' }).first().waitFor();
    expect(await page.locator('.bp6-table-cell').filter({ hasText: 'platform.only' }).count()).toBe(0);
  });
});
