import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from '../../server/db/seed/operator';
import { consoleSuite, openMenu, signIn } from './support/console';
import { dialog } from './support/crud';

/** The demo tenant (server/db/seed/monitoring.ts): its device list is wider than any screen. */
const DEMO = '100001';

describe('list tables: pinned actions, chosen columns, cards on a phone (device list, tenant 100001)', () => {
  const c = consoleSuite({ tenantId: DEMO });
  const scroller = () => c.page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container');
  const box = async (locator: Locator) => {
    const b = await locator.boundingBox();
    if (!b) throw new Error('not laid out');
    return b;
  };
  /** The field names of the shown header cells, in order (the scrolled header quadrant; Blueprint draws the visible ones). */
  const headers = () => c.page.locator('.bp6-table-quadrant-top [data-sort]').evaluateAll((els) => els.map((el) => el.getAttribute('data-sort')));
  const openDevices = async () => {
    await c.page.goto('/xinde/device');
    await c.page.locator('.bp6-table-cell').filter({ hasText: 'QJ-TILT-01' }).first().waitFor();
  };

  it('keeps the action column in view at 1280×720 while the fields scroll sideways', async () => {
    const { page } = c;
    await page.setViewportSize({ width: 1280, height: 720 });
    await openDevices();
    const table = await box(page.locator('.vg-crud-table'));
    const view = page.locator('.bp6-table-cell-row-0 .vg-action-view');
    const before = await box(view);
    expect(before.x + before.width).toBeLessThanOrEqual(1280);
    expect(before.x).toBeGreaterThan(table.x + table.width / 2);
    // The fields are wider than the table: it scrolls sideways, the actions stay where they are.
    const { scrollWidth, clientWidth } = await scroller().evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    expect(await scroller().evaluate((el) => getComputedStyle(el).overflowX)).toBe('auto');
    await scroller().evaluate((el) => {
      el.scrollLeft = 400;
    });
    await expect.poll(() => scroller().evaluate((el) => el.scrollLeft)).toBe(400);
    expect((await box(view)).x).toBe(before.x);
    // The last field scrolls out from under the pinned column.
    await scroller().evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    const last = page.locator('.bp6-table-quadrant-top [data-sort="lastValues"]');
    await last.waitFor();
    // The header quadrant follows the body's scroll on the next frame: wait for it to arrive.
    await expect.poll(async () => {
      const b = await box(last);
      return b.x + b.width;
    }).toBeLessThanOrEqual(before.x);
    await view.click();
    await dialog(page).waitFor();
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
  });

  it("hides and reorders columns for the signed-in user, across reloads, and resets them", async () => {
    const { page } = c;
    await openDevices();
    expect((await headers()).slice(0, 3)).toEqual(['code', 'name', 'modelId']);
    await page.locator('.vg-columns').click();
    const choice = (name: string) => page.locator(`.vg-column-choice[data-name="${name}"]`);
    await choice('modelId').getByText('设备型号').click();
    await choice('name').locator('.vg-column-up').click();
    // A line dragged onto another takes its place.
    await choice('online').dragTo(choice('deviceTypeId'));
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await headers()).slice(0, 4)).toEqual(['name', 'code', 'online', 'deviceTypeId']);
    expect(await headers()).not.toContain('modelId');

    await page.reload();
    await page.locator('.bp6-table-cell').filter({ hasText: 'QJ-TILT-01' }).first().waitFor();
    await expect.poll(async () => (await headers()).slice(0, 4)).toEqual(['name', 'code', 'online', 'deviceTypeId']);
    const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('vigil-userInfo') ?? '{}').content?.userId as string);
    expect(await page.evaluate((key) => localStorage.getItem(key), `vigil-columns-${userId}-wit-xinde/device/list`)).toContain('modelId');

    // Another user of the same browser has the view's own columns.
    await page.context().clearCookies();
    await signIn(page, DEMO, OPERATOR_ACCOUNT, OPERATOR_PASSWORD);
    await openDevices();
    expect((await headers()).slice(0, 3)).toEqual(['code', 'name', 'modelId']);

    await page.context().clearCookies();
    await signIn(page, DEMO);
    await openDevices();
    await expect.poll(async () => (await headers()).slice(0, 2)).toEqual(['name', 'code']);
    await page.locator('.vg-columns').click();
    await page.locator('.vg-columns-reset').click();
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await headers()).slice(0, 3)).toEqual(['code', 'name', 'modelId']);
  });

  it('at 390×844 the sidebar is a closed drawer and the device list is cards with their actions, no sideways scroll', async () => {
    const { page } = c;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/wel/index');
    const drawer = page.locator('.vg-sidebar.drawer');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: '折叠菜单' }).click();
    await drawer.waitFor({ state: 'visible' });
    // Tapping outside closes it.
    await page.locator('.vg-drawer-backdrop').click({ position: { x: 370, y: 400 } });
    await drawer.waitFor({ state: 'hidden' });
    // Choosing a screen closes it too.
    await page.getByRole('button', { name: '折叠菜单' }).click();
    await openMenu(page, '设备列表', '/xinde/device');
    await drawer.waitFor({ state: 'hidden' });

    const card = page.locator('.vg-crud-card').filter({ hasText: 'QJ-TILT-01' });
    await card.waitFor();
    expect(await page.locator('.vg-crud-table').count()).toBe(0);
    expect(await card.innerText()).toContain('设备编号');
    for (const action of ['view', 'edit', 'debug', 'chart']) expect(await card.locator(`.vg-action-${action}`).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await card.locator('.vg-action-view').click();
    await dialog(page).waitFor();
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(c.browser.errors).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 800 });
  });
});
