import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../support/client';
import { startServer, type TestServer } from '../support/server';
import { type ConsoleUnderTest, openConsole, signIn } from './support/console';
import { dialog, rowIndexOf } from './support/crud';

type Row = Record<string, unknown> & { id: string };

/**
 * The third-party screens against two real servers: a connection typed into the form, tested, a remote project bound
 * to a new local project through the dialog, its devices synced and bound, and data pulled — all from the console.
 */
describe('third-party platform screens (tenant 100001)', () => {
  let c: ConsoleUnderTest;
  let remote: TestServer;
  const toast = (text: string) => c.page.locator('.bp6-toast', { hasText: text }).first();
  const cell = (text: string) => c.page.locator('.bp6-table-cell').filter({ hasText: text });

  /** Clicks a row's action; the tables are wider than the page and Blueprint renders visible columns only. */
  async function clickAction(text: string, action: string) {
    const scroller = c.page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container');
    await scroller.evaluate((el) => {
      el.scrollLeft = 0;
    });
    const index = await rowIndexOf(c.page, text);
    await scroller.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await c.page.locator(`.bp6-table-cell-row-${index} .vg-action-${action}`).first().click();
  }

  beforeAll(async () => {
    remote = await startServer('sqlite');
    c = await openConsole();
    const { page } = c;
    await signIn(page, '100001');
  });
  afterAll(async () => {
    await c?.stop();
    await remote?.stop();
  });

  it('adds a connection in the form and tests it', async () => {
    const { page } = c;
    await page.goto('/xinde/thirdmonitorparam');
    await page.locator('.vg-add').click();
    const form = dialog(page);
    await form.locator('#field-name').fill('远程平台');
    await form.locator('#field-baseUrl').fill(remote.url);
    await form.locator('#field-thirdTenantId').fill('100001');
    await form.locator('#field-username').fill('admin');
    await form.locator('#field-password').fill('admin');
    await form.locator('#field-clientSecret').fill('saber_secret');
    await form.locator('#field-codePrefix').fill('R-');
    await form.locator('button[type=submit]').click();
    await cell('远程平台').first().waitFor();
    await clickAction('远程平台', 'test');
    await toast('连接成功,共 1 个第三方项目').waitFor();
  });

  it('binds the remote project to a new local project, syncs and binds its devices, and pulls', async () => {
    const { page } = c;
    await page.goto('/xinde/thirdmonitorproject');
    await page.locator('.vg-toolbar-bind').click();
    const bind = dialog(page);
    await expect.poll(() => bind.locator('#third-remote option:checked').innerText()).toContain('钱塘江大桥健康监测');
    await bind.locator('#third-name').fill('钱塘江大桥(远程)');
    await page.screenshot({ path: '/tmp/third-bind.png' });
    await bind.locator('.vg-third-bind-save').click();
    await toast('绑定成功').waitFor();
    await cell('钱塘江大桥(远程)').first().waitFor();

    await clickAction('钱塘江大桥(远程)', 'syncDevices');
    await toast('设备 9 台:新增 9').waitFor();
    await clickAction('钱塘江大桥(远程)', 'syncPoints');
    await toast('测点 14 个:新增 14').waitFor();

    await clickAction('钱塘江大桥(远程)', 'devices');
    const devices = dialog(page);
    await devices.locator('.vg-third-device-table tbody tr').nth(8).waitFor();
    expect(await devices.locator('select[aria-label="QJ-CRACK-01"] option:checked').innerText()).toContain('R-QJ-CRACK-01');
    // Unbinding one device from the dialog.
    await devices.locator('select[aria-label="QJ-CRACK-01"]').selectOption('');
    await page.screenshot({ path: '/tmp/third-devices.png' });
    await devices.locator('.vg-third-devices-save').click();
    await toast('解除 1 台').waitFor();

    await clickAction('钱塘江大桥(远程)', 'pull');
    await toast('拉取 8 台设备').waitFor();
    await page.screenshot({ path: '/tmp/third-projects.png' });

    const api = await signedIn(c.server.url, 'admin', 'admin', '100001');
    const bindings = (await api.get<{ records: Row[] }>('/api/wit-xinde/thirdmonitorproject/list')).body.data.records;
    expect(bindings[0]).toMatchObject({ projectName: '钱塘江大桥(远程)', projectCode: 'R-QJ-BRIDGE', deviceCount: 8, pointCount: 14 });
  });
});
