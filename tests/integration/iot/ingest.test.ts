import { connect as tcpConnect } from 'node:net';
import { type CompiledQuery, sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { LatestValues } from '../../../server/ingest/latest';
import type { DeviceMessage, PresenceChange, StoredReading } from '../../../server/ingest/types';
import { formatDateTime } from '../../../server/time';
import { signedIn } from '../../support/client';
import { expectOk } from '../../support/envelope';
import { failWrites, loggedErrors } from '../../support/failures';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { figure, scrape } from '../ops/support';

/** Demo identities of tenant 100001 (docs/data-model.md). */
const DEVICE_PASSWORD = 'Vigil#Device2026';
const GATEWAY_PASSWORD = 'Vigil#Gateway2026';
const OPERATOR_PASSWORD = 'Operator#Super1';

/** A bare MQTT 3.1.1 CONNECT, for a client that connects and then falls silent (no keep-alive pings). */
function connectPacket(clientId: string, username: string, password: string, keepalive: number): Buffer {
  const str = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
  };
  const body = Buffer.concat([str('MQTT'), Buffer.from([4, 0xc2, keepalive >> 8, keepalive & 0xff]), str(clientId), str(username), str(password)]);
  return Buffer.concat([Buffer.from([0x10, body.length]), body]);
}

/** A bare MQTT 3.1.1 PUBLISH at QoS 1. */
function publishPacket(topic: string, id: number, payload: string): Buffer {
  const name = Buffer.from(topic, 'utf8');
  const body = Buffer.concat([Buffer.from([name.length >> 8, name.length & 0xff]), name, Buffer.from([id >> 8, id & 0xff]), Buffer.from(payload, 'utf8')]);
  const length: number[] = [];
  for (let rest = body.length; ; ) {
    const digit = rest % 128;
    rest = Math.floor(rest / 128);
    length.push(rest > 0 ? digit | 0x80 : digit);
    if (rest === 0) break;
  }
  return Buffer.concat([Buffer.from([0x32, ...length]), body]);
}

onEveryStore('ingestion over MQTT', { signIn: ['demo'] }, (ctx) => {
  const clients: MqttClient[] = [];
  const readings: StoredReading[] = [];
  const presence: PresenceChange[] = [];
  const messages: DeviceMessage[] = [];

  beforeAll(async () => {
    ctx.server.app.platform.events.on('readings', (batch) => readings.push(...batch));
    ctx.server.app.platform.events.on('message', (message) => messages.push(message));
    ctx.server.app.platform.events.on('presence', (change) => presence.push(change));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });
  // Presence and the latest values log their failures and go on: no test here leaves one behind.
  afterEach(async () => {
    expect(await loggedErrors(ctx.server, 'ingest')).toEqual([]);
  });

  const connect = (username: string, password: string, clientId = username): Promise<MqttClient> => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { username, password, clientId, protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(client);
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });
  };
  const db = () => ctx.server.app.platform.db;
  const deviceId = async (code: string) => String((await db().selectFrom('wit_device').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
  const series = (id: string) => db().selectFrom('wit_device_log').selectAll().where('deviceId', '=', id).orderBy('ts').execute();
  const rawOf = (topic: string) => db().selectFrom('wit_collect_data').selectAll().where('topic', '=', topic).orderBy('receivedAt').orderBy('id').execute();
  const online = async (code: string) => Number((await db().selectFrom('wit_device').select('online').where('code', '=', code).executeTakeFirstOrThrow()).online);
  /** A superuser identity of the demo tenant, connected: it may publish on any topic of its tenant. */
  const operator = async (username: string) => {
    expectOk(await ctx.demo.post('/api/wit-xinde/mqttuser/submit', { username, password: OPERATOR_PASSWORD, clientType: 3, isSuperuser: 1 }));
    return connect(username, OPERATOR_PASSWORD);
  };
  const refusedSoFar = async (reason: string) => {
    const reply = await scrape(ctx.server.url, ctx.server.app.platform.config.metricsToken);
    return figure(reply.text, 'vigil_ingest_refused_total', { reason });
  };

  it('stores a device reading before acknowledging it, and keeps the raw message', async () => {
    const device = await connect('QJ-CRACK-01', DEVICE_PASSWORD);
    const ts = Date.now() - 1000;
    await device.publishAsync('vigil/100001/device/QJ-CRACK-01/data', JSON.stringify({ ts, values: { crack: 0.25, temperature: 20 } }), { qos: 1 });
    // The PUBACK has arrived: the rows must already be there.
    const rows = await series(await deviceId('QJ-CRACK-01'));
    expect(rows.map((r) => [r.pointKey, Number(r.ts), Number(r.raw)])).toEqual([
      ['crack', ts, 0.25],
      ['temperature', ts, 20],
    ]);
    const raw = await db().selectFrom('wit_collect_data').selectAll().where('topic', '=', 'vigil/100001/device/QJ-CRACK-01/data').execute();
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ tenantId: '100001', readings: 2, error: null });
    expect(readings.some((r) => r.deviceCode === 'QJ-CRACK-01' && r.pointKey === 'crack' && r.ts === ts)).toBe(true);
  });

  it('computes engineering values with the model formula, initial value and temperature compensation', async () => {
    const model = await ctx.demo.post<{ id: string }>('/api/wit-xinde/devicemodel/submit', { name: '测试应变计', code: 'T-STRAIN', formula: '(x - x0) * 0.5' });
    expect(model.body.code, model.body.msg).toBe(200);
    const device = await ctx.demo.post<{ id: string }>('/api/wit-xinde/device/submit', { code: 'T-STRAIN-01', name: '测试应变计1', modelId: model.body.data.id, initialValues: { strain: 100 } });
    expect(device.body.code, device.body.msg).toBe(200);
    expect((await ctx.demo.post('/api/wit-xinde/devicepoint/submit', { deviceId: device.body.data.id, pointKey: 'strain', name: '应变', channel: 1 })).body.code).toBe(200);
    expect((await ctx.demo.post('/api/wit-xinde/temperaturecoefficient/submit', { modelId: model.body.data.id, channel: 1, coefficient: 0.1, referenceTemperature: 20 })).body.code).toBe(200);
    expect((await ctx.demo.post('/api/wit-xinde/mqttuser/submit', { username: 'T-STRAIN-01', password: 'Strain#Secret01', clientType: 1, clientId: 'T-STRAIN-01' })).body.code).toBe(200);
    const client = await connect('T-STRAIN-01', 'Strain#Secret01');
    await client.publishAsync('vigil/100001/device/T-STRAIN-01/data', JSON.stringify({ values: { strain: 120, temperature: 30 } }), { qos: 1 });
    const [strain] = (await series(device.body.data.id)).filter((r) => r.pointKey === 'strain');
    // (120 − 100) × 0.5 + 0.1 × (30 − 20)
    expect(Number(strain.value)).toBeCloseTo(11);
    expect(Number(strain.raw)).toBe(120);
  });

  it('keeps a value its formula makes no finite number of out of the series, with the reason', async () => {
    const model = expectOk(await ctx.demo.post<{ id: string }>('/api/wit-xinde/devicemodel/submit', { name: '测试倒数计', code: 'T-RECIP', formula: '1 / (x - x0)' }));
    const device = expectOk(await ctx.demo.post<{ id: string }>('/api/wit-xinde/device/submit', { code: 'T-RECIP-01', name: '测试倒数计1', modelId: model.id, initialValues: { r: 5 } }));
    expectOk(await ctx.demo.post('/api/wit-xinde/mqttuser/submit', { username: 'T-RECIP-01', password: 'Recip#Secret01', clientType: 1, clientId: 'T-RECIP-01' }));
    const before = await refusedSoFar('not_finite');
    const client = await connect('T-RECIP-01', 'Recip#Secret01');
    // 1 / (5 − 5) is no number to store; 1 / (4 − 0) is.
    await client.publishAsync('vigil/100001/device/T-RECIP-01/data', JSON.stringify({ values: { r: 5, s: 4 } }), { qos: 1 });
    const [raw] = await rawOf('vigil/100001/device/T-RECIP-01/data');
    expect({ readings: Number(raw.readings), error: raw.error }).toEqual({ readings: 1, error: 'T-RECIP-01.r 计算结果不是有限数 (原值 5)' });
    expect((await series(device.id)).map((r) => [r.pointKey, Number(r.value)])).toEqual([['s', 0.25]]);
    expect((await refusedSoFar('not_finite')) - before).toBe(1);
  });

  it('keeps a malformed message raw with its error, acknowledges it and goes on', async () => {
    const device = await connect('QJ-CRACK-02', DEVICE_PASSWORD);
    await device.publishAsync('vigil/100001/device/QJ-CRACK-02/data', 'not json at all', { qos: 1 });
    await device.publishAsync('vigil/100001/device/QJ-CRACK-02/data', JSON.stringify({ values: { crack: 'wide', temperature: 21 } }), { qos: 1 });
    // Bytes no JSON, UTF-8 or text column takes as they are: NUL, an invalid byte, a backslash, a tab, a line break.
    await device.publishAsync('vigil/100001/device/QJ-CRACK-02/data', Buffer.from([0x00, 0xff, 0x5c, 0x09, 0x0a, 0x41]), { qos: 1 });
    await device.publishAsync('vigil/100001/device/QJ-CRACK-02/data', JSON.stringify({ values: { crack: 0.3 } }), { qos: 1 });
    const raw = await db().selectFrom('wit_collect_data').select(['error', 'readings', 'payload']).where('deviceCode', '=', 'QJ-CRACK-02').orderBy('receivedAt').orderBy('id').execute();
    expect(raw.map((r) => [r.error ? String(r.error).split(':')[0].split(' ')[0] : null, Number(r.readings)])).toEqual([
      ['不是合法的', 0],
      ['crack', 1],
      ['不是合法的', 0],
      [null, 1],
    ]);
    expect(raw[2].payload).toBe('\uFFFD\uFFFD\\\t\nA');
    expect((await series(await deviceId('QJ-CRACK-02'))).map((r) => r.pointKey).sort()).toEqual(['crack', 'temperature']);
  });

  it('takes a gateway message for its own devices only', async () => {
    const gateway = await connect('QJ-GW-01', GATEWAY_PASSWORD);
    const refusedBefore = await refusedSoFar('unknown_device');
    expect(await online('QJ-TILT-01')).not.toBe(1);
    const ts = Date.now() - 500;
    const body = { ts, devices: { 'QJ-TILT-01': { tilt_x: 0.011, tilt_y: -0.004 }, 'QJ-HLS-01': { settlement: 1.5 }, 'QJ-CRACK-01': { crack: 9 }, 'NOPE-1': { x: 1, y: 2 } } };
    await gateway.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify(body), { qos: 1 });
    expect((await series(await deviceId('QJ-TILT-01'))).map((r) => r.pointKey)).toEqual(['tilt_x', 'tilt_y']);
    expect((await series(await deviceId('QJ-HLS-01'))).map((r) => Number(r.raw))).toEqual([1.5]);
    expect((await series(await deviceId('QJ-CRACK-01'))).some((r) => Number(r.raw) === 9)).toBe(false);
    const [raw] = await rawOf('vigil/100001/gateway/QJ-GW-01/data');
    const error = '设备 QJ-CRACK-01 不存在或不属于该网关; 设备 NOPE-1 不存在或不属于该网关';
    expect({ ...raw, readings: Number(raw.readings) }).toMatchObject({ readings: 3, error, deviceId: null, deviceCode: null, gatewayId: expect.any(String) });
    // Refused data is counted by value: the foreign device's one and the unknown one's two.
    expect((await refusedSoFar('unknown_device')) - refusedBefore).toBe(3);
    // The live view is told what was stored, per device, in raw and engineering values.
    const message = messages.find((m) => m.topic === 'vigil/100001/gateway/QJ-GW-01/data');
    expect(message).toMatchObject({ id: raw.id, tenantId: '100001', deviceId: null, gatewayId: raw.gatewayId, code: 'QJ-GW-01', error });
    expect(message?.readings.map((r) => [r.code, r.ts, Object.keys(r.values)])).toEqual([
      ['QJ-TILT-01', ts, ['tilt_x', 'tilt_y']],
      ['QJ-HLS-01', ts, ['settlement']],
    ]);
    expect(message?.readings[1].values.settlement).toEqual({ raw: 1.5, value: 1.5 });
    // A device behind a gateway has no connection of its own: its data is what shows it online.
    await until(async () => ((await online('QJ-TILT-01')) === 1 ? true : undefined));
  });

  it("keeps data for a device that is not there, not its tenant's or not taking data as a raw message with the reason, and no reading", async () => {
    // A superuser identity may publish anywhere in its tenant, a data topic of any device or gateway included.
    const superuser = await operator('ops-super');
    const platform = await signedIn(ctx.server.url);
    const foreign = expectOk(await platform.post<{ id: string }>('/api/wit-xinde/device/submit', { code: 'PLATFORM-01', name: '平台设备' }));
    const thermo = await deviceId('QJ-TH-01');
    expectOk(await ctx.demo.post('/api/wit-xinde/device/update', { id: thermo, status: 0 }));
    const refused = { unknown_device: await refusedSoFar('unknown_device'), unknown_gateway: await refusedSoFar('unknown_gateway'), disabled: await refusedSoFar('disabled') };
    const sent: Array<[string, string]> = [
      ['device/NOPE-9', '设备不存在: NOPE-9'],
      // Another tenant's device, named on this tenant's topic: never written into the other tenant.
      ['device/PLATFORM-01', '设备不存在: PLATFORM-01'],
      ['gateway/NOPE-GW', '网关不存在'],
      ['device/QJ-TH-01', '设备已停用或其项目在回收站中: QJ-TH-01'],
    ];
    for (const [topic] of sent) await superuser.publishAsync(`vigil/100001/${topic}/data`, JSON.stringify({ values: { temperature: 21 }, devices: {} }), { qos: 1 });
    for (const [topic, error] of sent) {
      const [raw] = await rawOf(`vigil/100001/${topic}/data`);
      expect({ topic, readings: Number(raw.readings), error: raw.error }).toEqual({ topic, readings: 0, error });
    }
    expect(await series(thermo)).toEqual([]);
    expect(await series(foreign.id)).toEqual([]);
    expect({
      unknown_device: (await refusedSoFar('unknown_device')) - refused.unknown_device,
      unknown_gateway: (await refusedSoFar('unknown_gateway')) - refused.unknown_gateway,
      disabled: (await refusedSoFar('disabled')) - refused.disabled,
    }).toEqual({ unknown_device: 2, unknown_gateway: 1, disabled: 1 });
    expectOk(await ctx.demo.post('/api/wit-xinde/device/update', { id: thermo, status: 1 }));
  });

  it("keeps a gateway's data as a raw message with the reason when the gateway is not there, not its tenant's or disabled, and a disabled device's values out of it", async () => {
    const superuser = await operator('ops-gateways');
    const platform = await signedIn(ctx.server.url);
    expectOk(await platform.post('/api/wit-xinde/gateway/submit', { code: 'PLATFORM-GW', name: '平台网关' }));
    const gateway = String((await db().selectFrom('wit_gateway').select('id').where('code', '=', 'QJ-GW-01').executeTakeFirstOrThrow()).id);
    const [tilt, gnss] = [await deviceId('QJ-TILT-02'), await deviceId('QJ-GNSS-01')];
    const disabledSoFar = () => refusedSoFar('disabled');
    const ts = Date.now() - 5_000;
    const send = async (code: string) => {
      const topic = `vigil/100001/gateway/${code}/data`;
      await superuser.publishAsync(topic, JSON.stringify({ ts, devices: { 'QJ-TILT-02': { tilt_x: 0.2 }, 'QJ-GNSS-01': { dz: 3 } } }), { qos: 1 });
      const sent = await rawOf(topic);
      const raw = sent[sent.length - 1];
      return { readings: Number(raw.readings), error: raw.error };
    };
    const storedAt = async (id: string) => (await series(id)).filter((r) => Number(r.ts) === ts).length;

    // One of the gateway's devices disabled: its value refused and named, the other's stored.
    expectOk(await ctx.demo.post('/api/wit-xinde/device/update', { id: gnss, status: 0 }));
    let disabled = await disabledSoFar();
    expect(await send('QJ-GW-01')).toEqual({ readings: 1, error: '设备已停用或其项目在回收站中: QJ-GNSS-01' });
    expect([await storedAt(tilt), await storedAt(gnss)]).toEqual([1, 0]);
    expect((await disabledSoFar()) - disabled).toBe(1);
    expectOk(await ctx.demo.post('/api/wit-xinde/device/update', { id: gnss, status: 1 }));

    // The gateway disabled: the whole message refused.
    expectOk(await ctx.demo.post('/api/wit-xinde/gateway/submit', { id: gateway, status: 0 }));
    disabled = await disabledSoFar();
    expect(await send('QJ-GW-01')).toEqual({ readings: 0, error: '网关已停用或其项目在回收站中' });
    expect((await disabledSoFar()) - disabled).toBe(1);
    expectOk(await ctx.demo.post('/api/wit-xinde/gateway/submit', { id: gateway, status: 1 }));

    // Another tenant's gateway, named on this tenant's topic, is no gateway here.
    expect(await send('PLATFORM-GW')).toEqual({ readings: 0, error: '网关不存在' });
    expect([await storedAt(tilt), await storedAt(gnss)]).toEqual([1, 0]);
  });

  it("counts each value it could not read, from a device or a gateway, and cuts a message's problems at 4,000 characters", async () => {
    const superuser = await operator('ops-values');
    const before = await refusedSoFar('invalid_value');
    await superuser.publishAsync('vigil/100001/device/QJ-TH-01/data', JSON.stringify({ values: { humidity: 'damp', temperature: 'warm' } }), { qos: 1 });
    await superuser.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify({ devices: { 'QJ-TILT-01': { tilt_x: 'tilted' } } }), { qos: 1 });
    expect((await refusedSoFar('invalid_value')) - before).toBe(3);
    // 300 devices the gateway does not have, each named: the whole cut where the column ends.
    const devices = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`NOPE-${i}`, { x: 1 }]));
    await superuser.publishAsync('vigil/100001/gateway/QJ-GW-01/data', JSON.stringify({ devices }), { qos: 1 });
    const error = String((await rawOf('vigil/100001/gateway/QJ-GW-01/data')).at(-1)?.error);
    expect(error).toHaveLength(4000);
    expect(error.startsWith('设备 NOPE-0 不存在或不属于该网关; 设备 NOPE-1 不存在或不属于该网关; ')).toBe(true);
  });

  it('keeps a raw message of up to 64 KiB whole, and cuts a longer one', async () => {
    const device = clients.find((c) => c.options.clientId === 'QJ-CRACK-02') as MqttClient;
    const topic = 'vigil/100001/device/QJ-CRACK-02/data';
    const before = (await rawOf(topic)).length;
    await device.publishAsync(topic, 'a'.repeat(65_536), { qos: 1 });
    await device.publishAsync(topic, 'b'.repeat(65_537), { qos: 1 });
    const [whole, cut] = (await rawOf(topic)).slice(before);
    expect(whole.payload).toBe('a'.repeat(65_536));
    expect(cut.payload).toBe(`${'b'.repeat(65_536)}…(已截断)`);
  });

  it('acknowledges no message its store failed to write: the publisher is disconnected, nothing is half-written, and the message sent again is stored', async () => {
    const ts = Date.now() - 4_000;
    const topic = 'vigil/100001/device/QJ-CRACK-02/data';
    const payload = JSON.stringify({ ts, values: { crack: 0.31 } });
    // The database refuses this message's raw row (a full disk, a broken constraint: any failure of the commit).
    const stopFailing = await failWrites(ctx.server, 'wit_collect_data', `new.payload like '%${ts}%'`);
    const crack = await deviceId('QJ-CRACK-02');
    const stored = async () => [(await series(crack)).filter((r) => Number(r.ts) === ts).length, (await rawOf(topic)).filter((r) => String(r.payload) === payload).length];
    try {
      const superuser = await operator('ops-store');
      const closed = new Promise<void>((resolve) => superuser.once('close', () => resolve()));
      let acknowledged = false;
      superuser.publish(topic, payload, { qos: 1 }, (error) => {
        acknowledged = !error;
      });
      await closed;
      expect(acknowledged).toBe(false);
      expect(await stored()).toEqual([0, 0]);
    } finally {
      await stopFailing();
    }
    // As a device does after a lost connection: the same message again, now stored once.
    const again = await connect('ops-store', OPERATOR_PASSWORD);
    await again.publishAsync(topic, payload, { qos: 1 });
    expect(await stored()).toEqual([1, 1]);
  });

  it('updates the latest values the device list shows', async () => {
    await ctx.server.app.ingest.latest.persist();
    const detail = await ctx.demo.get<{ lastValues: string; lastSeen: string }>('/api/wit-xinde/device/detail', { id: await deviceId('QJ-HLS-01') });
    const lastValues = typeof detail.body.data.lastValues === 'string' ? JSON.parse(detail.body.data.lastValues) : detail.body.data.lastValues;
    expect(lastValues).toEqual({ settlement: 1.5 });
    expect(detail.body.data.lastSeen).toMatch(/^\d{4}-\d{2}-\d{2} /);
  });

  it('writes latest values back over a last-seen time presence moved on, and never over values heard later', async () => {
    const id = await deviceId('QJ-HLS-02');
    const heard = Date.now() - 60_000;
    const stored = async () => {
      const row = await db().selectFrom('wit_device').select(['lastValues', 'lastSeen']).where('id', '=', id).executeTakeFirstOrThrow();
      return { values: typeof row.lastValues === 'string' ? JSON.parse(row.lastValues) : row.lastValues, lastSeen: row.lastSeen };
    };
    // Presence wrote the device online after the message that showed it: last_seen is the time of that write.
    await db().updateTable('wit_device').set({ lastSeen: formatDateTime(new Date(heard + 5_000)) }).where('id', '=', id).execute();
    const fail = (error: unknown) => expect.fail(String(error));
    const here = new LatestValues(db(), fail);
    here.update(id, 'settlement', heard, 2.5, heard);
    await here.persist();
    expect(await stored()).toEqual({ values: { settlement: 2.5 }, lastSeen: formatDateTime(new Date(heard + 5_000)) });
    // Another process heard the device later and wrote that back first: this one's older values leave it as it is.
    const other = new LatestValues(db(), fail);
    other.update(id, 'settlement', heard + 20_000, 3.5, heard + 20_000);
    await other.persist();
    here.update(id, 'settlement', heard + 10_000, 2.6, heard + 10_000);
    await here.persist();
    expect(await stored()).toEqual({ values: { settlement: 3.5 }, lastSeen: formatDateTime(new Date(heard + 20_000)) });
    // A write-back asked for while another is under way (the timer's) ends once that one has.
    other.update(id, 'settlement', heard + 30_000, 4.5, heard + 30_000);
    void other.persist();
    await other.persist();
    expect((await stored()).values).toEqual({ settlement: 4.5 });
  });

  it.runIf(ctx.store === 'postgres')('writes the latest values back as HOT updates on PostgreSQL: no index entry of a device moves', async () => {
    const updates = async () =>
      (await sql<{ all: number; hot: number }>`select n_tup_upd::int as all, n_tup_hot_upd::int as hot from pg_stat_user_tables where relname = 'wit_device'`.execute(db())).rows[0];
    const ids = (await db().selectFrom('wit_device').select('id').where('tenantId', '=', '100001').orderBy('id').limit(10).execute()).map((row) => String(row.id));
    const latest = new LatestValues(db(), (error) => expect.fail(String(error)));
    const before = await updates();
    // Twice over: a full page makes a device's first update a new page's, whatever the indexes.
    for (const round of [1, 2]) {
      const at = Date.now() + round * 1_000;
      for (const id of ids) latest.update(id, 'probe', at, round, at);
      await latest.persist();
    }
    // Statistics reach the view once the writing connection is idle: within a second or so.
    const after = await until(async () => {
      const now = await updates();
      return now.all - before.all >= 2 * ids.length ? now : undefined;
    }, 10_000, 'the updates counted');
    expect(after.hot - before.hot).toBeGreaterThanOrEqual(ids.length);
  });

  it("spreads the timer's write-back over its interval, and a persist() asked meanwhile waits for none of the pauses", async () => {
    const started: number[] = [];
    const execute = (query: CompiledQuery) => {
      started.push(performance.now());
      return db().executeQuery(query);
    };
    // 250 devices: three statements of at most 100 (ids of no device: no row of the other tests changes).
    const changeAll = (at: number) => {
      for (let i = 0; i < 250; i++) latest.update(`spread-${i}`, 'spread', at, i, at);
    };
    const latest = new LatestValues(db(), (error) => expect.fail(String(error)), execute);
    // Spread over 300 ms: the three statements start 100 ms apart (less building the first's rows), not at once.
    latest.start(50, 300);
    try {
      changeAll(Date.now());
      await until(() => (started.length === 3 ? true : undefined));
      expect(started[1] - started[0]).toBeGreaterThanOrEqual(80);
      expect(started[2] - started[0]).toBeGreaterThanOrEqual(180);
      latest.stop();
      // Spread over ten minutes, its pauses would outlast the test: persist() ends them.
      latest.start(50, 600_000);
      changeAll(Date.now() + 1_000);
      await until(() => (started.length === 4 ? true : undefined));
      await latest.persist();
      expect(started).toHaveLength(6);
      // Stopped, a write-back under way goes on without its pauses.
      latest.start(50, 600_000);
      changeAll(Date.now() + 2_000);
      await until(() => (started.length === 7 ? true : undefined));
      latest.stop();
      await until(() => (started.length === 9 ? true : undefined));
    } finally {
      latest.stop();
    }
  });

  it('knows within seconds when a device vanishes or falls silent', async () => {
    const online = async (code: string) => Number((await db().selectFrom('wit_device').select('online').where('code', '=', code).executeTakeFirstOrThrow()).online);
    const device = await connect('QJ-RAIN-01', DEVICE_PASSWORD);
    await until(async () => ((await online('QJ-RAIN-01')) === 1 ? true : undefined));
    device.stream.destroy(); // power cut: no DISCONNECT packet
    await until(async () => ((await online('QJ-RAIN-01')) === 0 ? true : undefined));
    expect(presence.filter((p) => p.code === 'QJ-RAIN-01').map((p) => [p.online, p.reason])).toEqual([
      [true, 'connect'],
      [false, 'will'],
    ]);

    const socket = tcpConnect(ctx.server.app.broker?.port ?? 0, '127.0.0.1');
    socket.write(connectPacket('QJ-TH-01', 'QJ-TH-01', DEVICE_PASSWORD, 1));
    await until(async () => ((await online('QJ-TH-01')) === 1 ? true : undefined));
    const silentSince = Date.now();
    await until(async () => ((await online('QJ-TH-01')) === 0 ? true : undefined));
    expect(Date.now() - silentSince).toBeLessThan(4000); // keep-alive 1 s: the broker gives up after 1.5 s
    expect(presence.filter((p) => p.code === 'QJ-TH-01').at(-1)?.reason).toBe('timeout');
    socket.destroy();
  });

  it('records gateway transitions', async () => {
    const gateway = clients.find((c) => c.options.clientId === 'QJ-GW-01');
    await gateway?.endAsync();
    const states = await until(async () => {
      const rows = await db().selectFrom('wit_gateway_state').select(['online', 'reason']).where('gatewayCode', '=', 'QJ-GW-01').orderBy('stateTime').orderBy('id').execute();
      return rows.length >= 2 ? rows : undefined;
    });
    expect(states.map((s) => [Number(s.online), s.reason])).toEqual([
      [1, 'connect'],
      [0, 'disconnect'],
    ]);
  });

  it('keeps a device online when it connects again under its client id while the old connection is still held', async () => {
    const first = clients.find((c) => c.options.clientId === 'QJ-CRACK-01') as MqttClient;
    expect(first.connected).toBe(true);
    const since = presence.length;
    const taken = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = await connect('QJ-CRACK-01', DEVICE_PASSWORD);
    await taken;
    // The only change of presence is the one the device asks for by leaving.
    await second.endAsync();
    await until(() => (presence.slice(since).some((p) => p.code === 'QJ-CRACK-01') ? true : undefined));
    expect(presence.slice(since).filter((p) => p.code === 'QJ-CRACK-01').map((p) => [p.online, p.reason])).toEqual([[false, 'disconnect']]);
  });

  it("acknowledges a client's data messages in the order it sent them, though a later one is stored first", async () => {
    const { directory } = ctx.server.app.ingest;
    // Handled side by side, a gateway's two messages wait for different devices: the first's is held back here.
    directory.clear();
    await directory.gateway('QJ-GW-01');
    await directory.device('QJ-HLS-01');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const lookup = directory.device.bind(directory);
    const spy = vi.spyOn(directory, 'device').mockImplementation(async (code) => {
      if (code === 'QJ-TILT-01') await held;
      return lookup(code);
    });
    const socket = tcpConnect(Number(ctx.server.app.broker?.port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    const bytes = () => [...Buffer.concat(received)];
    try {
      socket.write(connectPacket('QJ-GW-01', 'QJ-GW-01', GATEWAY_PASSWORD, 60));
      expect(await until(() => (bytes().length >= 4 ? bytes() : undefined), 10_000, 'the CONNACK')).toEqual([0x20, 2, 0, 0]);
      const ts = Date.now() - 300;
      const topic = 'vigil/100001/gateway/QJ-GW-01/data';
      // One write: the broker reads both at once and handles them side by side.
      socket.write(
        Buffer.concat([
          publishPacket(topic, 1, JSON.stringify({ ts, devices: { 'QJ-TILT-01': { tilt_x: 0.021 } } })),
          publishPacket(topic, 2, JSON.stringify({ ts, devices: { 'QJ-HLS-01': { settlement: 1.7 } } })),
        ]),
      );
      const hls = await deviceId('QJ-HLS-01');
      await until(async () => (await series(hls)).some((r) => Number(r.ts) === ts), 10_000, 'the second message stored');
      release();
      const tilt = await deviceId('QJ-TILT-01');
      await until(async () => (await series(tilt)).some((r) => Number(r.ts) === ts), 10_000, 'the first message stored');
      // PUBACK 1, then PUBACK 2: MQTT's order, though the second was stored (and could be acknowledged) first.
      expect(await until(() => (bytes().length >= 12 ? bytes().slice(4) : undefined), 10_000, 'both PUBACKs')).toEqual([0x40, 2, 0, 1, 0x40, 2, 0, 2]);
    } finally {
      release();
      spy.mockRestore();
      socket.destroy();
    }
  });

  it.runIf(ctx.store === 'postgres')("acknowledges a device's reading while another device's batch waits: PostgreSQL's batches commit side by side", async () => {
    const { native, db: kysely } = ctx.server.app.platform;
    if (native.dialect !== 'postgres') return;
    const ts = Date.now() - 200;
    const crack = await deviceId('QJ-CRACK-02');
    const first = await operator('ops-side-a');
    const second = await operator('ops-side-b');
    let firstAcknowledged = false;
    let firstStored: Promise<unknown> = Promise.resolve();
    const rival = await native.pool.connect();
    try {
      // The key of the first reading, written by another transaction not yet ended: the first batch waits on it.
      await rival.query('begin');
      await rival.query('insert into wit_device_log (device_id, point_key, ts, value, raw) values ($1, $2, $3, 0, 0)', [crack, 'crack', ts]);
      firstStored = first.publishAsync('vigil/100001/device/QJ-CRACK-02/data', JSON.stringify({ ts, values: { crack: 0.44 } }), { qos: 1 }).then(() => (firstAcknowledged = true));
      await until(
        async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(kysely)).rows[0].n > 0,
        10_000,
        'the first batch to wait',
      );
      // Another device's reading, in the next batch: stored and acknowledged meanwhile.
      await second.publishAsync('vigil/100001/device/QJ-HLS-02/data', JSON.stringify({ ts, values: { settlement: 1.1 } }), { qos: 1 });
      expect(firstAcknowledged).toBe(false);
    } finally {
      await rival.query('rollback');
      rival.release();
    }
    await firstStored;
    expect((await series(crack)).filter((r) => Number(r.ts) === ts).map((r) => Number(r.raw))).toEqual([0.44]);
  });
});
