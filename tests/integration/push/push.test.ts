import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatDateTime } from '../../../resources/datetime';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import type { StoredReading } from '../../../server/ingest/types';
import type { ApiClient, Envelope, Reply } from '../../support/client';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { BRIDGE, connectAs, deviceOf, type FakeDevice } from '../data/support';
import { DEMO, X } from '../monitoring/support';
import { deadPort, type OwnerBroker, type Receiver, signatureOf, startOwnerBroker, startReceiver } from './support';
import { expectEvery } from '../../support/lists';

/**
 * Onward data end to end (docs/push.md): targets and bindings over the API, a device publishing over real MQTT to our
 * broker, and what arrives at an owner's broker (a second aedes broker, read by a real subscriber) and at a node:http
 * receiver; dead targets, re-pushes, latest values, connection tests, bad input and tenant isolation.
 */

const OWNER_USER = 'owner';
const OWNER_PASSWORD = 'Owner#Push2026';
const TOKEN = 'Bearer-Token-Push-123';
const SECRET = 'Sign#Secret-Push-456';
const SECRETS = [OWNER_PASSWORD, TOKEN, SECRET];
const DAY = 86_400_000;
const stamp = (ms: number) => formatDateTime(new Date(ms));

onEveryStore('onward data push', { signIn: ['demo', 'admin'] }, (ctx) => {
  let owner: OwnerBroker;
  let receiver: Receiver;
  const devices: FakeDevice[] = [];
  const stored: StoredReading[] = [];
  /** Every reply body of the suite, checked for secrets at the end. */
  const replies: string[] = [];

  const keep = <T>(reply: Reply<Envelope<T>>) => {
    replies.push(JSON.stringify(reply.body));
    return reply;
  };
  const get = async <T = unknown>(api: ApiClient, path: string, query?: Record<string, string | number>) => keep(await api.get<T>(path, query));
  const post = async <T = unknown>(api: ApiClient, path: string, body?: unknown) => keep(await api.post<T>(path, body));
  const target = async (body: Record<string, unknown>) => expectOk(await post<Row>(ctx.demo, `${X}/mqttparam/submit`, { flushInterval: 200, timeout: 2000, ...body }));
  const bind = async (mqttParamId: string, projectIds = [BRIDGE]) => expectOk(await post<{ bindings: Row[] }>(ctx.demo, `${X}/tenantproject/setTenantProject`, { mqttParamId, projectIds })).bindings;
  const logs = async (query: Record<string, string | number>) => expectOk(await get<PageData>(ctx.demo, `${X}/apisendlog/list`, { size: 200, ...query })).records;
  const device = async (code: string) => {
    const fake = await connectAs(ctx.server, 'device', code);
    devices.push(fake);
    return fake;
  };
  const storedOf = (code: string, ts: number) => until(() => stored.filter((r) => r.deviceCode === code && r.ts === ts).length > 0 && stored.filter((r) => r.deviceCode === code && r.ts === ts), 5000, `${code} stored`);

  beforeAll(async () => {
    // Quick retries, so a dead target's whole story fits in a test.
    ctx.server.app.push.forwarder.retry = { attempts: 3, baseMs: 50, maxMs: 200 };
    ctx.server.app.platform.events.on('readings', (batch) => stored.push(...batch));
    owner = await startOwnerBroker(OWNER_USER, OWNER_PASSWORD);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const d of devices) await d.close();
    await owner.close();
    await receiver.close();
  });

  it('checks targets and keeps their secrets write-only', async () => {
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '坏地址', pushType: 1, brokerUrl: 'http://broker.example.com' }), 'MQTT 服务器地址应以 mqtt://');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '带密码地址', pushType: 1, brokerUrl: 'mqtt://u:p@broker.example.com' }), '不能包含用户名或密码');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '坏模板', pushType: 1, brokerUrl: 'mqtt://b.example.com', topic: 'a/{foo}/b' }), '未知占位符 {foo}');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '通配符', pushType: 1, brokerUrl: 'mqtt://b.example.com', topic: 'a/+/b' }), '通配符');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '花括号', pushType: 1, brokerUrl: 'mqtt://b.example.com', topic: 'a/{deviceCode' }), '花括号不成对');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '无地址', pushType: 1 }), '请输入 MQTT 服务器地址');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '无URL', pushType: 2 }), '请输入推送地址');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: 'FTP', pushType: 2, url: 'ftp://files.example.com' }), '推送地址应以 http:// 或 https://');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '坏请求头', pushType: 2, url: 'https://x.example.com', headers: 'key=1' }), '请求头应为 JSON 对象');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '保留头', pushType: 2, url: 'https://x.example.com', headers: '{"Host":"a"}' }), '由系统设置');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '批量', pushType: 2, url: 'https://x.example.com', batchSize: 5000 }), '每批条数应在 1 到 1000 之间');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/submit`, { name: '类型', pushType: 3, url: 'https://x.example.com' }), '请选择推送方式');

    const saved = await target({ name: '业主 MQTT', pushType: 1, brokerUrl: owner.url, username: OWNER_USER, password: OWNER_PASSWORD });
    expect(saved).not.toHaveProperty('password');
    expect(saved.topic).toBe('vigil/{tenantId}/{projectCode}/data');
    const detail = expectOk(await get<Row>(ctx.demo, `${X}/mqttparam/detail`, { id: saved.id }));
    expect(detail).toMatchObject({ hasPassword: 1, hasToken: 0, hasSecret: 0, qos: 1, batchSize: 100, enabled: 1 });
    expect(detail).not.toHaveProperty('password');
    // A blank password on edit keeps the stored one: the connection test still signs in.
    expectOk(await post(ctx.demo, `${X}/mqttparam/update`, { id: saved.id, password: '', remark: '改备注' }));
    expect(expectOk(await post<{ success: boolean }>(ctx.demo, `${X}/subtable/testMQTT`, { id: saved.id })).success).toBe(true);
    expectOk(await get(ctx.demo, `${X}/mqttparam/select`));
    expectOk(await get(ctx.demo, `${X}/mqttparam/list`));
  });

  it('tests a target: the test message arrives, or the broker’s or the network’s error is reported', async () => {
    const good = await target({ name: '测试连接', pushType: 1, brokerUrl: owner.url, username: OWNER_USER, password: OWNER_PASSWORD, topic: 'probe/{tenantId}/{projectCode}' });
    const ok = expectOk(await post<{ success: boolean; target: string; message: string }>(ctx.demo, `${X}/subtable/testMQTT`, { id: good.id }));
    expect(ok).toMatchObject({ success: true, target: `probe/${DEMO}/test` });
    const arrived = await until(() => owner.messages.find((m) => m.topic === `probe/${DEMO}/test`), 5000, 'test message');
    expect(arrived.body).toMatchObject({ tenantId: DEMO, test: true });

    const wrong = await target({ name: '密码错误', pushType: 1, brokerUrl: owner.url, username: OWNER_USER, password: 'Wrong#Pass1' });
    const refused = expectOk(await post<{ success: boolean; message: string }>(ctx.demo, `${X}/subtable/testMQTT`, { id: wrong.id }));
    expect(refused.success).toBe(false);
    expect(refused.message).toMatch(/无法连接 MQTT 服务器: .*(Bad username or password|Not authorized)/);

    const port = await deadPort();
    const dead = expectOk(await post<{ success: boolean; message: string }>(ctx.demo, `${X}/subtable/testMQTT`, { pushType: 1, brokerUrl: `mqtt://127.0.0.1:${port}`, timeout: 2000 }));
    expect(dead.success).toBe(false);
    expect(dead.message).toContain('ECONNREFUSED');

    // An unsaved HTTP form is tested as typed.
    const http = expectOk(await post<{ success: boolean; httpStatus: number }>(ctx.demo, `${X}/subtable/testMQTT`, { pushType: 2, url: `${receiver.url}?probe=1`, token: TOKEN }));
    expect(http).toMatchObject({ success: true, httpStatus: 200 });
    expect(receiver.posted.find((p) => p.path === '/push?probe=1')?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    expectRefused(await post(ctx.demo, `${X}/subtable/testMQTT`, { id: '123456789' }), '推送目标不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/subtable/testMQTT`, { url: receiver.url }), '请选择推送方式');
    expectRefused(await post(ctx.demo, `${X}/subtable/testMQTT`, { pushType: 1, brokerUrl: 'tcp://x' }), 'MQTT 服务器地址应以');

    await ctx.server.app.push.idle();
    const tests = await logs({ trigger: 'test' });
    expect(tests.filter((r) => r.mqttParamId === good.id)).toEqual([expect.objectContaining({ state: 1, pushType: 1, target: `probe/${DEMO}/test`, paramName: '测试连接' })]);
    expect(tests.find((r) => r.mqttParamId === wrong.id)).toMatchObject({ state: 2 });
  });

  it('forwards a device’s readings over real MQTT to the owner’s broker and the HTTP receiver, in the documented format', async () => {
    const viaMqtt = await target({ name: '业主平台', pushType: 1, brokerUrl: owner.url, username: OWNER_USER, password: OWNER_PASSWORD, topic: 'owner/{projectCode}/{deviceCode}', qos: 1 });
    const viaHttp = await target({ name: '省监管平台', pushType: 2, url: receiver.url, token: TOKEN, secret: SECRET, headers: '{"X-Platform":"vigil"}' });
    // The owner knows QJ-CRACK-01 as P-CRACK-01 and its crack channel as LFKD.
    expectOk(await post(ctx.demo, `${X}/subtable/submit`, { mqttParamId: viaMqtt.id, deviceId: deviceOf('QJ-CRACK-01'), targetDevice: 'P-CRACK-01' }));
    expectOk(await post(ctx.demo, `${X}/subtable/submit`, { mqttParamId: viaMqtt.id, deviceId: deviceOf('QJ-CRACK-01'), pointKey: 'crack', targetKey: 'LFKD' }));
    const [mqttBinding] = await bind(String(viaMqtt.id));
    const [httpBinding] = await bind(String(viaHttp.id));
    expect(mqttBinding).toMatchObject({ projectId: BRIDGE, enabled: 1, paramName: '业主平台', pushType: 1 });

    const crack = await device('QJ-CRACK-01');
    const ts = Date.now() - 1000;
    await crack.publish({ ts, values: { crack: 0.5, temperature: 21 } });
    const [first] = await storedOf('QJ-CRACK-01', ts);
    const value = (key: string) => stored.find((r) => r.deviceCode === 'QJ-CRACK-01' && r.ts === ts && r.pointKey === key)?.value;

    const atOwner = await until(() => owner.messages.find((m) => m.topic === 'owner/QJ-BRIDGE/P-CRACK-01' && m.body.readings.some((r) => r.ts === ts)), 5000, 'MQTT push');
    expect(first).toBeDefined();
    expect(atOwner.body).toEqual({
      messageId: expect.stringMatching(/^\d+$/),
      tenantId: DEMO,
      project: { id: BRIDGE, code: 'QJ-BRIDGE', name: '钱塘江大桥健康监测' },
      readings: [{ device: 'P-CRACK-01', deviceName: expect.any(String), ts, time: stamp(ts), values: { LFKD: value('crack'), temperature: value('temperature') } }],
    });

    const atReceiver = await until(() => receiver.posted.find((p) => p.path === '/push' && p.body.readings?.some((r) => r.ts === ts && r.device === 'QJ-CRACK-01')), 5000, 'HTTP push');
    expect(atReceiver.body.readings.find((r) => r.ts === ts)?.values).toEqual({ crack: value('crack'), temperature: value('temperature') });
    expect(atReceiver.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'x-platform': 'vigil', 'content-type': 'application/json; charset=utf-8', 'x-vigil-message-id': atReceiver.body.messageId });
    const timestamp = String(atReceiver.headers['x-vigil-timestamp']);
    expect(atReceiver.headers['x-vigil-signature']).toBe(signatureOf(SECRET, timestamp, atReceiver.raw));

    await ctx.server.app.push.idle();
    const sent = await logs({ tenantProjectId: String(mqttBinding.id), state: 1 });
    expect(sent[0]).toMatchObject({ trigger: 'realtime', pushType: 1, state: 1, target: 'owner/QJ-BRIDGE/P-CRACK-01', projectId: BRIDGE, projectName: '钱塘江大桥健康监测', attempt: 1 });
    expect(sent[0].readings).toBeGreaterThanOrEqual(2);
    const httpLog = (await logs({ tenantProjectId: String(httpBinding.id) }))[0];
    expect(httpLog).toMatchObject({ state: 1, httpStatus: 200, target: receiver.url });
    const binding = expectOk(await get<Row>(ctx.demo, `${X}/tenantproject/detail`, { id: String(mqttBinding.id) }));
    expect(binding).toMatchObject({ lastState: 1, lastError: null });
    expect(Number(binding.pushCount)).toBeGreaterThanOrEqual(2);
  });

  it('retries a dead target and logs it failed, while ingestion goes on and other targets still receive', async () => {
    const port = await deadPort();
    const dead = await target({ name: '宕机平台', pushType: 2, url: `http://127.0.0.1:${port}/push`, timeout: 1000 });
    const deadBroker = await target({ name: '宕机 MQTT', pushType: 1, brokerUrl: `mqtt://127.0.0.1:${await deadPort()}`, timeout: 1000 });
    const alive = await target({ name: '正常平台', pushType: 2, url: `${receiver.url}/alive` });
    const [deadBinding] = await bind(String(dead.id));
    const [deadBrokerBinding] = await bind(String(deadBroker.id));
    await bind(String(alive.id));

    const rain = await device('QJ-RAIN-01');
    const stamps = [Date.now() - 3000, Date.now() - 2000];
    for (const ts of stamps) {
      const started = Date.now();
      await rain.publish({ ts, values: { rainfall: 1.5 } });
      // The QoS 1 acknowledgement waits for storage only, never for a target.
      expect(Date.now() - started).toBeLessThan(1000);
    }
    for (const ts of stamps) await storedOf('QJ-RAIN-01', ts);
    await until(() => stamps.every((ts) => receiver.posted.some((p) => p.path === '/push/alive' && p.body.readings.some((r) => r.ts === ts && r.device === 'QJ-RAIN-01'))), 5000, 'the live target');

    const failures = await until(async () => {
      await ctx.server.app.push.idle();
      const rows = await logs({ tenantProjectId: String(deadBinding.id) });
      return rows.some((r) => String(r.error).includes('放弃')) && rows;
    }, 8000, 'the dead target given up');
    expectEvery(failures, (r) => r.state === 2 && String(r.error).includes('ECONNREFUSED'));
    expect(failures.map((r) => r.trigger)).toContain('retry');
    expect(Math.max(...failures.map((r) => Number(r.attempt)))).toBe(3);
    const brokerFailures = await until(async () => {
      await ctx.server.app.push.idle();
      const rows = await logs({ tenantProjectId: String(deadBrokerBinding.id) });
      return rows.some((r) => String(r.error).includes('放弃')) && rows;
    }, 8000, 'the dead broker given up');
    expectEvery(brokerFailures, (r) => r.state === 2 && String(r.error).includes('无法连接 MQTT 服务器'));
    const binding = expectOk(await get<Row>(ctx.demo, `${X}/tenantproject/detail`, { id: String(deadBinding.id) }));
    expect(binding).toMatchObject({ lastState: 2 });
    expect(String(binding.lastError)).toContain('ECONNREFUSED');
    // The readings are stored all the same.
    const series = expectOk(await get<PageData>(ctx.demo, `${X}/devicelog/list`, { deviceId: deviceOf('QJ-RAIN-01'), ts_ge: stamps[0], ts_le: stamps[1] }));
    expect(series.total).toBe(2);
    expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(deadBinding.id), enabled: 0 }));
    expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(deadBrokerBinding.id), enabled: 0 }));
  });

  it('bounds a binding’s queue: the oldest readings are dropped and the drop is logged', async () => {
    // A project of its own, so only the dead target's lane sees these readings.
    const project = expectOk(await post<Row>(ctx.demo, `${X}/project/submit`, { name: '队列测试项目', code: 'PUSH-QUEUE' }));
    const unit = expectOk(await post<Row>(ctx.demo, `${X}/device/submit`, { code: 'PUSH-QUEUE-01', name: '队列测试设备', projectId: project.id }));
    const port = await deadPort();
    const dead = await target({ name: '队列宕机', pushType: 2, url: `http://127.0.0.1:${port}/`, batchSize: 2, timeout: 1000 });
    const [binding] = await bind(String(dead.id), [String(project.id)]);
    const forwarder = ctx.server.app.push.forwarder;
    forwarder.maxQueue = 5;
    try {
      const now = Date.now();
      const reading = (i: number): StoredReading => ({ tenantId: DEMO, projectId: String(project.id), deviceId: String(unit.id), deviceCode: 'PUSH-QUEUE-01', pointKey: 'v', ts: now + i, value: i, raw: i });
      ctx.server.app.platform.events.emit('readings', [reading(0), reading(1)]);
      await until(() => forwarder.queued(String(binding.id)) === 2 && true, 3000, 'the first batch in flight');
      ctx.server.app.platform.events.emit('readings', Array.from({ length: 20 }, (_v, i) => reading(i + 2)));
      await forwarder.idle();
      expect(forwarder.queued(String(binding.id))).toBeLessThanOrEqual(5 + 2);
      const dropped = await until(async () => {
        await forwarder.idle();
        return (await logs({ tenantProjectId: String(binding.id), state: 3 }))[0];
      }, 5000, 'the drop logged');
      expect(dropped).toMatchObject({ state: 3, readings: 15 });
      expect(String(dropped.error)).toContain('丢弃最早的 15 条');
    } finally {
      forwarder.maxQueue = 10_000;
      expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(binding.id), enabled: 0 }));
    }
  });

  it('re-pushes a binding’s stored history for a time range', async () => {
    const replay = await target({ name: '补推平台', pushType: 1, brokerUrl: owner.url, username: OWNER_USER, password: OWNER_PASSWORD, topic: 'replay/{deviceCode}', batchSize: 2, enabled: 1 });
    const [binding] = await bind(String(replay.id));
    const base = Date.now() - 2 * DAY;
    for (let i = 0; i < 3; i++) expectOk(await post(ctx.demo, `${X}/devicelog/submit`, { deviceId: deviceOf('QJ-HLS-01'), pointKey: 'settlement', ts: base + i * 60_000, value: 1.5 + i }));
    const range = { startTime: stamp(base - 60_000), endTime: stamp(base + 10 * 60_000) };

    const reply = expectOk(await post<Row>(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: binding.id, deviceIds: deviceOf('QJ-HLS-01'), ...range }));
    expect(reply).toMatchObject({ mqttParamId: replay.id, bindings: 1, devices: 1, readings: 3, pushed: 3, failed: 0, messages: 2 });
    const got = await until(() => {
      const found = owner.messages.filter((m) => m.topic === 'replay/QJ-HLS-01').flatMap((m) => m.body.readings);
      return found.length >= 3 && found;
    }, 5000, 'the replay');
    expect(got.map((r) => [r.ts, r.values.settlement])).toEqual([0, 1, 2].map((i) => [base + i * 60_000, 1.5 + i]));

    // The same by device, and the calls' refusals.
    const byDevice = expectOk(await post<Row>(ctx.demo, `${X}/tenantproject/pushDataByDev`, { mqttParamId: replay.id, deviceIds: [deviceOf('QJ-HLS-01')], ...range }));
    expect(byDevice).toMatchObject({ readings: 3, pushed: 3 });
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushHttpData`, { id: binding.id, ...range }), '不是 HTTP 类型');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: binding.id, startTime: stamp(base - 40 * DAY), endTime: stamp(base) }), '不能超过 31 天');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: binding.id }), '请选择开始时间和结束时间');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: binding.id, startTime: range.endTime, endTime: range.startTime }), '开始时间应早于结束时间');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: '123456789', ...range }), '推送绑定不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: binding.id, deviceIds: '123456', ...range }), '不在该项目的推送范围内');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushDataByDev`, { mqttParamId: '123456789', deviceIds: deviceOf('QJ-HLS-01'), ...range }), '推送目标不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushDataByDev`, { mqttParamId: replay.id, ...range }), '请选择设备');

    await ctx.server.app.push.idle();
    const manual = await logs({ tenantProjectId: String(binding.id), trigger: 'manual' });
    expect(manual.length).toBe(4);
    expectEvery(manual, (r) => r.state === 1 && r.target === 'replay/QJ-HLS-01');
    expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(binding.id), enabled: 0 }));
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushMqttData`, { id: binding.id, ...range }), '该项目的推送已停用');
  });

  it('pushes chosen devices’ latest values now (pushDataByDev2)', async () => {
    const latest = await target({ name: '最新值平台', pushType: 2, url: `${receiver.url}/latest`, flushInterval: 600_000 });
    const [binding] = await bind(String(latest.id));
    const th = await device('QJ-TH-01');
    const ts = Date.now() - 500;
    await th.publish({ ts, values: { temperature: 21.5, humidity: 60 } });
    await storedOf('QJ-TH-01', ts);
    const reply = expectOk(await post<Row>(ctx.demo, `${X}/tenantproject/pushDataByDev2`, { mqttParamId: latest.id, deviceIds: deviceOf('QJ-TH-01') }));
    expect(reply).toMatchObject({ devices: 1, readings: 2, pushed: 2, failed: 0 });
    const posted = await until(() => receiver.posted.find((p) => p.path === '/push/latest' && p.body.readings.some((r) => r.device === 'QJ-TH-01' && r.ts === ts)), 5000, 'latest values');
    const values = stored.filter((r) => r.deviceCode === 'QJ-TH-01' && r.ts === ts);
    expect(posted.body.readings).toEqual([expect.objectContaining({ device: 'QJ-TH-01', ts, values: Object.fromEntries(values.map((r) => [r.pointKey, r.value])) })]);

    // A binding that pushes only some devices refuses the others; a device of an unbound project is refused.
    expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(binding.id), deviceIds: deviceOf('QJ-TH-01') }));
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushDataByDev2`, { mqttParamId: latest.id, deviceIds: deviceOf('QJ-TILT-01') }), '不在该项目的推送范围内');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(binding.id), deviceIds: '123456' }), '所选设备不存在或不属于该项目');
    const other = expectOk(await post<Row>(ctx.demo, `${X}/project/submit`, { name: '未绑定项目', code: 'PUSH-UNBOUND' }));
    const lonely = expectOk(await post<Row>(ctx.demo, `${X}/device/submit`, { code: 'PUSH-UNBOUND-01', name: '未绑定设备', projectId: other.id }));
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushDataByDev2`, { mqttParamId: latest.id, deviceIds: lonely.id }), '所属项目未绑定该推送目标');
    expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(binding.id), enabled: 0 }));
  });

  it('answers the tree, a target’s projects, and the devices of bindings and projects', async () => {
    const t = await target({ name: '树形目标', pushType: 2, url: `${receiver.url}/tree`, enabled: 0 });
    const [binding] = await bind(String(t.id));
    const tree = expectOk(await get<Row[]>(ctx.demo, `${X}/tenantproject/mqttTreeList`, { tenantId: '000000' }));
    const node = tree.find((n) => n.id === t.id) as Row & { children: Row[] };
    expect(node).toMatchObject({ nodeType: 'param', title: '树形目标', hasChildren: true });
    expect(node.children).toEqual([expect.objectContaining({ id: binding.id, nodeType: 'project', projectId: BRIDGE, title: '钱塘江大桥健康监测' })]);
    expectEvery(tree, (n) => n.id !== REFERENCE_IDS.pushTarget);

    const selected = expectOk(await get<Row>(ctx.demo, `${X}/tenantproject/selectTenantProject`, { mqttParamId: String(t.id) }));
    expect(selected).toMatchObject({ projectIds: [BRIDGE], projects: [expect.objectContaining({ code: 'QJ-BRIDGE' })] });

    const all = expectOk(await post<Row[]>(ctx.demo, `${X}/tenantproject/getDevList`, { ids: BRIDGE }));
    expect(all.length).toBe(9);
    expectOk(await post(ctx.demo, `${X}/tenantproject/update`, { id: String(binding.id), deviceIds: [deviceOf('QJ-TILT-01'), deviceOf('QJ-TILT-02')] }));
    const some = expectOk(await post<Row[]>(ctx.demo, `${X}/tenantproject/getDevList`, { ids: String(binding.id) }));
    expect(some.map((d) => d.code).sort()).toEqual(['QJ-TILT-01', 'QJ-TILT-02']);
    expect(some[0]).toMatchObject({ bindingId: binding.id, mqttParamId: t.id, projectName: '钱塘江大桥健康监测' });
    expectRefused(await post(ctx.demo, `${X}/tenantproject/getDevList`, { ids: '123456789' }), '推送绑定或项目不存在');

    // Unbinding: the target's projects become exactly the given ones.
    expect(expectOk(await post<Row>(ctx.demo, `${X}/tenantproject/setTenantProject`, { mqttParamId: t.id, projectIds: [] })).projectIds).toEqual([]);
    expectRefused(await post(ctx.demo, `${X}/tenantproject/setTenantProject`, { mqttParamId: t.id, projectIds: ['123456'] }), '项目不存在或无权操作');
    expectOk(await post(ctx.demo, `${X}/tenantproject/submit`, { mqttParamId: t.id, projectId: BRIDGE, enabled: 1 }));
    expectRefused(await post(ctx.demo, `${X}/tenantproject/submit`, { mqttParamId: t.id, projectId: BRIDGE }), '该项目已绑定到此推送目标');
    expectRefused(await post(ctx.demo, `${X}/mqttparam/remove?ids=${String(t.id)}`), '请先解除');
  });

  it('keeps targets, bindings and logs in their tenant', async () => {
    // The platform tenant's reference target and bench project are invisible to tenant 100001.
    const foreign = REFERENCE_IDS.pushTarget;
    expect(expectOk(await get(ctx.demo, `${X}/mqttparam/detail`, { id: foreign }))).toBeNull();
    expectRefused(await post(ctx.demo, `${X}/subtable/testMQTT`, { id: foreign }), '推送目标不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/setTenantProject`, { mqttParamId: foreign, projectIds: [BRIDGE] }), '推送目标不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/submit`, { mqttParamId: foreign, projectId: BRIDGE }), '推送目标不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushDataByDev2`, { mqttParamId: foreign, deviceIds: deviceOf('QJ-TILT-01') }), '推送目标不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/subtable/submit`, { mqttParamId: foreign, deviceId: deviceOf('QJ-TILT-01'), targetDevice: 'X' }), '推送目标不存在或无权操作');
    const mine = await target({ name: '本租户目标', pushType: 2, url: `${receiver.url}/mine`, enabled: 0 });
    expectRefused(await post(ctx.demo, `${X}/tenantproject/setTenantProject`, { mqttParamId: mine.id, projectIds: [REFERENCE_IDS.project] }), '项目不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/getDevList`, { ids: REFERENCE_IDS.project }), '推送绑定或项目不存在');
    expectRefused(await post(ctx.demo, `${X}/subtable/submit`, { mqttParamId: mine.id, deviceId: REFERENCE_IDS.device, targetDevice: 'X' }), '设备不存在或无权操作');
    expectRefused(await post(ctx.demo, `${X}/tenantproject/pushDataByDev2`, { mqttParamId: mine.id, deviceIds: REFERENCE_IDS.device }), '设备不存在或无权操作');

    // The platform administrator's test of its own target is logged in its tenant only.
    await post(ctx.admin, `${X}/subtable/testMQTT`, { id: foreign });
    await ctx.server.app.push.idle();
    const theirs = await logs({});
    expect(theirs.length).toBeGreaterThan(0);
    expectEvery(theirs, (r) => r.tenantId === DEMO);
    const platformLogs = expectOk(await get<PageData>(ctx.admin, `${X}/apisendlog/list`, { mqttParamId: foreign }));
    expectEvery(platformLogs.records, (r) => r.tenantId === '000000');
    expect(platformLogs.total).toBeGreaterThan(0);
    const bindings = expectOk(await get<Row[]>(ctx.demo, `${X}/tenantproject/nopage`));
    expectEvery(bindings, (r) => r.tenantId === DEMO);
    const tree = expectOk(await get<Row[]>(ctx.demo, `${X}/tenantproject/mqttTreeList`));
    expectEvery(tree, (n) => n.tenantId === DEMO);
  });

  it('never returns a secret', async () => {
    for (const path of ['mqttparam/list', 'mqttparam/select', 'tenantproject/nopage', 'tenantproject/mqttTreeList', 'apisendlog/list', 'subtable/list']) {
      expectOk(await get(ctx.demo, `${X}/${path}`, { size: 200 }));
    }
    const all = replies.join('\n');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/"(password|token|secret)":/);
  });
});
