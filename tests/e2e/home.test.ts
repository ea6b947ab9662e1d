import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardData, IndexData } from '../../resources/wire/statistics';
import { tenantRoom } from '../../server/realtime';
import { consoleSuite, signIn } from './support/console';

/** The demo tenant (docs/data-model.md): its administrator signs in; its crack meter speaks over MQTT. */
const DEMO = '100001';
const DEVICE = 'QJ-CRACK-01';
const DEVICE_PASSWORD = 'Vigil#Device2026';
const X = '/api/wit-xinde';
/** How long the page may take to show what the server says (a socket event, a refetch, a dictionary). */
const SOON = { timeout: 15_000 };

/** A figure of the home as shown: the last whole number of its element (`红色 2` → 2). */
async function figure(page: Page, key: string): Promise<number> {
  const text = await page.locator(`[data-figure="${key}"]`).first().innerText();
  const numbers = text.match(/\d+/g);
  if (!numbers) throw new Error(`figure ${key} shows no number: ${text}`);
  return Number(numbers[numbers.length - 1]);
}

/** What the home shows, by the figure keys of src/features/wel (HomePage, HomeCards). */
async function shown(page: Page): Promise<Record<string, number>> {
  const keys = ['projects', 'devices.total', 'devices.online', 'devices.offline', 'devices.never', 'gateways.total', 'gateways.online', 'gateways.offline', 'gateways.never', 'pointsToday', 'unhandled', 'notices', 'alarms.level1', 'alarms.level2', 'alarms.level3', 'alarms.level4'];
  return Object.fromEntries(await Promise.all(keys.map(async (key) => [key, await figure(page, key)] as const)));
}

/** The same figures from the API answer. */
const answered = (data: IndexData): Record<string, number> => ({
  projects: data.projects,
  'devices.total': data.devices.total,
  'devices.online': data.devices.online,
  'devices.offline': data.devices.offline,
  'devices.never': data.devices.never,
  'gateways.total': data.gateways.total,
  'gateways.online': data.gateways.online,
  'gateways.offline': data.gateways.offline,
  'gateways.never': data.gateways.never,
  pointsToday: data.pointsToday,
  unhandled: data.unhandledAlarms,
  notices: data.unreadNotices,
  'alarms.level1': data.openAlarms['1'],
  'alarms.level2': data.openAlarms['2'],
  'alarms.level3': data.openAlarms['3'],
  'alarms.level4': data.openAlarms['4'],
});

describe('the home and the data board', () => {
  const c = consoleSuite({ tenantId: DEMO });
  let device: MqttClient | undefined;
  const indexData = async () => (await c.api.get<IndexData>(`${X}/index/getIndexData`)).body.data;

  beforeAll(async () => {
    const deviceId = String((await c.server.app.platform.db.selectFrom('wit_device').select('id').where('code', '=', DEVICE).executeTakeFirstOrThrow()).id);
    // A red alarm once the crack is wider than 5 mm, a blue one once it is warmer than 10 °C.
    expect((await c.api.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId, pointKey: 'crack', level1Upper: 5 })).body.success).toBe(true);
    expect((await c.api.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId, pointKey: 'temperature', level4Upper: 10 })).body.success).toBe(true);
  });
  afterAll(async () => {
    await device?.endAsync(true);
  });

  it('shows the figures the API gives for the signed-in user', async () => {
    const { page } = c;
    await page.locator('[data-figure="devices.total"]').waitFor();
    const api = answered(await indexData());
    // Nothing moves in the demo tenant meanwhile: no device is connected yet.
    expect(await shown(page)).toEqual(api);
    expect(api['devices.total']).toBeGreaterThan(0);
    expect(await page.locator('[data-entry="/xinde/device"]').count()).toBe(1);
    expect(c.browser.errors).toEqual([]);
  });

  it('follows a reading and an alarm raised through the server without a reload', async () => {
    const { page } = c;
    const before = answered(await indexData());
    // The home's socket has joined the tenant's room before the device speaks.
    await expect.poll(async () => (await c.server.app.realtime.io.in(tenantRoom(DEMO)).fetchSockets()).length, SOON).toBeGreaterThan(0);
    const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);

    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username: DEVICE, password: DEVICE_PASSWORD, clientId: DEVICE, protocolVersion: 4, reconnectPeriod: 0 });
    await device.publishAsync(`vigil/${DEMO}/device/${DEVICE}/data`, JSON.stringify({ ts: Date.now(), values: { crack: 9.5, temperature: 20 } }), { qos: 1 });

    // The red and blue counts, the unhandled count, the device online and today's points move on the open page.
    await expect.poll(() => figure(page, 'alarms.level1'), SOON).toBe(before['alarms.level1'] + 1);
    await expect.poll(() => figure(page, 'alarms.level4'), SOON).toBe(before['alarms.level4'] + 1);
    await expect.poll(() => figure(page, 'unhandled'), SOON).toBe(before.unhandled + 2);
    await expect.poll(() => figure(page, 'devices.online'), SOON).toBe(before['devices.online'] + 1);
    await expect.poll(() => figure(page, 'pointsToday'), SOON).toBe(before.pointsToday + 2);
    await page.locator('.vg-latest-alarm', { hasText: DEVICE }).first().waitFor();
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
    expect(page.url()).toMatch(/\/wel\/index$/);
    const now = answered(await indexData());
    await expect.poll(() => shown(page), SOON).toEqual(now);
    expect(c.browser.errors).toEqual([]);
  });

  it('leads a count to its list, filtered: open red alarms, offline devices', async () => {
    const { page } = c;
    const red = await figure(page, 'alarms.level1');
    // The blue alarm is open too: a list that ignored the filters would count it.
    expect(await figure(page, 'alarms.level4')).toBeGreaterThan(0);
    await page.locator('[data-figure="alarms.level1"]').click();
    await page.waitForURL((url) => url.pathname === '/xinde/alarm' && url.searchParams.get('alarmLevel') === '1' && url.searchParams.get('alarmState') === '1');
    // The filters are the search bar's own: shown there, and the list holds exactly the red open alarms.
    await page.locator('.vg-total', { hasText: `共 ${red} 条` }).waitFor();
    // The level's choices come from its dictionary: the select shows the value once they are there.
    await expect.poll(() => page.locator('#search-alarmLevel').inputValue(), SOON).toBe('1');
    expect(await page.locator('#search-alarmState').inputValue()).toBe('1');
    await page.locator('.bp6-table-cell', { hasText: DEVICE }).first().waitFor();

    await page.goto('/wel/index');
    await page.locator('[data-figure="devices.offline"]').waitFor();
    const offline = await figure(page, 'devices.offline');
    await page.locator('[data-figure="devices.offline"]').click();
    await page.waitForURL((url) => url.pathname === '/xinde/device' && url.searchParams.get('online') === '0');
    await page.locator('.vg-total', { hasText: `共 ${offline} 条` }).waitFor();
    expect(await page.locator('#search-online').inputValue()).toBe('0');

    // Never seen: a filter the search bar has no field for is named in a tag, and removing it lists them all.
    await page.goto('/wel/index');
    await page.locator('[data-figure="devices.never"]').waitFor();
    const never = await figure(page, 'devices.never');
    await page.locator('[data-figure="devices.never"]').click();
    await page.waitForURL((url) => url.pathname === '/xinde/device' && url.searchParams.get('lastSeen_null') === '1');
    await page.locator('.vg-total', { hasText: `共 ${never} 条` }).waitFor();
    const tag = page.locator('[data-filter="lastSeen_null"]');
    expect(await tag.innerText()).toContain('最后上报 为空');
    await tag.locator('button').click();
    await page.waitForURL((url) => url.pathname === '/xinde/device' && !url.searchParams.has('lastSeen_null'));
    await page.locator('.vg-total', { hasText: `共 ${(await indexData()).devices.total} 条` }).waitFor();
    expect(c.browser.errors).toEqual([]);
  });

  it('opens the data board from the home and draws its panels from the board call', async () => {
    const { page } = c;
    await page.goto('/wel/index');
    await page.locator('.vg-home-board').click();
    await page.waitForURL('**/wel/dashboard');
    const board = (await c.api.get<BoardData>(`${X}/countAvue/avueStatis`)).body.data;
    // The alarm and the readings of the previous test are today's.
    expect(board.alarmsPerDay.at(-1)?.levels['1']).toBeGreaterThan(0);
    expect(board.pointsPerDay.at(-1)?.count).toBeGreaterThan(0);
    for (const panel of ['alarmsPerDay', 'alarmsByProject', 'pointsPerDay']) await page.locator(`[data-panel="${panel}"] canvas`).first().waitFor();
    const silent = page.locator('[data-panel="silentDevices"] tbody tr');
    await expect.poll(() => silent.count(), SOON).toBe(board.silentDevices.length);
    expect(board.silentDevices.length).toBeGreaterThan(0);
    expect(await silent.first().innerText()).toContain(board.silentDevices[0].code);

    // A panel leads to the list it summarises.
    await page.locator('[data-panel="silentDevices"] .vg-card-head a').click();
    await page.waitForURL((url) => url.pathname === '/xinde/device' && url.searchParams.get('online') === '0' && url.searchParams.get('ascs') === 'lastSeen');
    await page.locator('.bp6-table-cell', { hasText: board.silentDevices[0].code }).first().waitFor();
    expect(c.browser.errors).toEqual([]);
  });

  it('collapses to one column on a phone: nothing widens the page', async () => {
    const { page } = c;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, ready] of [['/wel/index', '[data-figure="devices.total"]'], ['/wel/dashboard', '[data-panel="alarmsPerDay"] canvas']] as const) {
        await page.goto(path);
        await page.locator(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        expect(await page.evaluate(() => document.querySelector('.vg-content')?.scrollWidth ?? 0)).toBeLessThanOrEqual(390);
      }
    } finally {
      await page.setViewportSize({ width: 1366, height: 800 });
    }
    expect(c.browser.errors).toEqual([]);
  });

  it("gives the duty operator the home of their menus: no board, and the board's address refused", async () => {
    const { page } = c;
    await page.context().clearCookies();
    await signIn(page, DEMO, 'operator', 'Operator@2026');
    await page.locator('[data-figure="devices.total"]').waitFor();
    // The operator's quick entries are their menus (device list yes, users no); the board's menu is not one of them.
    await page.locator('[data-entry="/xinde/device"]').waitFor();
    expect(await page.locator('[data-entry="/system/user"]').count()).toBe(0);
    expect(await page.locator('.vg-home-board').count()).toBe(0);
    expect(await page.locator('a[data-figure="alarms.level1"]').count()).toBe(1);
    await page.goto('/wel/dashboard');
    await page.getByText('403').first().waitFor();
    expect(await page.locator('[data-panel]').count()).toBe(0);
    expect(c.browser.errors).toEqual([]);
  });

  it('offers the platform administrator a tenant filter on the board, and asks the board of that tenant', async () => {
    const { page } = c;
    await page.context().clearCookies();
    await signIn(page, '000000');
    await page.goto('/wel/dashboard');
    const tenant = page.locator('.vg-scope-tenant select');
    await tenant.locator(`option[value="${DEMO}"]`).waitFor({ state: 'attached' });
    const asked = page.waitForRequest((request) => request.url().includes('/countAvue/avueStatis') && new URL(request.url()).searchParams.get('tenantId') === DEMO);
    await tenant.selectOption(DEMO);
    await asked;
    // The alarm raised above is the demo tenant's: its day shows on the chart, and the panel's list keeps the tenant.
    await page.locator('[data-panel="alarmsPerDay"] canvas').first().waitFor();
    const href = await page.locator('[data-panel="alarmsPerDay"] .vg-card-head a').getAttribute('href');
    expect(new URL(href ?? '', 'http://console').searchParams.get('tenantId_equal')).toBe(DEMO);
    expect(c.browser.errors).toEqual([]);
  });
});
