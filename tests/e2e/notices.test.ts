import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userRoom } from '../../server/realtime';
import { type ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, openMenu, signIn } from './support/console';
import { confirmYes, dialog, rowAction, rowIndexOf } from './support/crud';

/** Demo tenant and device identity (docs/data-model.md). */
const DEMO = '100001';
const DEVICE = 'QJ-CRACK-01';
const DEVICE_PASSWORD = 'Vigil#Device2026';
const X = '/api/wit-xinde';

interface Notice {
  id: string;
  title: string;
  readFlag: number;
}

describe('notice centre, notice dialog and alarm screens', () => {
  let c: ConsoleUnderTest;
  let api: ApiClient;
  let userId: string;
  let device: MqttClient | undefined;
  const notices = async () => (await api.get<{ records: Notice[] }>('/api/blade-desk/notice/list', { size: 100 })).body.data.records;
  const popover = () => c.page.locator('[data-testid="notice-popover"]');

  beforeAll(async () => {
    c = await openConsole();
    api = await signedIn(c.server.url, 'admin', 'admin', DEMO);
    userId = (await api.get<{ userId: string }>('/api/blade-auth/oauth/user-info')).body.data.userId;
    const deviceId = String((await c.server.app.platform.db.selectFrom('wit_device').select('id').where('code', '=', DEVICE).executeTakeFirstOrThrow()).id);
    expect((await api.post(`${X}/alarmnoticestrategy/submit`, { name: 'E2E 全部告警', userIds: userId, channels: 'notice' })).body.success).toBe(true);
    expect((await api.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId, pointKey: 'crack', level1Upper: 5, level4Upper: 1 })).body.success).toBe(true);

    // The demo tenant's administrator signs in (the alarms and notices are theirs).
    const { page } = c;
    // Counts the oscillators of the alarm beep (WebAudio makes no sound the test could hear).
    await page.addInitScript(() => {
      const w = window as unknown as { beeps: number };
      w.beeps = 0;
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        w.beeps += 1;
        return create.call(this);
      };
    });
    await signIn(page, DEMO);
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await c?.stop();
  });

  it('raises the badge on a live alarm without a reload; the alarm notice leads to the alarm page', async () => {
    const { page } = c;
    await page.locator('.vg-notice-bell').waitFor();
    expect(await page.locator('[data-testid="notice-badge"]').count()).toBe(0);
    // The bell's socket has joined the user's room before the device speaks.
    await expect.poll(async () => (await c.server.app.realtime.io.in(userRoom(userId)).fetchSockets()).length).toBeGreaterThan(0);
    const loadsBefore = await page.evaluate(() => performance.getEntriesByType('navigation').length);

    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username: DEVICE, password: DEVICE_PASSWORD, clientId: DEVICE, protocolVersion: 4, reconnectPeriod: 0 });
    await device.publishAsync(`vigil/${DEMO}/device/${DEVICE}/data`, JSON.stringify({ ts: Date.now(), values: { crack: 9.5, temperature: 20 } }), { qos: 1 });

    await expect.poll(() => page.locator('[data-testid="notice-badge"]').innerText().catch(() => ''), { timeout: 15_000 }).toBe('1');
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loadsBefore);
    expect(page.url()).toMatch(/\/wel\/index$/);

    const alarm = (await api.get<{ records: Array<{ id: string; title: string }> }>(`${X}/alarm/list`, { deviceCode: DEVICE })).body.data.records[0];
    // A red alarm cannot be missed: a red toast with the device, point, value and level, and the beep.
    const toast = page.locator('.bp6-toast', { has: page.locator('.vg-alarm-toast') });
    await toast.waitFor();
    expect(await toast.evaluate((el) => el.classList.contains('bp6-intent-danger'))).toBe(true);
    const said = await toast.innerText();
    for (const shown of [alarm.title, `${DEVICE} / crack`, '9.5', '红色']) expect(said).toContain(shown);
    await expect.poll(() => page.evaluate(() => (window as unknown as { beeps: number }).beeps)).toBeGreaterThan(0);
    await toast.locator('.vg-alarm-toast-open').click();
    await page.waitForURL(`**/xinde/alarm?id=${alarm.id}`);
    await expect.poll(() => toast.count()).toBe(0);
    await page.goBack();
    await page.waitForURL('**/wel/index');

    await page.locator('.vg-notice-bell').click();
    await popover().waitFor();
    expect(await popover().locator('[role=tab][aria-selected=true]').innerText()).toBe('告警信息');
    await popover().locator('.vg-notice-item', { hasText: alarm.title }).click();
    await page.waitForURL(`**/xinde/alarm?id=${alarm.id}`);
    await page.locator('.bp6-table-cell').filter({ hasText: DEVICE }).first().waitFor();
    const row = (await page.locator(`.bp6-table-cell-row-${await rowIndexOf(page, DEVICE)}`).allInnerTexts()).join('|');
    for (const shown of ['红色', 'crack', '9.5', '告警中', '未处理']) expect(row).toContain(shown);
    expect(c.browser.errors).toEqual([]);
  });

  it('handles the alarm with a result from the alarm page', async () => {
    const { page } = c;
    // The action column lies right of the alarm's many columns: scroll the table there first.
    const index = await rowIndexOf(page, DEVICE);
    await page.locator('.vg-crud-table .bp6-table-quadrant-scroll-container').first().evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await page.locator(`.bp6-table-cell-row-${index} .vg-action-handle`).first().click();
    await dialog(page).locator('.vg-handle-submit').click();
    await page.getByText('请输入处理结果').last().waitFor();
    await page.locator('#handle-result').fill('现场检查, 裂缝计松动已紧固');
    await dialog(page).locator('.vg-handle-submit').click();
    await page.getByText('操作成功!').last().waitFor();
    const alarm = (await api.get<{ records: Array<{ handleState: number; handleResult: string }> }>(`${X}/alarm/list`, { deviceCode: DEVICE })).body.data.records[0];
    expect(alarm).toMatchObject({ handleState: 1, handleResult: '现场检查, 裂缝计松动已紧固' });
  });

  it('opens a station notice in the notice dialog, marks it read, then marks all read', async () => {
    const { page } = c;
    // The alarm's own in-app notice is read first, so only the notices made here are unread.
    await api.post('/api/blade-desk/notice/batchSetRead', (await notices()).map((n) => ({ id: n.id })));
    for (const title of ['E2E 维护通知', 'E2E 会议通知', 'E2E 事务通知']) {
      expect((await api.post('/api/blade-desk/notice/submit', { title, category: 1, content: `<p>${title}</p>` })).body.success).toBe(true);
    }
    const maintenance = (await notices()).find((n) => n.title === 'E2E 维护通知');

    // The alarm is handled, so only station notices wait: the dot, and the popover opens on the station tab.
    await openMenu(page, '告警接收人');
    await page.locator('[data-testid="notice-dot"]').waitFor();
    await page.locator('.vg-notice-bell').click();
    await popover().locator('.vg-notice-item', { hasText: 'E2E 维护通知' }).click();
    const list = dialog(page);
    await list.locator('.bp6-dialog-header', { hasText: '站内通知' }).waitFor();
    expect(await list.locator('#search-title').inputValue()).toBe('E2E 维护通知');
    await expect.poll(() => list.locator('.vg-total').innerText()).toBe('共 1 条');

    // Mark as read shows only on unread rows.
    await (await rowAction(list, 'E2E 维护通知', 'read')).click();
    await page.getByText('操作成功!').last().waitFor();
    await list.locator('.vg-read').first().waitFor();
    expect(await list.locator(`.bp6-table-cell-row-${await rowIndexOf(list, 'E2E 维护通知')} .vg-action-read`).count()).toBe(0);
    expect((await notices()).find((n) => n.id === maintenance?.id)?.readFlag).toBe(1);

    // Mark all as read: every unread row of the page, after the question.
    await list.locator('.vg-search-reset').click();
    await expect.poll(() => list.locator('.vg-unread').count()).toBe(2);
    await list.locator('.vg-mark-all').click();
    await confirmYes(page, '确定将未读数据全部标记为已读?');
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(() => list.locator('.vg-unread').count()).toBe(0);
    expect((await notices()).filter((n) => n.title.startsWith('E2E') && n.readFlag !== 1)).toEqual([]);

    await list.locator('.vg-mark-all').click();
    await page.getByText('没有未读通知。').last().waitFor();

    // Nothing unread any more: the bell's dot goes.
    await list.locator('.bp6-dialog-close-button').click();
    await expect.poll(() => page.locator('[data-testid="notice-dot"]').count()).toBe(0);
    expect(c.browser.errors).toEqual([]);
  });

  it('lists the threshold with its target and limits', async () => {
    const { page } = c;
    await openMenu(page, '阈值设置', '/xinde/devicethreshold');
    const row = (await page.locator(`.bp6-table-cell-row-${await rowIndexOf(page, '· crack')}`).allInnerTexts()).join('|');
    for (const shown of ['设备点位', '跨中底板裂缝计 · crack', '↑5', '↑1']) expect(row).toContain(shown);
    expect(c.browser.errors).toEqual([]);
  });
});
