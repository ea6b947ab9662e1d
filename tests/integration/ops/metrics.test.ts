import mqtt, { type MqttClient } from 'mqtt';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { DEMO_DEVICE_PASSWORD } from '../../../server/db/seed/monitoring';
import { expectOk } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO, demoId, X } from '../monitoring/support';
import { scrape, samples, figure } from './support';

/** /metrics over real HTTP: the operator's token, and figures that move with real MQTT traffic, API calls and sockets. */
onEveryStore('metrics', { signIn: ['demo'] }, (ctx) => {
  const clients: MqttClient[] = [];
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(clients.map((client) => client.endAsync(true)));
  });

  const token = () => ctx.server.app.platform.config.metricsToken;
  const metrics = async () => {
    const reply = await scrape(ctx.server.url, token());
    expect(reply.status).toBe(200);
    return reply.text;
  };
  const device = async (code: string) => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { username: code, password: DEMO_DEVICE_PASSWORD, clientId: code, protocolVersion: 4, reconnectPeriod: 0 });
    clients.push(client);
    return client;
  };

  it('answers 401 in the envelope without the token or with a wrong one, and the figures with it', async () => {
    for (const given of [undefined, 'wrong-token', `${token()}x`, '']) {
      const reply = await scrape(ctx.server.url, given);
      expect(reply.status).toBe(401);
      expect(JSON.parse(reply.text)).toEqual({ code: 401, success: false, data: null, msg: '请求未授权' });
    }
    // A user's token is no metrics token.
    const asUser = await fetch(`${ctx.server.url}/metrics`, { headers: { authorization: `Bearer ${ctx.demo.token}` } });
    expect(asUser.status).toBe(401);

    const reply = await scrape(ctx.server.url, token());
    expect(reply.status).toBe(200);
    expect(reply.contentType).toContain('text/plain');
    for (const name of ['vigil_ingest_messages_total', 'vigil_ingest_points_total', 'vigil_ingest_writer_queue_depth', 'vigil_notifier_backlog', 'vigil_realtime_sockets', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(reply.text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts messages, points, refusals and commits of readings published over MQTT', async () => {
    const before = await metrics();
    const client = await device('QJ-CRACK-01');
    const ts = Date.now() - 60_000;
    for (let i = 0; i < 3; i++) {
      await client.publishAsync(`vigil/${DEMO}/device/QJ-CRACK-01/data`, JSON.stringify({ ts: ts + i * 1000, values: { crack: 0.2 + i / 100, temperature: 20 } }), { qos: 1 });
    }
    await client.publishAsync(`vigil/${DEMO}/device/QJ-CRACK-01/data`, '{not json', { qos: 1 });
    await client.publishAsync(`vigil/${DEMO}/device/QJ-CRACK-01/data`, JSON.stringify({ ts, values: { crack: 'wide', temperature: 21 } }), { qos: 1 });

    // Every PUBACK has arrived: the messages are stored and announced.
    const after = await metrics();
    const grown = (name: string, labels: Record<string, string> = {}) => figure(after, name, labels) - figure(before, name, labels);
    expect(grown('vigil_ingest_messages_total')).toBe(5);
    expect(grown('vigil_ingest_points_total')).toBe(7);
    expect(grown('vigil_ingest_refused_total', { reason: 'malformed' })).toBe(1);
    expect(grown('vigil_ingest_refused_total', { reason: 'invalid_value' })).toBe(1);
    const commits = await until(async () => {
      const text = await metrics();
      return figure(text, 'vigil_ingest_batch_commit_seconds_count') > figure(before, 'vigil_ingest_batch_commit_seconds_count') && text;
    }, 10_000, 'a commit counted');
    expect(figure(commits, 'vigil_ingest_batch_commit_seconds_sum')).toBeGreaterThan(0);
    expect(figure(commits, 'vigil_ingest_writer_queue_depth')).toBeGreaterThanOrEqual(0);
  });

  it('times API calls by route pattern, method and status class, never by the URL asked for', async () => {
    expectOk(await ctx.demo.get(`${X}/device/list`, { current: 1, size: 5, code: 'QJ-CRACK-01' }));
    expectOk(await ctx.demo.get(`${X}/device/list`, { current: 2, size: 5 }));
    expect((await fetch(`${ctx.server.url}/api/no-such/path/12345?x=1`)).status).toBe(404);
    const text = await metrics();
    const list = samples(text, 'vigil_http_request_duration_seconds_count').filter((s) => s.labels.route === '/wit-xinde/device/list');
    expect(list).toEqual([{ labels: { method: 'GET', route: '/wit-xinde/device/list', status_class: '2xx' }, value: 2 }]);
    expect(figure(text, 'vigil_http_request_duration_seconds_count', { route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    const routes = new Set(samples(text, 'vigil_http_request_duration_seconds_count').map((s) => s.labels.route));
    expect([...routes].filter((route) => route.includes('?') || route.includes('12345'))).toEqual([]);
    // Probes and scrapes are not API calls.
    expect(routes.has('/metrics')).toBe(false);
  });

  it('counts open sockets, alarms raised and notifications sent', async () => {
    const socket = connect(ctx.server.url, { auth: { token: ctx.demo.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    await until(async () => figure(await metrics(), 'vigil_realtime_sockets') === 1, 10_000, 'the socket counted');

    const adminId = expectOk(await ctx.demo.get<{ userId: string }>('/api/blade-auth/oauth/user-info')).userId;
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '全部告警', userIds: adminId, channels: 'notice' }));
    expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-RAIN-01'), pointKey: 'rainfall', level1Upper: 200, level4Upper: 10 }));
    const before = await metrics();
    const alarm = new Promise((resolve) => socket.once('alarm', resolve));
    const client = await device('QJ-RAIN-01');
    await client.publishAsync(`vigil/${DEMO}/device/QJ-RAIN-01/data`, JSON.stringify({ ts: Date.now(), values: { rainfall: 500 } }), { qos: 1 });
    await alarm;

    const after = await until(async () => {
      const text = await metrics();
      return figure(text, 'vigil_notifications_total', { channel: 'notice', outcome: 'sent' }) > figure(before, 'vigil_notifications_total', { channel: 'notice', outcome: 'sent' }) && text;
    }, 10_000, 'the notice counted');
    expect(figure(after, 'vigil_alarm_changes_total', { action: 'raise' }) - figure(before, 'vigil_alarm_changes_total', { action: 'raise' })).toBe(1);
    expect(figure(after, 'vigil_notifications_total', { channel: 'notice', outcome: 'sent' }) - figure(before, 'vigil_notifications_total', { channel: 'notice', outcome: 'sent' })).toBe(1);

    socket.close();
    await until(async () => figure(await metrics(), 'vigil_realtime_sockets') === 0, 10_000, 'the socket gone');
  });
});
