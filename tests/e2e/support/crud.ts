import type { Locator, Page } from 'playwright-core';

/** Helpers for the generic list/edit page (src/crud) in a real browser. */
export const dialog = (page: Page) => page.locator('.bp6-dialog').last();

/** The row index (Blueprint cell class bp6-table-cell-row-N) of the first row showing `text`. */
export async function rowIndexOf(page: Page | Locator, text: string): Promise<number> {
  const cell = page.locator('.bp6-table-cell').filter({ hasText: text }).first();
  await cell.waitFor();
  const classes = (await cell.getAttribute('class')) ?? '';
  return Number(/bp6-table-cell-row-(\d+)/.exec(classes)?.[1]);
}

/** A button of a row's action column (`page` may be a locator of one table's container). */
export async function rowAction(page: Page | Locator, text: string, action: string): Promise<Locator> {
  const index = await rowIndexOf(page, text);
  return page.locator(`.bp6-table-cell-row-${index} .vg-action-${action}`).first();
}

export async function selectRow(page: Page | Locator, text: string): Promise<void> {
  const index = await rowIndexOf(page, text);
  await page.locator(`.bp6-table-cell-row-${index} .vg-select`).first().click();
}

export async function confirmYes(page: Page, question = '确定将选择数据删除?'): Promise<void> {
  const alert = page.locator('.bp6-alert').filter({ hasText: question });
  await alert.waitFor();
  await alert.getByRole('button', { name: '确定' }).click();
}

/** Blurs a form field by focusing it and pressing Tab. */
export async function blurField(page: Page, name: string): Promise<void> {
  await page.locator(`#field-${name}`).focus();
  await page.keyboard.press('Tab');
}
