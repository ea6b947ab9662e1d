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

/** A form field's value: text is typed in, `{ option }` is picked from a select. */
export type FieldValue = string | { option: string };

/** Fills the open dialog's fields (`#field-<name>`), in the order given. */
export async function fillFields(page: Page, fields: Record<string, FieldValue>): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    const field = page.locator(`#field-${name}`);
    if (typeof value === 'string') await field.fill(value);
    else await field.selectOption(value.option);
  }
}

/** The first table cell showing `text`. */
export const cellWith = (page: Page | Locator, text: string) => page.locator('.bp6-table-cell').filter({ hasText: text }).first();

/** Fills the open dialog, saves it, and waits for the `toast` and for a row showing `shown`. */
export async function saveDialog(page: Page, fields: Record<string, FieldValue>, shown: string, toast = '新增成功'): Promise<void> {
  await fillFields(page, fields);
  await dialog(page).getByRole('button', { name: '保存' }).click();
  await page.getByText(toast).last().waitFor();
  await cellWith(page, shown).waitFor();
}

/** Adds a row through the screen's add dialog; resolves when the table shows it (a cell with `shown`). */
export async function addRow(page: Page, fields: Record<string, FieldValue>, shown: string): Promise<void> {
  await page.locator('.vg-add').click();
  await saveDialog(page, fields, shown);
}
