import { describe, expect, it } from 'vitest';
import { consoleSuite } from './support/console';
import { confirmYes, dialog, rowAction, rowIndexOf } from './support/crud';

interface Notice {
  id: string;
  title: string;
  category: number;
  releaseTime: string;
  content: string;
}

describe('notice page (通知公告)', () => {
  const c = consoleSuite({ screen: { menu: '通知公告', path: '/desk/notice' } });
  const find = async (title: string) =>
    (await c.api.get<{ records: Notice[] }>('/api/blade-desk/notice/list', { title, size: 10 })).body.data.records.find((n) => n.title === title);


  it('creates a notice with rich text; a script typed into the editor never reaches the server', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    await page.locator('#field-title').fill('维护通知');
    await page.locator('#field-category').selectOption('1');
    await page.locator('#field-releaseTime').fill('2026-03-01');
    const editor = page.locator('#field-content');
    await editor.click();
    await page.keyboard.type('今晚维护');
    await page.keyboard.press('Control+A');
    await dialog(page).locator('.vg-rich-text-toolbar button[title="加粗"]').click();
    // Pasted markup with a script goes through the same path as typing.
    await editor.evaluate((node) => {
      node.innerHTML += '<p>第二段</p><script>window.__noticeXss = 1</script>';
      node.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: '维护通知' }).first().waitFor();
    const row = (await page.locator(`.bp6-table-cell-row-${await rowIndexOf(page, '维护通知')}`).allInnerTexts()).join('|');
    expect(row).toContain('发布通知');
    expect(row).toContain('2026-03-01');
    expect(row).not.toContain('今晚维护');

    const saved = await find('维护通知');
    expect(saved).toMatchObject({ category: 1, releaseTime: '2026-03-01 00:00:00' });
    expect(saved?.content).toMatch(/<(b|strong)>今晚维护<\/(b|strong)>/);
    expect(saved?.content).toContain('第二段');
    expect(saved?.content).not.toContain('script');
  });

  it('shows content saved with a script without it: the server strips it', async () => {
    const raw = '<p>安全内容</p><script>window.__noticeXss = 1</script><img src="x" onerror="window.__noticeXss = 2">';
    const created = await c.api.post<{ id: string }>('/api/blade-desk/notice/submit', { title: '脚本通知', category: 2, content: raw });
    expect(created.body).toMatchObject({ success: true });
    const stored = await find('脚本通知');
    expect(stored?.content).toContain('安全内容');
    expect(stored?.content).not.toMatch(/script|onerror/);

    const { page } = c;
    await page.locator('.vg-crud-toolbar [title="刷新"]').click();
    await (await rowAction(page, '脚本通知', 'view')).click();
    const content = dialog(page).locator('#field-content');
    await expect.poll(() => content.innerText()).toContain('安全内容');
    expect(await content.innerHTML()).not.toMatch(/script|onerror/);
    expect(await page.evaluate(() => (window as unknown as { __noticeXss?: number }).__noticeXss)).toBeUndefined();
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });

  it('searches by title, edits and deletes a notice', async () => {
    const { page } = c;
    await page.locator('#search-title').fill('维护');
    await page.locator('.vg-search').click();
    await expect.poll(() => page.locator('.bp6-table-cell').filter({ hasText: '脚本通知' }).count()).toBe(0);
    await (await rowAction(page, '维护通知', 'edit')).click();
    await expect.poll(() => page.locator('#field-title').inputValue()).toBe('维护通知');
    await page.locator('#field-title').fill('维护通知(改)');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    expect(await find('维护通知(改)')).toBeDefined();

    await (await rowAction(page, '维护通知(改)', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(() => find('维护通知(改)')).toBeUndefined();
  });
});
