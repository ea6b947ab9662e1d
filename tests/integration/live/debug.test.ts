import mqtt, { type MqttClient } from 'mqtt';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from '../../../server/db/seed/operator';
// Helpers below name their tables at run time (introspection, lists): they use the untyped view.
import { loose } from '../../../server/db/tables';
import type { DebugMessage, DebugPresence, SubscribeAnswer } from '../../../resources/wire/debug';
import { signedIn } from '../../support/client';
import { expectOk, expectRefused, postParams } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { staffUser, submit, X } from '../monitoring/support';

/** Demo identities of tenant 100001 (docs/data-model.md). */
const DEVICE_PASSWORD = 'Vigil#Device2026';
const GATEWAY_PASSWORD = 'Vigil#Gateway2026';

/** A console's socket, recording what it receives. */
interface Watcher {
  socket: Socket;
  messages: DebugMessage[];
  presence: DebugPresence[];
  subscribe(request: Record<string, unknown>): Promise<SubscribeAnswer>;
}

onEveryStore('live debug', { signIn: ['demo'] }, (ctx) => {
  const sockets: Socket[] = [];
  const clients: MqttClient[] = [];

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  const db = () => ctx.server.app.platform.db;
  const idOf = async (table: string, code: string) => String((await loose(db()).selectFrom(table).select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);

  const watch = async (token: string): Promise<Watcher> => {
    const socket = connectSocket(ctx.server.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const watcher: Watcher = {
      socket,
      messages: [],
      presence: [],
      subscribe: (request) => socket.timeout(5000).emitWithAck('debug.subscribe', request) as Promise<SubscribeAnswer>,
    };
    socket.on('debug.message', (m: DebugMessage) => watcher.messages.push(m));
    socket.on('debug.presence', (p: DebugPresence) => watcher.presence.push(p));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return watcher;
  };

  const mqttConnect = (username: string, password: string): Promise<MqttClient> => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { username, password, clientId: username, protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(client);
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });
  };

  it("pushes a device's messages published over MQTT, with computed values and presence", async () => {
    const deviceId = await idOf('wit_device', 'QJ-CRACK-01');
    const watcher = await watch(ctx.demo.token ?? '');
    const answer = await watcher.subscribe({ deviceId });
    expect(answer).toMatchObject({ ok: true, kind: 'device', targetId: deviceId, code: 'QJ-CRACK-01', replayed: 0 });

    const device = await mqttConnect('QJ-CRACK-01', DEVICE_PASSWORD);
    const online = await until(() => watcher.presence.find((p) => p.change.online));
    expect(online).toMatchObject({ kind: 'device', targetId: deviceId, change: { code: 'QJ-CRACK-01', online: true, reason: 'connect' } });

    const ts = Date.now() - 5000;
    await device.publishAsync('vigil/100001/device/QJ-CRACK-01/data', JSON.stringify({ ts, values: { crack: 0.31, temperature: 20, bogus: 'x' } }), { qos: 1 });
    const message = await until(() => watcher.messages.find((m) => m.readings.some((r) => r.ts === ts)));
    const stored = await db().selectFrom('wit_device_log').selectAll().where('deviceId', '=', deviceId).where('ts', '=', ts).where('pointKey', '=', 'crack').executeTakeFirstOrThrow();
    expect(message).toMatchObject({ kind: 'device', targetId: deviceId, code: 'QJ-CRACK-01', topic: 'vigil/100001/device/QJ-CRACK-01/data' });
    expect(message.readings).toEqual([{ deviceId, code: 'QJ-CRACK-01', ts, values: { crack: { raw: 0.31, value: Number(stored.value) }, temperature: { raw: 20, value: 20 } } }]);
    expect(message.error).toContain('bogus');
    expect(JSON.parse(message.payload)).toMatchObject({ ts, values: { crack: 0.31 } });

    // A malformed message reaches the console too, with its error.
    await device.publishAsync('vigil/100001/device/QJ-CRACK-01/data', '{not json', { qos: 1 });
    const broken = await until(() => watcher.messages.find((m) => m.payload === '{not json'));
    expect(broken.readings).toEqual([]);
    expect(broken.error).toBeTruthy();

    await device.endAsync();
    const offline = await until(() => watcher.presence.find((p) => !p.change.online));
    expect(offline.change).toMatchObject({ online: false, reason: 'disconnect' });
  });

  it("shows a gateway's messages on the gateway and each device only its own readings", async () => {
    const [gatewayId, tiltId, hlsId] = await Promise.all([idOf('wit_gateway', 'QJ-GW-01'), idOf('wit_device', 'QJ-TILT-01'), idOf('wit_device', 'QJ-HLS-01')]);
    const gatewayWatch = await watch(ctx.demo.token ?? '');
    const tiltWatch = await watch(ctx.demo.token ?? '');
    expect((await gatewayWatch.subscribe({ gatewayId })).ok).toBe(true);
    expect((await tiltWatch.subscribe({ deviceId: tiltId })).ok).toBe(true);

    const gateway = await mqttConnect('QJ-GW-01', GATEWAY_PASSWORD);
    const ts = Date.now() - 3000;
    await gateway.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify({ ts, devices: { 'QJ-TILT-01': { tilt_x: 0.5 }, 'QJ-HLS-01': { settlement: 1.25 } } }), { qos: 1 });
    const onGateway = await until(() => gatewayWatch.messages.find((m) => m.readings.some((r) => r.ts === ts)));
    expect(onGateway.code).toBe('QJ-GW-01');
    expect(onGateway.readings.map((r) => r.deviceId).sort()).toEqual([tiltId, hlsId].sort());
    const onDevice = await until(() => tiltWatch.messages.find((m) => m.readings.some((r) => r.ts === ts)));
    expect(onDevice.readings).toEqual([{ deviceId: tiltId, code: 'QJ-TILT-01', ts, values: { tilt_x: { raw: 0.5, value: expect.any(Number) } } }]);

    // A device behind the gateway publishing on its own topic reaches the gateway's console as well.
    const direct = await mqttConnect('QJ-TILT-01', DEVICE_PASSWORD);
    await direct.publishAsync('vigil/100001/device/QJ-TILT-01/data', JSON.stringify({ ts: ts + 1, values: { tilt_y: 0.2 } }), { qos: 1 });
    await until(() => gatewayWatch.messages.find((m) => m.code === 'QJ-TILT-01' && m.readings.some((r) => r.ts === ts + 1)));
    await direct.endAsync();
    await gateway.endAsync();
  });

  it('subscribes only users holding the 调试 button, as the debug calls over HTTP', async () => {
    const deviceId = await idOf('wit_device', 'QJ-RAIN-01');
    const operator = await signedIn(ctx.server.url, OPERATOR_ACCOUNT, OPERATOR_PASSWORD, '100001');
    expect((await (await watch(operator.token ?? '')).subscribe({ deviceId })).ok).toBe(true);
    const viewer = await staffUser(ctx.server, '100001', 'debug_viewer');
    const { roleId } = await db().selectFrom('blade_user').select('roleId').where('id', '=', viewer.userId).executeTakeFirstOrThrow();
    const menus = await db().selectFrom('blade_menu').select('id').where('code', 'in', ['device', 'device_list', 'gateway']).execute();
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [roleId], menuIds: menus.map((m) => m.id) }));
    const watcher = await watch(viewer.client.token ?? '');
    expect(await watcher.subscribe({ deviceId })).toEqual({ ok: false, msg: '无权调试' });
    expect(await watcher.subscribe({ gatewayId: await idOf('wit_gateway', 'QJ-GW-01') })).toEqual({ ok: false, msg: '无权调试' });
    expect((await viewer.client.get(`${X}/device/getDeviceDebug`, { deviceId })).status).toBe(403);
  });

  it('refuses another tenant and unknown ids, and sends them nothing', async () => {
    const deviceId = await idOf('wit_device', 'QJ-RAIN-01');
    const stranger = await staffUser(ctx.server, '000000', 'debug_stranger');
    const watcher = await watch(stranger.client.token ?? '');
    expect(await watcher.subscribe({ deviceId })).toEqual({ ok: false, msg: '设备不存在或无权查看' });
    expect(await watcher.subscribe({ gatewayId: await idOf('wit_gateway', 'QJ-GW-01') })).toEqual({ ok: false, msg: '网关不存在或无权查看' });
    expect(await watcher.subscribe({})).toMatchObject({ ok: false, msg: expect.stringContaining('deviceId') });
    expect(await watcher.subscribe({ deviceId: 'abc' })).toMatchObject({ ok: false });

    const owner = await watch(ctx.demo.token ?? '');
    expect((await owner.subscribe({ deviceId })).ok).toBe(true);
    const rain = await mqttConnect('QJ-RAIN-01', DEVICE_PASSWORD);
    await rain.publishAsync('vigil/100001/device/QJ-RAIN-01/data', JSON.stringify({ values: { rainfall: 2.5 } }), { qos: 1 });
    await until(() => owner.messages.find((m) => m.code === 'QJ-RAIN-01'));
    // Barrier: the room's emit reached every member at once, and this answer comes after it on the stranger's socket.
    await watcher.subscribe({ deviceId: 'abc' });
    expect(watcher.messages).toEqual([]);
    await rain.endAsync();

    expectRefused(await stranger.client.get(`${X}/device/getDeviceDebug`, { deviceId }), '设备不存在或无权查看', 404);

    // Same tenant, but limited to another project: refused too.
    const other = await submit(ctx.demo, 'project', { name: '另一个项目', code: 'DEBUG-OTHER' });
    const limited = await staffUser(ctx.server, '100001', 'debug_limited');
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: limited.userId, projectIds: other.id }));
    const limitedWatch = await watch(limited.client.token ?? '');
    expect(await limitedWatch.subscribe({ deviceId })).toEqual({ ok: false, msg: '设备不存在或无权查看' });
    expectRefused(await stranger.client.get(`${X}/gateway/getGatewayDebugMsg`, { gatewayId: await idOf('wit_gateway', 'QJ-GW-01') }), '网关不存在或无权查看', 404);
  });

  it('replays the messages missed while disconnected, so a resubscription loses nothing', async () => {
    const [deviceId, hlsId] = await Promise.all([idOf('wit_device', 'QJ-TH-01'), idOf('wit_device', 'QJ-HLS-02')]);
    const first = await watch(ctx.demo.token ?? '');
    expect((await first.subscribe({ deviceId })).ok).toBe(true);
    expect((await first.subscribe({ deviceId: hlsId })).ok).toBe(true);
    const device = await mqttConnect('QJ-TH-01', DEVICE_PASSWORD);
    const gateway = await mqttConnect('QJ-GW-01', GATEWAY_PASSWORD);
    const base = Date.now() - 60_000;
    await device.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ ts: base, values: { temperature: 10 } }), { qos: 1 });
    const seen = await until(() => first.messages.find((m) => m.readings[0]?.ts === base));
    first.socket.close();

    // Missed while away: two of the device's own messages, a gateway message naming the levelling device, and one
    // naming another device only.
    await device.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ ts: base + 1000, values: { temperature: 11, humidity: 50 } }), { qos: 1 });
    await device.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ ts: base + 2000, values: { temperature: 12 } }), { qos: 1 });
    await gateway.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify({ ts: base + 3000, devices: { 'QJ-HLS-02': { settlement: 2.5 } } }), { qos: 1 });
    await gateway.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify({ ts: base + 4000, devices: { 'QJ-HLS-01': { settlement: 9 } } }), { qos: 1 });

    const again = await watch(ctx.demo.token ?? '');
    const answer = await again.subscribe({ deviceId, since: seen.receivedAt });
    expect(answer).toMatchObject({ ok: true, truncated: false });
    // Inclusive of the last one seen (the console drops it by id), then everything after it, oldest first.
    expect(again.messages.map((m) => m.readings[0]?.ts)).toEqual([base, base + 1000, base + 2000]);
    expect(answer.replayed).toBe(3);
    expect(again.messages[0].id).toBe(seen.id);
    expect(again.messages[1].readings[0].values).toEqual({ temperature: { raw: 11, value: 11 }, humidity: { raw: 50, value: 50 } });

    const levelling = await watch(ctx.demo.token ?? '');
    expect(await levelling.subscribe({ deviceId: hlsId, since: seen.receivedAt })).toMatchObject({ ok: true, replayed: 1 });
    expect(levelling.messages).toHaveLength(1);
    expect(levelling.messages[0]).toMatchObject({ code: 'QJ-GW-01', kind: 'device', targetId: hlsId });
    expect(levelling.messages[0].readings).toEqual([{ deviceId: hlsId, code: 'QJ-HLS-02', ts: base + 3000, values: { settlement: { raw: 2.5, value: expect.any(Number) } } }]);

    // Live messages keep coming after the replay.
    await device.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ ts: base + 5000, values: { temperature: 13 } }), { qos: 1 });
    await until(() => again.messages.find((m) => m.readings[0]?.ts === base + 5000));
    await device.endAsync();
    await gateway.endAsync();
  });

  it('answers the debug calls over HTTP: state, message pages, socket address, gateway history', async () => {
    const deviceId = await idOf('wit_device', 'QJ-TH-01');
    const gatewayId = await idOf('wit_gateway', 'QJ-GW-01');
    const state = expectOk(await ctx.demo.get<{ device: Record<string, unknown> & { points: Array<Record<string, unknown>> }; messages: DebugMessage[]; websocket: Record<string, unknown> }>(`${X}/device/getDeviceDebug`, { deviceId }));
    expect(state.device).toMatchObject({ id: deviceId, code: 'QJ-TH-01' });
    const temperature = state.device.points.find((p) => p.pointKey === 'temperature');
    expect(temperature).toMatchObject({ name: expect.any(String), unit: '℃', value: 13, raw: 13 });
    expect(state.messages.length).toBeGreaterThanOrEqual(4);
    expect(state.messages[0].receivedAt).toBeGreaterThanOrEqual(state.messages[1].receivedAt);
    expect(state.websocket).toMatchObject({ path: '/socket.io', namespace: '/', events: { subscribe: 'debug.subscribe', message: 'debug.message' } });

    const page = expectOk(await ctx.demo.get<{ records: DebugMessage[]; hasMore: boolean }>(`${X}/device/getDeviceDebugMsg`, { deviceId, limit: 2 }));
    expect(page.records).toHaveLength(2);
    expect(page.hasMore).toBe(true);
    const next = expectOk(await ctx.demo.get<{ records: DebugMessage[] }>(`${X}/device/getDeviceDebugMsg`, { deviceId, limit: 2, before: page.records[1].receivedAt }));
    expect(next.records[0].receivedAt).toBeLessThan(page.records[1].receivedAt);
    expectRefused(await ctx.demo.get(`${X}/device/getDeviceDebugMsg`, { deviceId, limit: 0 }), 'limit');
    expectRefused(await ctx.demo.get(`${X}/device/getDeviceDebugMsg`, {}), 'deviceId');
    expectRefused(await ctx.demo.get(`${X}/device/getDeviceDebugMsg`, { deviceId, since: '昨天' }), 'since');

    const gw = expectOk(await ctx.demo.get<{ gateway: Record<string, unknown>; devices: Array<{ code: string }>; messages: DebugMessage[] }>(`${X}/gateway/getGatewayDebug`, { gatewayId }));
    expect(gw.gateway).toMatchObject({ id: gatewayId, code: 'QJ-GW-01' });
    expect(gw.devices.map((d) => d.code)).toContain('QJ-HLS-01');
    expect(gw.messages.some((m) => m.code === 'QJ-GW-01')).toBe(true);
    const gwPage = expectOk(await ctx.demo.get<{ records: DebugMessage[] }>(`${X}/gateway/getGatewayDebugMsg`, { gatewayId, limit: 50 }));
    expect(gwPage.records.some((m) => m.code === 'QJ-TILT-01')).toBe(true);

    expect(expectOk(await ctx.demo.get(`${X}/gateway/getWebsocketUrl`))).toMatchObject({ url: ctx.server.url, path: '/socket.io' });

    const monitor = expectOk(await ctx.demo.get<{ changes: Array<{ online: number; reason: string }>; online: boolean; onlineMs: number }>(`${X}/gateway/getChangeGatewayMonitor`, { gatewayId }));
    expect(monitor.changes.map((c) => c.online)).toEqual(expect.arrayContaining([1, 0]));
    expect(monitor.online).toBe(false);
    expect(monitor.onlineMs).toBeGreaterThan(0);
    expectRefused(await ctx.demo.get(`${X}/gateway/getChangeGatewayMonitor`, { gatewayId, startTime: '2026-02-01 00:00:00', endTime: '2026-01-01 00:00:00' }), '开始时间应早于结束时间');
  });
});
