import { describe, expect, it } from 'vitest';
import { consoleSuite, openMenu } from './support/console';
import { addRow, confirmYes, dialog, rowAction, rowIndexOf, saveDialog } from './support/crud';

interface Entry {
  id: string;
  code: string;
  dictKey: string;
  dictValue: string;
  parentId: string;
}

describe('dictionary pages', () => {
  const c = consoleSuite();
  const childrenOf = async (parentId: string, family = 'dict') =>
    (await c.api.get<{ records: Entry[] }>(`/api/blade-system/${family}/child-list`, { parentId, size: 100 })).body.data.records;


  it('adds a parent dictionary with the form rules of spec §5', async () => {
    const { page } = c;
    await openMenu(page, '系统字典', '/system/dict');
    await page.locator('.vg-add').click();
    await expect.poll(async () => Math.round((await dialog(page).boundingBox())?.width ?? 0)).toBe(880);
    // A new entry's sort starts at 1; emptied, it is required like the code and the name.
    expect(await page.locator('#field-sort').inputValue()).toBe('1');
    await page.locator('#field-sort').fill('');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    for (const message of ['请输入字典编号', '请输入字典名称', '请输入字典排序']) await dialog(page).getByText(message).waitFor();
    await saveDialog(page, { code: 'e2e_dict', dictValue: 'E2E 字典', sort: '1' }, 'e2e_dict');
  });

  it('manages the entries of a dictionary as a lazy tree', async () => {
    const { page } = c;
    await (await rowAction(page, 'e2e_dict', 'config')).click();
    const box = page.locator('.vg-dict-children');
    await box.locator('.vg-add').click();
    const form = dialog(page);
    await expect.poll(() => page.locator('#field-code').inputValue()).toBe('e2e_dict');
    expect(await page.locator('#field-code').isDisabled()).toBe(true);
    expect(await page.locator('#field-parentId').isDisabled()).toBe(true);
    await expect.poll(() => page.locator('#field-parentId').innerText()).toBe('E2E 字典');
    await form.getByRole('button', { name: '保存' }).click();
    await form.getByText('请输入字典键值').waitFor();
    await page.locator('#field-dictKey').fill('1');
    await page.locator('#field-dictValue').fill('一级');
    await page.locator('#field-sort').fill('1');
    await form.getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await box.locator('.bp6-table-cell').filter({ hasText: '一级' }).first().waitFor();

    await (await rowAction(box, '一级', 'add-child')).click();
    await expect.poll(() => page.locator('#field-parentId').innerText()).toBe('一级');
    await page.locator('#field-dictKey').fill('1-1');
    await page.locator('#field-dictValue').fill('二级');
    await page.locator('#field-sort').fill('1');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();

    const parent = (await c.api.get<{ records: Entry[] }>('/api/blade-system/dict/parent-list', { code: 'e2e_dict' })).body.data.records[0];
    const [first] = await childrenOf(parent.id);
    expect(first).toMatchObject({ code: 'e2e_dict', dictKey: '1', dictValue: '一级' });
    expect(await childrenOf(first.id)).toEqual([expect.objectContaining({ code: 'e2e_dict', dictKey: '1-1', dictValue: '二级' })]);

    // The second level loads when its parent row is expanded.
    expect(await box.locator('.bp6-table-cell').filter({ hasText: '二级' }).count()).toBe(0);
    const index = await rowIndexOf(box, '一级');
    await box.locator(`.bp6-table-cell-row-${index} .vg-tree-toggle`).first().click();
    await box.locator('.bp6-table-cell').filter({ hasText: '二级' }).first().waitFor();

    await (await rowAction(box, '二级', 'edit')).click();
    await expect.poll(() => page.locator('#field-dictKey').inputValue()).toBe('1-1');
    expect(await page.locator('#field-code').isDisabled()).toBe(true);
    expect(await page.locator('#field-parentId').isDisabled()).toBe(true);
    await page.locator('#field-dictValue').fill('二级改');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    await expect.poll(async () => (await childrenOf(first.id))[0]?.dictValue).toBe('二级改');

    // The open row stays open across the reload after the save.
    await box.locator('.bp6-table-cell').filter({ hasText: '二级改' }).first().waitFor();
    await (await rowAction(box, '二级改', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(async () => (await childrenOf(first.id)).length).toBe(0);
  });

  it('shows business dictionaries with the same mechanism', async () => {
    const { page } = c;
    await page.locator('.vg-dict-children .bp6-dialog-close-button').click();
    await page.locator('.vg-dict-children').waitFor({ state: 'detached' });
    await openMenu(page, '业务字典', '/system/dictbiz');
    await addRow(page, { code: 'e2e_biz', dictValue: '业务 E2E', sort: '2' }, 'e2e_biz');
    const rows = (await c.api.get<{ records: Entry[] }>('/api/blade-system/dict-biz/parent-list', { code: 'e2e_biz' })).body.data.records;
    expect(rows).toHaveLength(1);
  });
});
