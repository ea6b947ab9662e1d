import { describe, expect, it } from 'vitest';
import { consoleSuite } from './support/console';
import { dialog, rowAction, rowIndexOf, saveDialog } from './support/crud';

interface Region {
  code: string;
  parentCode: string;
  name: string;
  regionLevel: number;
  ancestors: string;
  hasChildren?: boolean;
}

describe('region page (lazy tree)', () => {
  const c = consoleSuite({ screen: { menu: '行政区划', path: '/system/region' } });
  const detail = async (code: string) => (await c.api.get<Region | null>('/api/blade-system/region/detail', { code })).body.data;


  it('adds a province, then a city below it with the parent code preset', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    expect(await page.locator('#field-parentCode').inputValue()).toBe('00');
    await saveDialog(page, { code: '91', name: '测试省', sort: '1' }, '测试省');

    await (await rowAction(page, '测试省', 'add-child')).click();
    await expect.poll(() => page.locator('#field-parentCode').inputValue()).toBe('91');
    expect(await page.locator('#field-parentCode').isDisabled()).toBe(true);
    await page.locator('#field-code').fill('9101');
    await page.locator('#field-name').fill('测试市');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    expect(await detail('9101')).toMatchObject({ parentCode: '91', regionLevel: 2, ancestors: '00,91', name: '测试市' });
  });

  it('loads a level only when its parent is expanded', async () => {
    const { page } = c;
    // A child added through the API (not yet loaded by the page) shows up on expand.
    await c.api.post('/api/blade-system/region/submit', { code: '9102', parentCode: '91', name: '接口市', sort: 2 });
    await page.locator('.vg-crud-toolbar [title="刷新"]').click();
    await page.locator('.bp6-table-cell').filter({ hasText: '测试省' }).first().waitFor();
    expect(await page.locator('.bp6-table-cell').filter({ hasText: '测试市' }).count()).toBe(0);
    const province = await rowIndexOf(page, '测试省');
    await page.locator(`.bp6-table-cell-row-${province} .vg-tree-toggle`).click();
    await page.locator('.bp6-table-cell').filter({ hasText: '测试市' }).first().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: '接口市' }).first().waitFor();
    // The level column shows the dictionary label of regionLevel 2.
    const city = await rowIndexOf(page, '测试市');
    await expect.poll(async () => (await page.locator(`.bp6-table-cell-row-${city}`).allInnerTexts()).join('|')).toContain('地市');
  });

  it('shows a region by its code and renames it', async () => {
    const { page } = c;
    await (await rowAction(page, '测试市', 'view')).click();
    await expect.poll(() => page.locator('#field-name').inputValue()).toBe('测试市');
    expect(await page.locator('#field-code').inputValue()).toBe('9101');
    await dialog(page).getByRole('button', { name: '关闭' }).click();

    await (await rowAction(page, '测试市', 'edit')).click();
    await expect.poll(() => page.locator('#field-name').inputValue()).toBe('测试市');
    expect(await page.locator('#field-code').isDisabled()).toBe(true);
    await page.locator('#field-name').fill('改名市');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: '改名市' }).first().waitFor();
    expect(await detail('9101')).toMatchObject({ name: '改名市', cityName: '改名市', provinceName: '测试省' });
  });
});
