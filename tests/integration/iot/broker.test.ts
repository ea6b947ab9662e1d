import { createConnection, createServer, type Socket } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CATCH_UP_MS } from '../../../server/ingest/broker';
import type { Priority } from '../../../server/ingest/store';
import { signedIn } from '../../support/client';
import { expectOk } from '../../support/envelope';
import { hideTable, loggedErrors, takeLoggedErrors } from '../../support/failures';
import { startServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { kernelSockets } from '../../support/tcp';
import { until } from '../../support/wait';
import { figure, scrape } from '../ops/support';

onEveryStore('embedded MQTT broker', { signIn: ['demo'] }, (ctx) => {
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    const users = [
      { username: 'dev-inc-01', password: 'Device#Secret01', clientType: 1, clientId: 'INC-01' },
      { username: 'app-100001', password: 'Application#01', clientType: 3 },
      { username: 'dev-inc-03', password: 'Device#Secret03', clientType: 1, clientId: 'INC-03' },
      { username: 'dev-inc-07', password: 'Device#Secret07', clientType: 1, clientId: 'INC-07' },
    ];
    for (const user of users) expect((await ctx.demo.post('/api/wit-xinde/mqttuser/submit', user)).body.code).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  const logged = async (text: string) => {
    await ctx.server.app.platform.logs.flush();
    const rows = await ctx.server.app.platform.db.selectFrom('blade_log_usual').select('logData').where('logId', '=', 'mqtt').execute();
    return rows.map((r) => String(r.logData)).filter((line) => line.includes(text));
  };

  const connect = (username: string | undefined, password: string | undefined, clientId: string): Promise<MqttClient> =>
    new Promise((resolve, reject) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { username, password, clientId, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 });
      clients.push(client);
      client.once('connect', () => resolve(client));
      client.once('error', (error) => reject(error));
    });

  it('keeps the password out of every response and the username unique on the whole broker', async () => {
    const list = await ctx.demo.get<{ records: Array<Record<string, unknown>> }>('/api/wit-xinde/mqttuser/list', { size: 100 });
    // The demo tenant also holds the seeded identities of its demo bridge (docs/data-model.md).
    expect(list.body.data.records.filter((r) => ['dev-inc-01', 'app-100001'].includes(String(r.username))).length).toBe(2);
    for (const row of list.body.data.records) expect(row).not.toHaveProperty('password');
    const platformAdmin = await signedIn(ctx.server.url);
    const clash = await platformAdmin.post('/api/wit-xinde/mqttuser/submit', { username: 'dev-inc-01', password: 'Another#Secret1', clientType: 1 });
    expect(clash.body).toMatchObject({ code: 400, msg: 'MQTT用户名已存在' });
  });

  it('filters on a field declared as a union of numbers by equality', async () => {
    const apps = await ctx.demo.get<{ records: Array<{ username: string }> }>('/api/wit-xinde/mqttuser/list', { clientType: 3 });
    expect(apps.body.code).toBe(200);
    expect(apps.body.data.records.map((r) => r.username)).toEqual(['app-100001']);
  });

  it('refuses wrong credentials and a client id that is not the bound one', async () => {
    await expect(connect('dev-inc-01', 'wrong-password', 'INC-01')).rejects.toThrow(/Bad User Name or Password|bad username/i);
    await expect(connect('nobody', 'whatever1', 'INC-01')).rejects.toThrow(/Bad User Name or Password|bad username/i);
    await expect(connect('dev-inc-01', 'Device#Secret01', 'INC-99')).rejects.toThrow(/Not authorized/i);
    expect(await logged('MQTT 连接被拒绝: 客户端编号不符 (username=dev-inc-01, clientId=INC-99)')).toHaveLength(1);
    // Each refusal says who tried, as what and from where.
    expect(await logged('MQTT 连接被拒绝: 用户名或密码错误 (username=dev-inc-01, clientId=INC-01, ip=127.0.0.1)')).toHaveLength(1);
    expect(await logged('MQTT 连接被拒绝: 用户名或密码错误 (username=nobody, clientId=INC-01, ip=127.0.0.1)')).toHaveLength(1);
    // No credentials at all: refused like a wrong password, never let in anonymously.
    await expect(connect(undefined, undefined, 'anon-1')).rejects.toThrow(/Bad User Name or Password|bad username/i);
    expect(await logged('MQTT 连接被拒绝: 用户名或密码错误 (username=, clientId=anon-1, ip=127.0.0.1)')).toHaveLength(1);
  });

  it('lets a device publish its data at QoS 1 and subscribe to its commands only', async () => {
    const device = await connect('dev-inc-01', 'Device#Secret01', 'INC-01');
    await device.publishAsync('vigil/100001/device/INC-01/data', JSON.stringify({ ts: Date.now(), values: { x: 1 } }), { qos: 1 });
    expect((await device.subscribeAsync('vigil/100001/device/INC-01/command'))[0].qos).toBe(0);
    // A refused subscription is granted failure code 128, which mqtt.js reports as an error.
    await expect(device.subscribeAsync('vigil/100001/device/INC-02/command')).rejects.toThrow(/Subscribe error/);
    await expect(device.subscribeAsync('vigil/000000/#')).rejects.toThrow(/Subscribe error/);
    expect(await logged('MQTT 订阅被拒绝: dev-inc-01 -> vigil/100001/device/INC-02/command')).toHaveLength(1);
  });

  it('refuses a publish outside the rules and logs the refusal', async () => {
    const device = await connect('dev-inc-01', 'Device#Secret01', 'INC-01');
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    device.publish('vigil/100001/device/INC-02/data', 'x', { qos: 1 });
    await closed; // aedes drops a client that publishes where it may not
    await ctx.server.app.platform.logs.flush();
    const logged = await ctx.server.app.platform.db.selectFrom('blade_log_usual').select('logData').where('logId', '=', 'mqtt').execute();
    expect(logged.map((r) => String(r.logData))).toEqual(expect.arrayContaining(['MQTT 发布被拒绝: dev-inc-01 -> vigil/100001/device/INC-02/data', expect.stringContaining('用户名或密码错误')]));
  });

  it('takes a new topic rule into account at the next publish', async () => {
    // The refusal just above read the tenant's rules; a rule added now opens that topic to this identity alone.
    expect((await ctx.demo.post('/api/wit-xinde/mqttacl/submit', { username: 'dev-inc-01', topic: 'vigil/%t/device/INC-02/data', action: 2, allow: 1 })).body.code).toBe(200);
    const device = await connect('dev-inc-01', 'Device#Secret01', 'INC-01');
    await device.publishAsync('vigil/100001/device/INC-02/data', JSON.stringify({ values: { x: 3 } }), { qos: 1 });
    expect(device.connected).toBe(true);
  });

  it("keeps an identity's topic rule to that identity, applies a rule without one to every identity, and denies by a rule", async () => {
    const publishes = async (username: string, password: string, clientId: string, topic: string) => {
      const client = await connect(username, password, clientId);
      const closed = new Promise<boolean>((resolve) => client.once('close', () => resolve(false)));
      // aedes ends a connection that publishes where it may not: the acknowledgement, or the end, whichever comes.
      return Promise.race([client.publishAsync(topic, '{"values":{"x":1}}', { qos: 1 }).then(() => true), closed]);
    };
    expectOk(await ctx.demo.post('/api/wit-xinde/mqttacl/submit', { username: 'dev-inc-01', topic: 'vigil/%t/device/INC-05/data', action: 2, allow: 1 }));
    expect(await publishes('dev-inc-01', 'Device#Secret01', 'INC-01', 'vigil/100001/device/INC-05/data')).toBe(true);
    expect(await publishes('dev-inc-03', 'Device#Secret03', 'INC-03', 'vigil/100001/device/INC-05/data')).toBe(false);
    // A blank username stands for every identity.
    expectOk(await ctx.demo.post('/api/wit-xinde/mqttacl/submit', { username: '', topic: 'vigil/%t/device/INC-06/data', action: 2, allow: 1 }));
    expect(await publishes('dev-inc-03', 'Device#Secret03', 'INC-03', 'vigil/100001/device/INC-06/data')).toBe(true);
    // A rule that denies takes away what the identity's type allows (its own data topic).
    expect(await publishes('dev-inc-03', 'Device#Secret03', 'INC-03', 'vigil/100001/device/INC-03/data')).toBe(true);
    expectOk(await ctx.demo.post('/api/wit-xinde/mqttacl/submit', { username: 'dev-inc-03', topic: 'vigil/%t/device/%c/data', action: 2, allow: 0 }));
    expect(await publishes('dev-inc-03', 'Device#Secret03', 'INC-03', 'vigil/100001/device/INC-03/data')).toBe(false);
  });

  it('delivers within a tenant and never across tenants', async () => {
    const app = await connect('app-100001', 'Application#01', 'app-1');
    await app.subscribeAsync('vigil/100001/#');
    await expect(app.subscribeAsync('vigil/000000/#')).rejects.toThrow(/Subscribe error/);
    const received = new Promise<string>((resolve) => app.once('message', (topic) => resolve(topic)));
    const device = await connect('dev-inc-01', 'Device#Secret01', 'INC-01');
    await device.publishAsync('vigil/100001/device/INC-01/data', '{"values":{"x":2}}', { qos: 1 });
    expect(await received).toBe('vigil/100001/device/INC-01/data');
  });

  it('takes a changed password into account at once', async () => {
    const list = await ctx.demo.get<{ records: Array<{ id: string; username: string }> }>('/api/wit-xinde/mqttuser/list', { username_equal: 'dev-inc-01' });
    const id = list.body.data.records[0].id;
    expect((await ctx.demo.post('/api/wit-xinde/mqttuser/submit', { id, password: 'Rotated#Secret2' })).body.code).toBe(200);
    await expect(connect('dev-inc-01', 'Device#Secret01', 'INC-01')).rejects.toThrow(/Bad User Name or Password|bad username/i);
    await connect('dev-inc-01', 'Rotated#Secret2', 'INC-01');
  });

  it('answers "server unavailable" while the identities or the topic rules cannot be read, logs it, and goes on once they can', async () => {
    const { events } = ctx.server.app.platform;
    expect((await ctx.demo.post('/api/wit-xinde/mqttuser/submit', { username: 'dev-inc-09', password: 'Device#Secret09', clientType: 1, clientId: 'INC-09' })).body.code).toBe(200);
    const device = await connect('dev-inc-03', 'Device#Secret03', 'INC-03');
    const restoreRules = await hideTable(ctx.server, 'wit_mqtt_acl');
    const restoreIdentities = await hideTable(ctx.server, 'wit_mqtt_user');
    try {
      // The rules read afresh for a subscription: refused, the connection ended, not left waiting.
      events.emit('changed', 'wit_mqtt_acl');
      await expect(device.subscribeAsync('vigil/100001/device/INC-03/command')).rejects.toThrow();
      // A CONNECT whose identity cannot be looked up: refused as the server unavailable (3), not as bad credentials.
      await expect(connect('dev-inc-09', 'Device#Secret09', 'INC-09')).rejects.toThrow(/Server unavailable/i);
      // The walk over connected identities after a change cannot read them either: logged.
      events.emit('changed', 'wit_mqtt_user');
      await until(async () => (await loggedErrors(ctx.server, 'ingest')).length > 0, 10_000, 'the failed walk logged');
    } finally {
      await restoreIdentities();
      await restoreRules();
    }
    const errors = await takeLoggedErrors(ctx.server, 'ingest');
    expect(errors.length).toBeGreaterThan(0);
    for (const message of errors) expect(message).toMatch(/^revoked identities: /);
    events.emit('changed', 'wit_mqtt_acl');
    const back = await connect('dev-inc-09', 'Device#Secret09', 'INC-09');
    expect((await back.subscribeAsync('vigil/100001/device/INC-09/command'))[0].qos).toBe(0);
  });

  it("probes each connection by TCP keep-alive, sends without Nagle's delay, and counts open connections until they close", async () => {
    const broker = ctx.server.app.broker;
    if (!broker) throw new Error('no embedded broker');
    const open = async () => figure((await scrape(ctx.server.url, ctx.server.app.platform.config.metricsToken)).text, 'vigil_mqtt_connections');
    const before = await open();
    const device = await connect('dev-inc-03', 'Device#Secret03', 'INC-03');
    // A socket that never sends its CONNECT is no MQTT client, and counts all the same.
    const silent = createConnection(broker.port, '127.0.0.1');
    await until(async () => (await open()) === before + 2, 5000, 'both connections counted');

    // The kernel's record of the broker's end: the keep-alive timer armed (2), first probe within 60 s (USER_HZ ticks),
    // not the system's two hours.
    const peer = (device.stream as Socket).localPort as number;
    const end = () => kernelSockets().find((s) => s.state === '01' && s.localPort === broker.port && s.remotePort === peer);
    const armed = await until(() => end()?.timer === 2 && end(), 5000, 'the keep-alive timer');
    expect(armed.timerTicks).toBeLessThanOrEqual(60 * 100);
    // TCP_NODELAY is not in /proc: Node keeps what it set on the socket.
    const conn = (broker.aedes as unknown as { clients: Record<string, { conn: Socket }> }).clients['INC-03'].conn;
    const noDelay = Object.getOwnPropertySymbols(conn).find((symbol) => symbol.description === 'kSetNoDelay');
    expect(noDelay && (conn as unknown as Record<symbol, unknown>)[noDelay]).toBe(true);

    await device.endAsync();
    silent.destroy();
    await until(async () => (await open()) === before, 5000, 'the closed connections no longer counted');
  });

  it('takes a device’s messages of its first 2 s as catching up, later ones as live', async () => {
    const broker = ctx.server.app.broker;
    if (!broker) throw new Error('no embedded broker');
    const hooks = ctx.server.app.ingest.hooks;
    const store = hooks.data;
    const seen: Priority[] = [];
    hooks.data = (_topic, _payload, priority) => {
      seen.push(priority);
      return Promise.resolve();
    };
    const realClock = broker.ages.now;
    let clock = 1_000_000;
    broker.ages.now = () => clock;
    try {
      const device = await connect('dev-inc-07', 'Device#Secret07', 'INC-07');
      await device.publishAsync('vigil/100001/device/INC-07/data', JSON.stringify({ values: { a: 1 } }), { qos: 1 });
      clock += CATCH_UP_MS - 1;
      await device.publishAsync('vigil/100001/device/INC-07/data', JSON.stringify({ values: { a: 2 } }), { qos: 1 });
      clock += 1;
      await device.publishAsync('vigil/100001/device/INC-07/data', JSON.stringify({ values: { a: 3 } }), { qos: 1 });
      expect(seen).toEqual([{ catchingUpSince: 1_000_000 }, { catchingUpSince: 1_000_000 }, 'live']);
      await device.endAsync();
    } finally {
      hooks.data = store;
      broker.ages.now = realClock;
    }
  });

  it('does not start while its MQTT port is taken, and says why', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as { port: number };
    try {
      await expect(startServer(ctx.server.store, { mqttPort: port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});
