import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from '../../server/db/seed/operator';
import { signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, signIn } from './support/console';

/**
 * The seeded duty operator of the demo tenant (server/db/seed/operator.ts, docs/authorisation.md): the console shows it
 * the screens and buttons its role holds and no others, and every one it shows works against the server.
 */
describe('the demo duty operator in the console', () => {
  let c: ConsoleUnderTest;
  const cell = (text: string) => c.page.locator('.bp6-table-cell').filter({ hasText: text });

  beforeAll(async () => {
    c = await openConsole();
    await signIn(c.page, '100001', OPERATOR_ACCOUNT, OPERATOR_PASSWORD);
  });
  afterAll(() => c?.stop());

  it('sees only the menus of its role', async () => {
    const sidebar = c.page.locator('.vg-sidebar');
    await sidebar.getByText('设备管理', { exact: true }).waitFor();
    for (const group of ['项目管理', '监测管理', '告警管理', '数据管理']) await sidebar.getByText(group, { exact: true }).waitFor();
    for (const hidden of ['系统管理', '权限管理', 'MQTT管理', '协议管理', '日志管理']) expect(await sidebar.getByText(hidden, { exact: true }).count()).toBe(0);
  });

  it('gets 调试 and 历史曲线 on the device list but no add, edit or delete, and the debug console opens', async () => {
    const { page } = c;
    await page.goto('/xinde/device');
    await cell('QJ-TILT-01').first().waitFor();
    expect(await page.locator('.vg-add').count()).toBe(0);
    expect(await page.locator('.vg-batch-delete').count()).toBe(0);
    expect(await page.locator('.vg-action-edit').count()).toBe(0);
    expect(await page.locator('.vg-action-delete').count()).toBe(0);
    // The table renders the columns in view only: bring the action column in.
    await page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await page.locator('.vg-action-debug').first().waitFor();
    await page.locator('.vg-action-chart').first().waitFor();
    expect(await page.locator('.vg-action-command').count()).toBe(0);
    expect(await page.locator('.vg-action-init').count()).toBe(0);

    // What it is shown, the server accepts: the list, the debug console (HTTP and socket.io), the history chart, alarms.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && [401, 403].includes(response.status())) refused.push(response.url());
    });
    const api = await signedIn(c.server.url, OPERATOR_ACCOUNT, OPERATOR_PASSWORD, '100001');
    const device = (await api.get<{ records: Array<{ id: string }> }>('/api/wit-xinde/device/list', { code: 'QJ-TILT-01' })).body.data.records[0];
    await page.goto(`/xinde/device/debug?id=${device.id}`);
    await page.getByText('QJ-TILT-01').first().waitFor();
    await page.goto(`/xinde/device/history?id=${device.id}`);
    await page.locator('.vg-history, canvas, svg').first().waitFor();
    await page.goto('/xinde/alarm');
    await page.locator('.vg-crud-main').waitFor();
    expect(refused).toEqual([]);
  });

  it('gets 403 for a screen its menus do not hold, typed into the address bar', async () => {
    await c.page.goto('/system/user');
    await c.page.locator('.vg-error-page').getByText('403').waitFor();
    // A screen its buttons open (历史曲线 of the device list) is held through that menu: once the sidebar shows the
    // menus, the verdict is in.
    await c.page.goto('/xinde/device/history');
    await c.page.locator('.vg-sidebar').getByText('设备管理', { exact: true }).waitFor();
    expect(await c.page.locator('.vg-error-page').count()).toBe(0);
  });
});
