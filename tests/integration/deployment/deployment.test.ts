import mqtt, { type MqttClient } from 'mqtt';
import { createClient } from 'redis';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebugMessage, DebugPresence, SubscribeAnswer } from '../../../resources/wire/debug';
import { ALARM_ACTION, ALARM_STATE } from '../../../resources/iot/alarm';
import { seedId } from '../../../server/db/seed/ids';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from '../../../server/db/seed/operator';
import { ApiClient } from '../../support/client';
import { expectOk, postParams } from '../../support/envelope';
import { until } from '../../support/wait';
import { demoId, submit, X } from '../monitoring/support';
import { createLink, screenSocket } from '../screen/support';
import { type Deployment, missing, startDeployment } from './support';

/**
 * Three server processes as one deployment on one PostgreSQL, one Redis and one Mosquitto (docs/operations.md): what
 * one stores, the others show; what runs periodically runs once; a process killed mid-stream loses no acknowledged
 * reading.
 */

const why = await missing();
if (why) console.warn(`The deployment suite is skipped: ${why}.`);

const DEMO = '100001';
const CODE = 'QJ-TH-01';
const DEVICE = demoId(`device:${CODE}`);
const TOPIC = `vigil/${DEMO}/device/${CODE}/data`;

describe.skipIf(why !== undefined)('one deployment of three processes', () => {
  let deployment: Deployment;
  let device: MqttClient;
  const sockets: Socket[] = [];
  let ts = Date.now() - 86_400_000;

  beforeAll(async () => {
    // Silence of 3 s takes a device offline and reminders are looked for every second, so both can be seen here.
    deployment = await startDeployment(3, { DEVICE_OFFLINE_AFTER: '3', ALARM_REMINDER_CHECK: '1' });
    device = await mqtt.connectAsync(deployment.mosquitto.url, { clientId: 'deployment-device', reconnectPeriod: 0 });
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await device?.endAsync(true);
    await deployment?.stop();
  }, 60_000);

  /** A captcha drawn by one process, with its code as the deployment's Redis holds it. */
  const captcha = async (url: string) => {
    const drawn = await new ApiClient(url).request<{ key: string }>('GET', '/api/blade-auth/oauth/captcha');
    const redis = createClient({ url: deployment.redis.url });
    await redis.connect();
    const code = await redis.get(`vigil:captcha:${drawn.body.key}`);
    await redis.quit();
    return { 'captcha-key': drawn.body.key, 'captcha-code': String(code) };
  };

  /**
   * Signs in with a captcha, as the console does once an account is busy: the processes run the production rule of
   * ten sign-ins per account per minute without one, and the suite signs in to the demo admin more often than that.
   */
  const signedIn = async (url: string, account = 'admin', password = 'admin', tenantId = '000000') => {
    const client = new ApiClient(url, tenantId);
    const body = await client.login(account, password, tenantId, await captcha(url));
    if (!body.access_token) throw new Error(`sign-in of ${tenantId}/${account} failed: ${JSON.stringify(body)}`);
    return client;
  };

  /** Rows of the device's series from `from` on, and how many distinct instants they hold. */
  const stored = async (from: number) => {
    const { rows } = await deployment.sql.query<{ n: string; instants: string }>(
      'select count(*) as n, count(distinct ts) as instants from wit_device_log where device_id = $1 and point_key = $2 and ts >= $3',
      [DEVICE, 'humidity', from],
    );
    return { rows: Number(rows[0].n), instants: Number(rows[0].instants) };
  };
  const publish = (value: number, at = (ts += 1000)) => device.publishAsync(TOPIC, JSON.stringify({ ts: at, values: { humidity: value } }), { qos: 1 });

  /** Publishes `value` at QoS 1, one reading after another, until stopped; counts what the broker acknowledged. */
  const streaming = (value: number) => {
    let publishing = true;
    const counter = {
      acknowledged: 0,
      /** Resolves with the count once the reading in flight is acknowledged. */
      stop: async () => {
        publishing = false;
        await done;
        return counter.acknowledged;
      },
    };
    const done = (async () => {
      while (publishing) {
        await publish(value);
        counter.acknowledged += 1;
      }
    })();
    return counter;
  };

  const watch = async (url: string, token: string) => {
    const socket = connectSocket(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const seen = { messages: [] as DebugMessage[], presence: [] as DebugPresence[] };
    socket.on('debug.message', (m: DebugMessage) => seen.messages.push(m));
    socket.on('debug.presence', (p: DebugPresence) => seen.presence.push(p));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const answer = (await socket.timeout(5000).emitWithAck('debug.subscribe', { deviceId: DEVICE })) as SubscribeAnswer;
    expect(answer).toMatchObject({ ok: true });
    return seen;
  };

  it('stores each reading once, whichever process took it, and a debug console on any process shows them all', async () => {
    const [a, b] = deployment.members;
    const admin = await signedIn(a.url, 'admin', 'admin', DEMO);
    const onB = await watch(b.url, admin.token ?? '');
    // The other processes hear of B's new watcher through Redis, as a device's message may reach them first.
    await until(
      async () => {
        await publish(49);
        return onB.messages.length > 0;
      },
      5000,
      'the first message on B',
    );
    const from = ts + 1;
    for (let i = 0; i < 60; i += 1) await publish(50 + (i % 10));
    await until(async () => (await stored(from)).rows >= 60, 15_000, 'all 60 readings stored');
    expect(await stored(from)).toEqual({ rows: 60, instants: 60 });
    // Every process took a share of the subscription; B's console saw every message, stored by any of them.
    const shown = () => new Set(onB.messages.flatMap((m) => m.readings.map((r) => r.ts)).filter((at) => at >= from)).size;
    await until(() => shown() >= 60, 10_000, 'the debug console to show all 60');
    expect(shown()).toBe(60);
  });

  it('marks a silent device offline once, told once to a console on every process', async () => {
    const admin = await signedIn(deployment.members[0].url, 'admin', 'admin', DEMO);
    const consoles = await Promise.all(deployment.members.map((m) => watch(m.url, admin.token ?? '')));
    await publish(55);
    await until(async () => {
      const { rows } = await deployment.sql.query<{ online: number }>('select online from wit_device where id = $1', [DEVICE]);
      return Number(rows[0].online) === 0;
    }, 15_000, 'the device offline');
    // Every process heard of it once (the Redis adapter carries one process's event to all sockets).
    for (const seen of consoles) await until(() => seen.presence.some((p) => !p.change.online), 5000, 'the offline event');
    await publish(56);
    for (const seen of consoles) await until(() => seen.presence.some((p) => p.change.online), 5000, 'the online event');
    for (const seen of consoles) expect(seen.presence.map((p) => p.change.online)).toEqual([false, true]);
  });

  it('loses no acknowledged reading when a process is killed mid-stream: the others adopt its session, and it rejoins', async () => {
    const from = ts + 1;
    const stream = streaming(60);
    await until(() => stream.acknowledged >= 200, 20_000, '200 readings acknowledged');
    await deployment.kill(1);
    const atKill = stream.acknowledged;
    await until(() => stream.acknowledged >= atKill + 300, 20_000, '300 more readings acknowledged');
    const acknowledged = await stream.stop();
    // Without the killed process: what its session held, and its share since, reached the others.
    await until(async () => (await stored(from)).rows >= acknowledged, 20_000, `all ${acknowledged} acknowledged readings stored`);
    expect(await stored(from)).toEqual({ rows: acknowledged, instants: acknowledged });
    const { rows: adopted } = await deployment.sql.query<{ holder: string }>('select holder from vigil_lease where name = $1', [`mqtt-session:${deployment.members[1].clientId}-ingest`]);
    expect(adopted[0].holder).not.toMatch(deployment.members[1].clientId);

    const back = await deployment.restart(1);
    const { rows: taken } = await deployment.sql.query<{ holder: string }>('select holder from vigil_lease where name = $1', [`mqtt-session:${back.clientId}-ingest`]);
    expect(taken[0].holder.startsWith(`${back.clientId}#`)).toBe(true);
    const after = ts + 1;
    for (let i = 0; i < 60; i += 1) await publish(61);
    await until(async () => (await stored(after)).rows >= 60, 15_000, 'the readings after the restart');
    expect(await stored(from)).toEqual({ rows: acknowledged + 60, instants: acknowledged + 60 });
  }, 60_000);
  it('loses no acknowledged reading across a rolling restart of every process (SIGTERM, then start again)', async () => {
    const from = ts + 1;
    const stream = streaming(62);
    for (const member of [...deployment.members]) {
      const before = stream.acknowledged;
      const code = await deployment.terminate(member.index);
      expect(code, member.process.output.join('')).toBe(0);
      await deployment.restart(member.index);
      await until(() => stream.acknowledged >= before + 100, 20_000, 'readings flowing after the restart');
    }
    const acknowledged = await stream.stop();
    await until(async () => (await stored(from)).rows >= acknowledged, 20_000, `all ${acknowledged} acknowledged readings stored`);
    expect(await stored(from)).toEqual({ rows: acknowledged, instants: acknowledged });
  }, 120_000);

  it('takes a sign-out, a role change and a revoked display link on one process into account on the others at once', async () => {
    const [a, b, c] = deployment.members;
    /** A request through `url` with the token of `client`. */
    const through = (url: string, client: ApiClient) => Object.assign(new ApiClient(url, DEMO), { token: client.token });
    const quickly = (check: () => Promise<boolean>, what: string) => until(async () => (await check()) || undefined, 1000, what);

    const admin = await signedIn(a.url, 'admin', 'admin', DEMO);
    const onC = through(c.url, admin);
    expect((await onC.get('/api/blade-system/menu/routes')).status).toBe(200);
    expectOk(await admin.get('/api/blade-auth/oauth/logout'));
    await quickly(async () => (await onC.get('/api/blade-system/menu/routes')).status === 401, 'the signed-out token refused on C');

    const demo = await signedIn(b.url, 'admin', 'admin', DEMO);
    const operator = await signedIn(a.url, OPERATOR_ACCOUNT, OPERATOR_PASSWORD, DEMO);
    const deviceList = () => through(c.url, operator).get(`${X}/device/list`);
    expect((await deviceList()).status).toBe(200);
    const role = seedId(`role:${DEMO}:operator`);
    const granted = expectOk(await demo.get<{ menu: string[] }>('/api/blade-system/menu/role-tree-keys', { roleIds: role })).menu;
    expectOk(await demo.post('/api/blade-system/role/grant', { roleIds: [role], menuIds: [] }));
    await quickly(async () => (await deviceList()).status === 403, 'the operator refused on C');
    expectOk(await demo.post('/api/blade-system/role/grant', { roleIds: [role], menuIds: granted }));
    await quickly(async () => (await deviceList()).status === 200, 'the operator let in again on C');

    const link = await createLink(demo, { projectIds: demoId('project:bridge') });
    const screen = await screenSocket(c, link.secret, sockets);
    expectOk(await postParams(demo, `${X}/displaylink/revoke`, { ids: link.id }));
    expect(await Promise.race([screen.closed, new Promise((resolve) => setTimeout(() => resolve('still open after 1 s'), 1000))])).toBe('io server disconnect');
  });

  it('checks a captcha drawn on one process on another, and serves an attachment uploaded through one from the others', async () => {
    const [a, b, c] = deployment.members;
    const signIn = await new ApiClient(b.url, DEMO).login('admin', 'admin', DEMO, await captcha(a.url));
    expect(signIn.access_token).toBeTruthy();

    const admin = await signedIn(a.url, 'admin', 'admin', DEMO);
    const form = new FormData();
    form.append('file', new Blob([new TextEncoder().encode('crack width 0.21 mm\n')]), 'report.txt');
    const uploaded = await fetch(`${a.url}/api/blade-resource/oss/endpoint/put-file`, { method: 'POST', headers: admin.headers(), body: form });
    const file = expectOk({ status: uploaded.status, body: (await uploaded.json()) as { code: number; success: boolean; data: { link: string }; msg: string } });
    for (const other of [b, c]) {
      const served = await fetch(new URL(new URL(file.link).pathname, other.url));
      expect(served.status).toBe(200);
      expect(await served.text()).toBe('crack width 0.21 mm\n');
    }
  });

  it('raises an alarm once, notifies once per channel and clears it once, whichever processes judge the readings', async () => {
    const [a] = deployment.members;
    const admin = await signedIn(a.url, 'admin', 'admin', DEMO);
    const me = expectOk(await admin.get<{ id: string }>('/api/blade-user/info'));
    await submit(admin, 'devicethreshold', { targetType: 1, deviceId: DEVICE, pointKey: 'humidity', level4Upper: 80 });
    await submit(admin, 'alarmnoticestrategy', { name: '部署告警', channels: 'notice', userIds: me.id });
    const openAlarm = async () => {
      const { rows } = await deployment.sql.query<{ id: string }>('select id from wit_alarm where device_id = $1 and point_key = $2 and alarm_state = $3', [DEVICE, 'humidity', ALARM_STATE.open]);
      return rows[0]?.id;
    };
    // Each step waits for the one before to be judged: readings of one device reach several processes.
    const step = async (value: number, open: boolean) => {
      await publish(value);
      await until(async () => (open ? openAlarm() : !(await openAlarm())), 10_000, `the alarm ${open ? 'open' : 'cleared'} after ${value}`);
    };
    await step(50, false);
    await step(90, true);
    const alarmId = await openAlarm();
    for (const value of [91, 92, 93]) await step(value, true);
    await step(50, false);
    const count = async (query: string, params: unknown[]) => Number((await deployment.sql.query<{ n: string }>(query, params)).rows[0].n);
    expect(await count('select count(*) as n from wit_alarm where device_id = $1 and point_key = $2', [DEVICE, 'humidity'])).toBe(1);
    expect(await count('select count(*) as n from wit_alarm_log where alarm_id = $1 and action = $2', [alarmId, ALARM_ACTION.raise])).toBe(1);
    expect(await count('select count(*) as n from wit_alarm_log where alarm_id = $1 and action = $2', [alarmId, ALARM_ACTION.clear])).toBe(1);
    await until(async () => (await count("select count(*) as n from wit_alarm_send_log where alarm_id = $1 and channel = 'notice' and success = 1", [alarmId])) > 0, 10_000, 'the notice');
    expect(await count("select count(*) as n from wit_alarm_send_log where alarm_id = $1 and channel = 'notice'", [alarmId])).toBe(1);
  });

  it('sends a reminder once, though every process looks for reminders due', async () => {
    const [, b] = deployment.members;
    const admin = await signedIn(b.url, 'admin', 'admin', DEMO);
    const me = expectOk(await admin.get<{ id: string }>('/api/blade-user/info'));
    await submit(admin, 'devicethreshold', { targetType: 1, deviceId: DEVICE, pointKey: 'temperature', level4Upper: 60 });
    await submit(admin, 'alarmnoticestrategy', { name: '部署提醒', channels: 'notice', userIds: me.id, repeatInterval: 1 });
    const count = async (query: string, params: unknown[]) => Number((await deployment.sql.query<{ n: string }>(query, params)).rows[0].n);
    const openAlarm = async () =>
      (await deployment.sql.query<{ id: string }>('select id from wit_alarm where device_id = $1 and point_key = $2 and alarm_state = $3', [DEVICE, 'temperature', ALARM_STATE.open])).rows[0]?.id;
    const reading = (temperature: number) => device.publishAsync(TOPIC, JSON.stringify({ ts: (ts += 1000), values: { temperature } }), { qos: 1 });
    await reading(75);
    const alarmId = await until(openAlarm, 10_000, 'the temperature alarm');
    // A minute passes for the alarm: its first reminder round is due (repeatInterval is in whole minutes).
    await deployment.sql.query('update wit_alarm set level_at = level_at - 61000 where id = $1', [alarmId]);
    const reminders = (table: string) => count(`select count(*) as n from ${table} where alarm_id = $1 and round = 1`, [alarmId]);
    await until(async () => (await reminders('wit_alarm_send_log')) > 0, 10_000, 'the reminder');
    // Three more looks, by whichever processes won them, find the round planned already.
    const period = async () => Number((await deployment.sql.query<{ period: string }>("select period from vigil_lease where name = 'alarm-reminders'")).rows[0].period);
    const seen = await period();
    await until(async () => (await period()) >= seen + 3, 10_000, 'three more looks for reminders');
    expect(await reminders('wit_alarm_delivery')).toBe(1);
    expect(await reminders('wit_alarm_send_log')).toBe(1);
    await reading(20);
    await until(async () => !(await openAlarm()), 10_000, 'the temperature alarm cleared');
  });

  it('fires a collection strategy once per period across the processes', async () => {
    const [a] = deployment.members;
    const admin = await signedIn(a.url, 'admin', 'admin', DEMO);
    const strategy = await submit(admin, 'collectstrategy', { name: '部署采集', projectId: demoId('project:bridge'), deviceIds: DEVICE, intervalSeconds: 5, command: { command: 'collect' }, enabled: 1 });
    const runs = async () => (await deployment.sql.query<{ run_time: string }>('select run_time from wit_job_info where strategy_id = $1', [strategy.id])).rows.map((r) => r.run_time);
    await until(async () => (await runs()).length >= 3, 30_000, 'three runs');
    expectOk(await admin.post(`${X}/collectstrategy/submit`, { ...strategy, enabled: 0 }));
    const times = await runs();
    expect(new Set(times).size).toBe(times.length);
  });
  // Last: the demo tenant cannot sign in afterwards.
  it("takes a tenant's expiry on one process into account on the others at once", async () => {
    const [a, b, c] = deployment.members;
    const demo = await signedIn(b.url, 'admin', 'admin', DEMO);
    const screen = await screenSocket(c, (await createLink(demo, { projectIds: demoId('project:bridge') })).secret, sockets);
    const platformAdmin = await signedIn(a.url);
    const tenant = expectOk(await platformAdmin.get<{ records: Array<{ id: string }> }>('/api/blade-system/tenant/list', { tenantId: DEMO })).records[0];
    expectOk(await platformAdmin.post('/api/blade-system/tenant/setting', { ids: tenant.id, expireTime: '2020-01-01 00:00:00' }));
    expect(await Promise.race([screen.closed, new Promise((resolve) => setTimeout(() => resolve('still open after 1 s'), 1000))])).toBe('io server disconnect');
    expect((await new ApiClient(c.url, DEMO).login('admin', 'admin', DEMO, await captcha(c.url))).error_description).toBe('租户授权已过期,请联系管理员');
  });
});
