import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import mqtt, { type MqttClient } from 'mqtt';
import type { WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../resources/datetime';
import { type ConsoleUnderTest, openConsole, tabLabels } from './support/console';

/** Demo identity of tenant 100001 (docs/data-model.md); the console signs in as the platform administrator. */
const DEVICE_PASSWORD = 'Vigil#Device2026';

describe('device debug and history views', () => {
  let c: ConsoleUnderTest;
  let device: MqttClient | undefined;
  let deviceId: string;

  beforeAll(async () => {
    c = await openConsole();
    deviceId = String((await c.server.app.platform.db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-CRACK-01').executeTakeFirstOrThrow()).id);
    await c.login();
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await c?.stop();
  });

  it('shows a reading published over MQTT as it arrives, and the device going online', async () => {
    await c.page.goto(`/xinde/device/debug?id=${deviceId}`);
    await c.page.locator('.vg-debug-connection', { hasText: '实时连接已建立' }).waitFor();
    expect(await c.page.locator('.vg-debug-online').innerText()).toBe('离线');

    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username: 'QJ-CRACK-01', password: DEVICE_PASSWORD, clientId: 'QJ-CRACK-01', protocolVersion: 4, reconnectPeriod: 0 });
    await c.page.locator('.vg-debug-online', { hasText: '在线' }).waitFor();
    await device.publishAsync('vigil/100001/device/QJ-CRACK-01/data', JSON.stringify({ ts: Date.now() - 60_000, values: { crack: 0.777, temperature: 20 } }), { qos: 1 });

    const card = c.page.locator('.vg-debug-message', { hasText: 'crack: 0.777' });
    await card.waitFor();
    expect(await card.innerText()).toContain('vigil/100001/device/QJ-CRACK-01/data');
    await expect.poll(() => c.page.locator('.vg-debug-point[data-key="crack"] .vg-debug-value').innerText()).toContain('mm');

    // A malformed message shows with its error.
    await device.publishAsync('vigil/100001/device/QJ-CRACK-01/data', '{oops', { qos: 1 });
    await c.page.locator('.vg-debug-message.has-error', { hasText: '{oops' }).waitFor();
    expect(c.browser.errors).toEqual([]);
  });

  it("opens the device's history chart and shows its series", async () => {
    await c.page.getByRole('button', { name: '历史曲线' }).click();
    await c.page.waitForURL(`**/xinde/device/history?id=${deviceId}`);
    const crack = c.page.locator('.vg-history-series[data-key="crack"]');
    await crack.waitFor();
    expect(await crack.innerText()).toContain('1 个点');
    expect(await c.page.locator('.vg-history-series[data-key="temperature"]').innerText()).toContain('1 个点');
    await c.page.locator('.vg-history-chart canvas').first().waitFor();
    // One more reading, then a longer range: the chart is fetched again.
    await device?.publishAsync('vigil/100001/device/QJ-CRACK-01/data', JSON.stringify({ ts: Date.now() - 30_000, values: { crack: 0.8, temperature: 20 } }), { qos: 1 });
    await c.page.getByRole('button', { name: '7天' }).click();
    await expect.poll(() => crack.innerText()).toContain('2 个点');
    expect(c.browser.errors).toEqual([]);
  });

  it('keeps 1 h and a custom range in the URL, over a reload, in one tab; fits the axis to the data', async () => {
    const fit = c.page.locator('.vg-history-fit');
    await c.page.getByRole('button', { name: '1小时' }).click();
    await c.page.waitForURL(/range=1h/);
    // Two readings half a minute apart fill little of an hour: the axis is fitted to them at once.
    await expect.poll(() => fit.innerText()).toBe('完整范围');
    await fit.click();
    await expect.poll(() => fit.innerText()).toBe('适应数据');
    await fit.click();
    await expect.poll(() => fit.innerText()).toBe('完整范围');

    await c.page.getByRole('button', { name: '自定义' }).click();
    const start = c.page.getByRole('textbox', { name: '开始时间' });
    const end = c.page.getByRole('textbox', { name: '结束时间' });
    // Prefilled with the range shown, in the spec's format.
    expect(await start.inputValue()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const at = (ms: number) => formatDateTime(new Date(ms));
    const [from, to] = [at(Date.now() - 2 * 3_600_000), at(Date.now() + 60_000)];
    await start.fill(to);
    await end.fill(from);
    await c.page.getByRole('button', { name: '查看' }).click();
    await c.page.locator('.vg-history-problem', { hasText: '开始时间应早于结束时间' }).waitFor();
    await start.fill(from);
    await end.fill(to);
    await end.press('Enter');
    await c.page.waitForURL((url) => url.searchParams.get('start') === from && url.searchParams.get('end') === to && !url.searchParams.has('range'));
    await c.page.reload();
    await c.page.locator('.vg-history-series[data-key="crack"]', { hasText: '2 个点' }).waitFor();
    expect(await c.page.getByRole('textbox', { name: '开始时间' }).inputValue()).toBe(from);
    expect(await c.page.getByRole('textbox', { name: '结束时间' }).inputValue()).toBe(to);
    await expect.poll(() => fit.innerText()).toBe('完整范围');
    // The range is the page's view state: its tab follows it rather than multiplying.
    expect((await tabLabels(c.page)).filter((label) => label.includes('历史曲线'))).toHaveLength(1);
    expect(c.browser.errors).toEqual([]);
  });

  it('downloads the displayed series as CSV and xlsx, and the chart as a PNG', async () => {
    const download = async (name: string) => {
      const [file] = await Promise.all([c.page.waitForEvent('download'), c.page.getByRole('button', { name }).click()]);
      return { name: file.suggestedFilename(), body: await readFile(await file.path()) };
    };
    const csv = await download('导出CSV');
    expect(csv.name).toMatch(/^QJ-CRACK-01_\d{8}-\d{6}_\d{8}-\d{6}\.csv$/);
    const lines = csv.body.toString('utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('时间,裂缝宽度 (mm),温度 (°C)');
    expect(lines).toHaveLength(3);
    // Time in the spec's format, values with the points' precision (crack width 2, temperature 1).
    expect(lines[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,-?\d+\.\d\d,20\.0$/);

    const xlsx = await download('导出Excel');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.body).buffer);
    expect(workbook.worksheets[0].getRow(1).values).toEqual([undefined, '时间', '裂缝宽度 (mm)', '温度 (°C)']);
    expect(workbook.worksheets[0].getRow(3).getCell(3).value).toBe(20);

    const png = await download('导出图片');
    expect(png.name).toMatch(/\.png$/);
    expect(png.body.subarray(1, 4).toString('latin1')).toBe('PNG');
    // IHDR: twice the chart's width (pixel ratio 2), and far more than a blank image's bytes.
    expect(png.body.readUInt32BE(16)).toBeGreaterThanOrEqual(1600);
    expect(png.body.length).toBeGreaterThan(20_000);
    expect(c.browser.errors).toEqual([]);
  });

  it("offers a picker without an id, and shows a gateway's devices", async () => {
    await c.page.goto('/xinde/device/debug');
    await c.page.locator('.vg-picker-item', { hasText: 'QJ-CRACK-01' }).click();
    await c.page.waitForURL(`**/xinde/device/debug?id=${deviceId}`);
    await c.page.locator('.vg-debug-message', { hasText: 'crack: 0.8' }).waitFor();

    const gatewayId = String((await c.server.app.platform.db.selectFrom('wit_gateway').select('id').where('code', '=', 'QJ-GW-01').executeTakeFirstOrThrow()).id);
    await c.page.goto(`/xinde/gateway/debug?id=${gatewayId}`);
    await c.page.locator('.vg-debug-connection', { hasText: '实时连接已建立' }).waitFor();
    const gateway = await mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username: 'QJ-GW-01', password: 'Vigil#Gateway2026', clientId: 'QJ-GW-01', protocolVersion: 4, reconnectPeriod: 0 });
    try {
      await gateway.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify({ devices: { 'QJ-HLS-01': { settlement: 3.25 } } }), { qos: 1 });
      await c.page.locator('.vg-debug-message', { hasText: 'settlement: 3.25' }).waitFor();
      await expect.poll(() => c.page.locator('.vg-debug-values', { hasText: 'QJ-HLS-01' }).innerText()).toContain('3.25');
    } finally {
      await gateway.endAsync(true);
    }
    expect(c.browser.errors).toEqual([]);
  });

  it('greys the whole live screen, saying since when, while the server is unreachable, and recovers', async () => {
    // The page's live link goes through this route: closed and refused on demand, as a server gone away would.
    let reachable = true;
    const links: WebSocketRoute[] = [];
    await c.page.routeWebSocket(/socket\.io/, (ws) => {
      if (!reachable) return ws.close();
      links.push(ws);
      ws.connectToServer();
    });
    await c.page.route('**/socket.io/**', (route) => (reachable ? route.continue() : route.abort()));
    await c.page.goto(`/xinde/device/debug?id=${deviceId}`);
    await c.page.locator('.vg-debug-connection', { hasText: '实时连接已建立' }).waitFor();
    expect(await c.page.locator('.vg-debug-live.is-stale').count()).toBe(0);

    reachable = false;
    for (const link of links) await link.close();
    await c.page.locator('.vg-debug-live.is-stale').waitFor();
    expect(await c.page.locator('.vg-debug-stale').innerText()).toMatch(/以下是 \d\d:\d\d:\d\d 时的数据/);
    expect(await c.page.locator('.vg-debug-online').innerText()).toBe('状态未知');

    reachable = true;
    await c.page.locator('.vg-debug-connection', { hasText: '实时连接已建立' }).waitFor({ timeout: 15_000 });
    await c.page.locator('.vg-debug-live:not(.is-stale)').waitFor();
    expect(await c.page.locator('.vg-debug-online').innerText()).toMatch(/^(在线|离线)$/);
    await c.page.unrouteAll();
  });
});
