import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { GUARDED, startServer, type TestServer } from '../../support/server';
import { DEMO, demoId, submit, X } from '../monitoring/support';
import { BRIDGE, deliveriesSettled, emit, reading, setParam, startReceiver, startSmtp } from './support';

/**
 * The outbound guard on alarm channels (docs/push.md "Outbound addresses"): a server started as a deployment is,
 * without OUTBOUND_ALLOW_PRIVATE, refuses webhooks, SMTP servers and SMS gateways on its own network when they are
 * saved and when a notification connects — once, without retrying — and nothing reaches the local servers standing
 * there. With OUTBOUND_ALLOW naming 127.0.0.1, the same channels deliver there.
 */

const REFUSED = '指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)';
/** Public-looking names that never resolve (RFC 6761): saved, then turned into local addresses in the tables. */
const NOWHERE = { hook: 'http://hook.example.invalid/alarm', smtp: 'smtp.example.invalid', sms: 'http://sms.example.invalid/send' };

type Smtp = Awaited<ReturnType<typeof startSmtp>>;
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describe.each(await storeKinds())('outbound guard on alarm channels on %s', (store) => {
  let guarded: TestServer;
  let allowing: TestServer;
  let smtp: Smtp;
  let hook: Receiver;
  let gateway: Receiver;

  /** One client per server, signed in as the demo tenant's administrator. */
  const clients = new Map<TestServer, ApiClient>();
  const api = (server: TestServer) => clients.get(server)!;
  /** An enabled SMS gateway, SMTP settings, a recipient on every channel, a strategy and a threshold on QJ-TH-01. */
  const channels = async (server: TestServer, addresses: { hook: string; smtp: string; sms: string }) => {
    const sms = expectOk(await api(server).post<Row>('/api/blade-resource/sms/submit', { category: 1, smsCode: 'alarm-sms', templateId: 'ALARM_01', endpoint: addresses.sms }));
    expectOk(await postParams(api(server), '/api/blade-resource/sms/enable', { id: sms.id }));
    expectOk(await setParam(api(server), 'alarm.smtp.host', addresses.smtp));
    expectOk(await setParam(api(server), 'alarm.smtp.port', String(smtp.port)));
    expectOk(await setParam(api(server), 'alarm.smtp.secure', 'false'));
    const recipient = await submit(api(server), 'alarmrecipient', { name: '业主代表', email: 'owner@example.com', phone: '13800138000', webhookUrl: addresses.hook, channels: 'email,webhook,sms' });
    expectOk(await api(server).post(`${X}/alarmnoticestrategy/submit`, { name: '业主', recipientIds: recipient.id, channels: 'email,webhook,sms', levels: '2', projectIds: BRIDGE }));
    expectOk(await api(server).post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-TH-01'), pointKey: 'temperature', level2Upper: 50 }));
    return { sms, recipient };
  };
  /** Raises an alarm and waits until each of its three deliveries is sent or given up; returns the send log. */
  const alarmSent = async (server: TestServer) => {
    await emit(server, [reading('QJ-TH-01', 'temperature', 55)]);
    const [alarm] = expectOk(await api(server).get<PageData>(`${X}/alarm/list`, { deviceId: demoId('device:QJ-TH-01'), pointKey_equal: 'temperature' })).records;
    await deliveriesSettled(server, alarm.id, 3);
    return expectOk(await api(server).get<PageData>(`${X}/alarmsendlog/list`, { alarmId: alarm.id, size: 50 })).records;
  };
  const nothingArrived = () => {
    expect(smtp.connections()).toBe(0);
    expect(hook.bodies).toEqual([]);
    expect(gateway.bodies).toEqual([]);
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    hook = await startReceiver();
    gateway = await startReceiver();
    guarded = await startServer(store, GUARDED);
    allowing = await startServer(store, { outbound: { allowPrivate: false, allow: ['127.0.0.1/32'] } });
    for (const server of [guarded, allowing]) {
      server.app.alarms.notifier.retry = { attempts: 3, backoffMs: 50 };
      server.app.alarms.notifier.channels.timeoutMs = 2_000;
      clients.set(server, await signedIn(server.url, 'admin', 'admin', DEMO));
    }
  });
  afterAll(async () => {
    await guarded?.stop();
    await allowing?.stop();
    await smtp?.close();
    await hook?.close();
    await gateway?.close();
  });

  it('refuses webhooks, SMTP servers and SMS gateways on the platform’s own network when they are saved', async () => {
    const demo = api(guarded);
    const local = hook.url.replace('127.0.0.1', 'localhost');
    for (const webhookUrl of [hook.url, local, 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:10.0.0.8]/hook']) {
      expectRefused(await demo.post(`${X}/alarmrecipient/submit`, { name: '本机接收', webhookUrl, channels: 'webhook' }), REFUSED);
    }
    expect(expectOk(await demo.get<PageData>(`${X}/alarmrecipient/list`, { name: '本机接收' })).total).toBe(0);

    for (const host of ['127.0.0.1', 'localhost', '::1', '192.168.1.25']) expectRefused(await setParam(api(guarded), 'alarm.smtp.host', host), `目标地址 ${host} ${REFUSED}`);
    expect(expectOk(await demo.get<PageData>('/api/blade-system/param/list', { paramKey_equal: 'alarm.smtp.host' })).total).toBe(0);
    // Renaming a param into the SMTP host is judged too; other params may hold any value.
    const other = expectOk(await demo.post<Row>('/api/blade-system/param/submit', { paramName: '备用', paramKey: 'backup.host', paramValue: '127.0.0.1' }));
    expectRefused(await demo.post('/api/blade-system/param/submit', { id: other.id, paramKey: 'alarm.smtp.host' }), REFUSED);

    for (const endpoint of [gateway.url, local, 'http://100.100.100.200/sms']) {
      expectRefused(await demo.post('/api/blade-resource/sms/submit', { category: 1, smsCode: 'local-sms', templateId: 'T1', endpoint }), REFUSED);
    }
    expect(expectOk(await demo.get<PageData>('/api/blade-resource/sms/list', { smsCode: 'local-sms' })).total).toBe(0);
    nothingArrived();
  });

  it('refuses each channel again when it connects, gives the delivery up at once, and nothing arrives', async () => {
    // Saved while their names do not resolve; then the stored addresses lead to this machine, as DNS could make them.
    const { sms, recipient } = await channels(guarded, NOWHERE);
    const db = guarded.app.platform.db;
    const byName = hook.url.replace('127.0.0.1', 'localhost');
    await db.updateTable('wit_alarm_recipient').set({ webhookUrl: byName }).where('id', '=', recipient.id).execute();
    await db.updateTable('blade_param').set({ paramValue: 'localhost' }).where('tenantId', '=', DEMO).where('paramKey', '=', 'alarm.smtp.host').execute();
    await db.updateTable('blade_sms').set({ endpoint: gateway.url }).where('id', '=', sms.id).execute();

    const logs = await alarmSent(guarded);
    expect(logs.map((l) => [l.channel, l.attempt, l.success]).sort()).toEqual([
      ['email', 1, 0],
      ['sms', 1, 0],
      ['webhook', 1, 0],
    ]);
    const detail = (channel: string) => logs.find((l) => l.channel === channel)?.detail;
    expect(detail('webhook')).toBe(`目标地址 localhost ${REFUSED}`);
    expect(detail('email')).toBe(`目标地址 localhost ${REFUSED}`);
    expect(detail('sms')).toBe(`目标地址 127.0.0.1 ${REFUSED}`);

    // The SMS test call answers the refusal in the envelope.
    const tested = await postParams(api(guarded), '/api/blade-resource/sms/endpoint/send-message', { phones: '13800138000' });
    expectRefused(tested, `短信发送失败: 目标地址 127.0.0.1 ${REFUSED}`);
    nothingArrived();

    // The stored host is judged again when its value is written, not when the param is only renamed.
    const [host] = expectOk(await api(guarded).get<PageData>('/api/blade-system/param/list', { paramKey_equal: 'alarm.smtp.host' })).records;
    expectRefused(await api(guarded).post('/api/blade-system/param/submit', { id: host.id, paramValue: '127.0.0.1' }), `目标地址 127.0.0.1 ${REFUSED}`);
    expectOk(await api(guarded).post('/api/blade-system/param/submit', { id: host.id, paramName: 'SMTP 服务器' }));
  });

  it('delivers to a private address that OUTBOUND_ALLOW names, and refuses the ones it does not', async () => {
    const demo = api(allowing);
    expectRefused(await demo.post(`${X}/alarmrecipient/submit`, { name: '另一本机', webhookUrl: hook.url.replace('127.0.0.1', '127.0.0.2') }), `目标地址 127.0.0.2 ${REFUSED}`);
    expectRefused(await setParam(api(allowing), 'alarm.smtp.host', '127.0.0.2'), `目标地址 127.0.0.2 ${REFUSED}`);

    await channels(allowing, { hook: hook.url, smtp: '127.0.0.1', sms: gateway.url });
    const logs = await alarmSent(allowing);
    expect(logs.map((l) => [l.channel, l.attempt, l.success, l.target]).sort()).toEqual([
      ['email', 1, 1, 'owner@example.com'],
      ['sms', 1, 1, '13800138000'],
      ['webhook', 1, 1, hook.url],
    ]);
    expect(smtp.mails.map((m) => m.to)).toEqual(['owner@example.com']);
    expect(hook.bodies).toEqual([expect.objectContaining({ event: 'alarm' })]);
    expect(gateway.bodies).toEqual([expect.objectContaining({ templateId: 'ALARM_01', phones: ['13800138000'] })]);
  });
});
