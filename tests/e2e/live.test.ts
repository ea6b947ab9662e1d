import mqtt, { type MqttClient } from 'mqtt';
import type { WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleUnderTest, openConsole } from './support/console';

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
    await c.page.getByRole('button', { name: '7d' }).click();
    await expect.poll(() => crack.innerText()).toContain('2 个点');
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
