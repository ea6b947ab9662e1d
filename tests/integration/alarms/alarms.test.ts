import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AlarmEngine } from '../../../server/alarms/engine';
import { RuleBook } from '../../../server/alarms/rules';
import type { StoredReading } from '../../../server/ingest/types';
import { signedIn } from '../../support/client';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO, demoId, staffUser, submit, X } from '../monitoring/support';
import { BRIDGE, emit, reading, setParam, startReceiver, startSilentServer, startSmtp } from './support';

type Notice = Row & { title: string; href: string; alarmLevel: number };
interface NoticeInfo {
  alarmNotices: Notice[];
  alarmNum: number;
  stationNotices: Row[];
  sound: number;
}

/** Decodes RFC 2047 encoded words of a mail header (nodemailer encodes Chinese subjects). */
function decodeHeader(raw: string, name: string): string {
  const lines = raw.split(/\r?\n/);
  const start = lines.findIndex((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  let header = lines[start].slice(name.length + 1);
  for (let i = start + 1; i < lines.length && /^\s/.test(lines[i]); i++) header += lines[i];
  return header.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  ).trim();
}

onEveryStore('thresholds, alarms and notifications', { signIn: ['demo'] }, (ctx) => {
  let adminId: string;
  const sockets: Socket[] = [];
  let t = Date.now() - 3_600_000;
  /** Reading times that always move forward. */
  const tick = () => (t += 1000);

  const alarmsOf = async (deviceCode: string, pointKey: string) =>
    expectOk(await ctx.demo.get<PageData>(`${X}/alarm/list`, { deviceId: demoId(`device:${deviceCode}`), pointKey_equal: pointKey, descs: 'firstTime', size: 50 })).records;
  const sendLogs = async (alarmId: string) => expectOk(await ctx.demo.get<PageData>(`${X}/alarmsendlog/list`, { alarmId, size: 100, ascs: 'revision,attempt' })).records;
  const set = async (key: string, value: string) => expectOk(await setParam(ctx.demo, key, value));

  beforeAll(async () => {
    ctx.server.app.alarms.notifier.retry = { attempts: 3, backoffMs: 50 };
    ctx.server.app.alarms.notifier.channels.timeoutMs = 800;
    adminId = expectOk(await ctx.demo.get<{ userId: string }>('/api/blade-auth/oauth/user-info')).userId;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
  });

  it('keeps thresholds per device channel, monitor point and factor item, and checks every rule', async () => {
    const hls = await submit(ctx.demo, 'devicethreshold', {
      targetType: 1,
      deviceId: demoId('device:QJ-HLS-01'),
      pointKey: 'settlement',
      name: '跨中沉降',
      level1Upper: 40,
      level2Upper: 30,
      level3Upper: 20,
      level4Upper: 10,
      level4Lower: -10,
      hysteresis: 1,
    });
    expect(hls).toMatchObject({ projectId: BRIDGE, targetType: 1, monitorPointId: null, factorsItemId: null });
    const base = { targetType: 1, deviceId: demoId('device:QJ-HLS-01') };
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { ...base, pointKey: 'settlement', level4Upper: 10 }), '该对象已设置阈值');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { ...base, level4Upper: 10 }), '请选择点位');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { ...base, pointKey: 'nothing', level4Upper: 10 }), '设备没有该点位');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { ...base, pointKey: 'settlement' }), '请至少设置一个等级');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-HLS-02'), pointKey: 'settlement', level1Upper: 5, level2Upper: 8 }), '上限应随等级递减');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 3, factorsItemId: demoId('fi:crack_raw'), level4Upper: 1 }), '请选择项目');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-HLS-02'), pointKey: 'settlement', level4Upper: 'high' }), '必须是数字');
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-HLS-02'), pointKey: 'settlement', level4Rate: -1 }), '变化速率阈值应大于 0');

    const tilt = await submit(ctx.demo, 'devicethreshold', { targetType: 2, monitorPointId: demoId('mp:QJ-TILT-01:tilt_x'), level2Upper: 0.5, level4Upper: 0.1 });
    expect(tilt).toMatchObject({ projectId: BRIDGE, deviceId: null, pointKey: null });
    const crack = await submit(ctx.demo, 'devicethreshold', { targetType: 3, projectId: BRIDGE, factorsItemId: demoId('fi:crack_raw'), level3Upper: 1, level4Upper: 0.5, hysteresis: 0.05 });
    expectOk(await ctx.demo.post(`${X}/devicethreshold/update`, { id: crack.id, level4Upper: 0.6 }));
    expectRefused(await ctx.demo.post(`${X}/devicethreshold/update`, { id: crack.id, level4Upper: 2 }), '上限应随等级递减');

    const data = expectOk(await ctx.demo.get<Row[]>(`${X}/devicethreshold/selectThresholdData`, { projectId: BRIDGE }));
    expect(data.map((r) => r.id).sort()).toEqual([hls.id, tilt.id, crack.id].sort());
    expect(data.find((r) => r.id === hls.id)).toMatchObject({ deviceName: '跨中静力水准仪', projectName: '钱塘江大桥健康监测', level3Upper: 20 });
    expect(data.find((r) => r.id === tilt.id)?.monitorPointName).toBeTruthy();
    expect(data.find((r) => r.id === crack.id)).toMatchObject({ factorsItemName: expect.any(String), level4Upper: 0.6 });
    expect(expectOk(await ctx.demo.post(`${X}/devicethreshold/rdfreshCache`))).toBe(true);
    expectRefused(await ctx.demo.get(`${X}/devicethreshold/selectThresholdData`, { projectId: 'abc' }), '请求参数类型错误');
  });

  it('raises exactly one alarm, escalates, de-escalates through the band and clears, logging every change', async () => {
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '全部告警', userIds: adminId, channels: 'notice' }));
    // Two batches at once for the same channel: one alarm.
    await emit(ctx.server, [reading('QJ-HLS-01', 'settlement', 5, tick()), reading('QJ-HLS-01', 'settlement', 12, tick())], [reading('QJ-HLS-01', 'settlement', 12.5, tick())]);
    let [raised, ...others] = await alarmsOf('QJ-HLS-01', 'settlement');
    expect(others).toEqual([]);
    expect(raised).toMatchObject({ alarmLevel: 4, maxLevel: 4, alarmState: 1, handleState: 0, revision: 1, alarmType: 1, source: 1, projectId: BRIDGE, firstValue: 12, limitValue: 10, unit: 'mm', alarmLevelName: '蓝色' });
    expect(raised.title).toContain('蓝色告警');
    expect(raised.href).toBe(`/xinde/alarm?id=${raised.id}`);

    const steps: Array<[number, number, number]> = [
      // value, level after, revision after
      [25, 3, 2],
      [19.5, 3, 2],
      [18.9, 4, 3],
      [9.5, 4, 3],
      [10.5, 4, 3],
      [8.5, 0, 4],
    ];
    for (const [value, level, revision] of steps) {
      await emit(ctx.server, [reading('QJ-HLS-01', 'settlement', value, tick())]);
      const [now] = await alarmsOf('QJ-HLS-01', 'settlement');
      expect({ value, level: now.alarmState === 2 ? 0 : now.alarmLevel, revision: now.revision }).toEqual({ value, level, revision });
    }
    [raised] = await alarmsOf('QJ-HLS-01', 'settlement');
    expect(raised).toMatchObject({ alarmState: 2, maxLevel: 3, clearTime: expect.any(String) });

    const log = expectOk(await ctx.demo.get<PageData>(`${X}/alarmlog/list`, { alarmId: raised.id, ascs: 'revision' })).records;
    expect(log.map((l) => [l.action, l.fromLevel, l.toLevel, l.revision])).toEqual([
      [1, null, 4, 1],
      [2, 4, 3, 2],
      [3, 3, 4, 3],
      [4, 4, null, 4],
    ]);

    // The raise and the escalation each told the administrator once, in the app.
    await ctx.server.app.alarms.idle();
    const sent = await sendLogs(raised.id);
    expect(sent.map((s) => [s.revision, s.channel, s.success, s.userId])).toEqual([
      [1, 'notice', 1, adminId],
      [2, 'notice', 1, adminId],
    ]);
    // Planning the same change again (a second process, a restart) adds nothing.
    const row = await ctx.server.app.platform.db.selectFrom('wit_alarm').selectAll().where('id', '=', raised.id).executeTakeFirstOrThrow();
    expect(await ctx.server.app.alarms.notifier.plan(ctx.server.app.platform.db, { ...row, revision: 2, alarmLevel: 3 }, 0)).toBe(0);

    // A new crossing after the clear is a new alarm, raised and escalated once although two engines (as in two
    // server processes) judge the same readings at the same time.
    const platform = ctx.server.app.platform;
    const twin = new AlarmEngine(platform, new RuleBook(platform), ctx.server.app.alarms.notifier);
    const both = async (batch: StoredReading[]) => {
      ctx.server.app.alarms.engine.enqueue(batch);
      twin.enqueue(batch);
      await Promise.all([ctx.server.app.alarms.engine.idle(), twin.idle()]);
    };
    await both([reading('QJ-HLS-01', 'settlement', 11, tick())]);
    await both([reading('QJ-HLS-01', 'settlement', 33, tick())]);
    const all = await alarmsOf('QJ-HLS-01', 'settlement');
    expect(all.map((a) => [a.alarmState, a.alarmLevel, a.revision])).toEqual([[1, 2, 2], [2, 4, 4]]);
    const again = expectOk(await ctx.demo.get<PageData>(`${X}/alarmlog/list`, { alarmId: all[0].id, ascs: 'revision' })).records;
    expect(again.map((l) => [l.action, l.toLevel])).toEqual([[1, 4], [2, 2]]);
    await ctx.server.app.alarms.idle();
    expect((await sendLogs(all[0].id)).map((s) => [s.revision, s.channel])).toEqual([[1, 'notice'], [2, 'notice']]);
  });

  it('judges monitor point and factor item rules, and rates of change over the stored history', async () => {
    await emit(ctx.server, [reading('QJ-TILT-01', 'tilt_x', 0.6, tick()), reading('QJ-CRACK-02', 'crack', 0.7, tick()), reading('QJ-CRACK-02', 'temperature', 99, tick())]);
    expect((await alarmsOf('QJ-TILT-01', 'tilt_x'))[0]).toMatchObject({ alarmLevel: 2, monitorPointId: demoId('mp:QJ-TILT-01:tilt_x') });
    expect((await alarmsOf('QJ-CRACK-02', 'crack'))[0]).toMatchObject({ alarmLevel: 4, limitValue: 0.6 });
    expect(await alarmsOf('QJ-CRACK-02', 'temperature')).toEqual([]);

    // Rainfall: more than 20 mm per hour is orange. History is what the pipeline stored in wit_device_log.
    expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-RAIN-01'), pointKey: 'rainfall', ratePeriod: 1, level2Rate: 20, level4Rate: 5 }));
    const deviceId = demoId('device:QJ-RAIN-01');
    const hourAgo = Date.now() - 3_700_000;
    await ctx.server.app.platform.db.insertInto('wit_device_log').values({ deviceId, pointKey: 'rainfall', ts: hourAgo, value: 100, raw: 100 }).execute();
    const now = hourAgo + 3_600_000;
    await ctx.server.app.platform.db.insertInto('wit_device_log').values({ deviceId, pointKey: 'rainfall', ts: now, value: 125, raw: 125 }).execute();
    await emit(ctx.server, [reading('QJ-RAIN-01', 'rainfall', 125, now)]);
    expect((await alarmsOf('QJ-RAIN-01', 'rainfall'))[0]).toMatchObject({ alarmLevel: 2, alarmType: 3, limitValue: 20 });
  });

  it('puts the alarm in the notice centre and on the socket of a recipient, with the reading time', async () => {
    const staff = await staffUser(ctx.server, DEMO, 'duty_a');
    const recipient = await submit(ctx.demo, 'alarmrecipient', { name: '值班A', userId: staff.userId, channels: 'notice' });
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '值班', recipientIds: recipient.id, channels: 'notice,email', levels: '1,2', projectIds: BRIDGE }));
    expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-HLS-02'), pointKey: 'settlement', level1Upper: 40, level2Upper: 30 }));

    const socket = connect(ctx.server.url, { auth: { token: staff.client.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const pushed = new Promise<Row>((resolve) => socket.once('alarm', resolve));
    const ts = tick();
    await emit(ctx.server, [reading('QJ-HLS-02', 'settlement', 35, ts)]);
    const [alarm] = await alarmsOf('QJ-HLS-02', 'settlement');
    const payload = await pushed;
    expect(payload).toMatchObject({ alarmId: alarm.id, alarmLevel: 2, levelName: '橙色', ts, deviceCode: 'QJ-HLS-02', pointKey: 'settlement', value: 35, href: `/xinde/alarm?id=${alarm.id}`, noticeId: expect.any(String) });

    const info = expectOk(await staff.client.get<NoticeInfo>(`${X}/alarm/getNoticeInfo`));
    expect(info.alarmNotices[0]).toMatchObject({ id: alarm.id, alarmLevel: 2, alarmType: 2, href: `/xinde/alarm?id=${alarm.id}`, title: alarm.title, category: 8 });
    expect(info.alarmNum).toBe(info.alarmNotices.length);
    expect(info.alarmNum).toBeGreaterThanOrEqual(4);
    expect(info.stationNotices).toContainEqual(expect.objectContaining({ id: payload.noticeId, category: 8, readFlag: 0, title: alarm.title }));
    // The recipient accepts only in-app notices: the strategy's e-mail is not planned for them.
    await ctx.server.app.alarms.idle();
    expect((await sendLogs(alarm.id)).filter((s) => s.userId === staff.userId).map((s) => s.channel)).toEqual(['notice']);
  });

  it('sends e-mail through the tenant SMTP server, SMS through the SMS provider, and posts to the webhook', async () => {
    const smtp = await startSmtp();
    const receiver = await startReceiver();
    const smsGateway = await startReceiver();
    try {
      const sms = expectOk(await ctx.demo.post<Row>('/api/blade-resource/sms/submit', { category: 1, smsCode: 'alarm-sms', templateId: 'ALARM_01', endpoint: smsGateway.url, signName: 'Vigil' }));
      expectOk(await postParams(ctx.demo, '/api/blade-resource/sms/enable', { id: sms.id }));
      await set('alarm.smtp.host', '127.0.0.1');
      await set('alarm.smtp.port', String(smtp.port));
      await set('alarm.smtp.secure', 'false');
      await set('alarm.smtp.from', 'vigil@example.com');
      const owner = await submit(ctx.demo, 'alarmrecipient', { name: '业主代表', email: 'owner@example.com', phone: '13800138000', webhookUrl: receiver.url, channels: 'email,webhook,sms' });
      expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '业主', recipientIds: owner.id, channels: 'email,webhook,sms', levels: '1,2', projectIds: BRIDGE }));
      expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-TH-01'), pointKey: 'temperature', level2Upper: 50, level4Upper: 40 }));

      const ts = tick();
      await emit(ctx.server, [reading('QJ-TH-01', 'temperature', 55, ts)]);
      const [alarm] = await alarmsOf('QJ-TH-01', 'temperature');
      await until(() => smtp.mails.length > 0 && receiver.bodies.length > 0 && smsGateway.bodies.length > 0, 10_000, 'mail, webhook and SMS');
      expect(smtp.mails[0].to).toBe('owner@example.com');
      expect(decodeHeader(smtp.mails[0].raw, 'Subject')).toBe(alarm.title);
      expect(decodeHeader(smtp.mails[0].raw, 'Subject')).toContain('橙色告警');
      expect(smtp.mails[0].raw).toMatch(/^From: vigil@example\.com\r?$/m);
      expect(receiver.types).toEqual(['application/json']);
      // The whole payload, as docs/alarms.md "Channels" gives it.
      expect(receiver.bodies).toEqual([
        {
          event: 'alarm',
          alarm: {
            alarmId: alarm.id,
            tenantId: DEMO,
            projectId: BRIDGE,
            deviceId: demoId('device:QJ-TH-01'),
            deviceCode: 'QJ-TH-01',
            pointKey: 'temperature',
            alarmLevel: 2,
            levelName: '橙色',
            // Above its upper limit (ALARM_TYPE.upper).
            alarmType: 1,
            alarmState: 1,
            title: alarm.title,
            content: alarm.content,
            value: 55,
            limitValue: 50,
            unit: '℃',
            ts,
            time: alarm.levelTime,
            revision: 1,
            round: 0,
            href: `/xinde/alarm?id=${alarm.id}`,
          },
        },
      ]);
      expect(smsGateway.bodies).toEqual([
        expect.objectContaining({ templateId: 'ALARM_01', signName: 'Vigil', phones: ['13800138000'], params: expect.objectContaining({ title: alarm.title, level: '橙色', device: 'QJ-TH-01', value: 55 }) }),
      ]);
      await ctx.server.app.alarms.idle();
      const logs = (await sendLogs(alarm.id)).filter((s) => s.recipientId === owner.id);
      expect(logs.map((s) => [s.channel, s.success, s.target, s.attempt]).sort()).toEqual([
        ['email', 1, 'owner@example.com', 1],
        ['sms', 1, '13800138000', 1],
        ['webhook', 1, receiver.url, 1],
      ]);
      // What the SMTP server answered the message with.
      expect(logs.find((s) => s.channel === 'email')?.detail).toMatch(/^250 /);
    } finally {
      await smtp.close();
      await receiver.close();
      await smsGateway.close();
    }
  });

  it('logs every failed attempt of a dead SMTP server, retries with backoff, and keeps judging readings meanwhile', async () => {
    const silent = await startSilentServer();
    ctx.server.app.alarms.notifier.channels.timeoutMs = 1_500;
    try {
      await set('alarm.smtp.port', String(silent.port));
      const supervisor = await submit(ctx.demo, 'alarmrecipient', { name: '监理', email: 'supervisor@example.com', channels: 'email' });
      expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '监理', recipientIds: supervisor.id, channels: 'email', levels: '3' }));
      expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-TH-01'), pointKey: 'humidity', level3Upper: 90 }));

      await emit(ctx.server, [reading('QJ-TH-01', 'humidity', 95, tick())]);
      const [alarm] = await alarmsOf('QJ-TH-01', 'humidity');
      const db = ctx.server.app.platform.db;
      const delivery = () => db.selectFrom('wit_alarm_delivery').selectAll().where('alarmId', '=', alarm.id).where('channel', '=', 'email').executeTakeFirst();
      await until(async () => Number((await delivery())?.state) === 4, 5_000, 'the e-mail to be under way');

      // The SMTP server hangs; readings are still judged at once.
      await emit(ctx.server, [reading('QJ-CRACK-01', 'crack', 1.2, tick())]);
      expect((await alarmsOf('QJ-CRACK-01', 'crack'))[0]).toMatchObject({ alarmLevel: 3, alarmState: 1 });
      expect(Number((await delivery())?.state)).toBe(4);

      await until(async () => Number((await delivery())?.state) === 2, 15_000, 'the e-mail to be given up');
      const failed = (await sendLogs(alarm.id)).filter((s) => s.recipientId === supervisor.id);
      expect(failed.map((s) => [s.channel, s.success, s.attempt, s.target])).toEqual([
        ['email', 0, 1, 'supervisor@example.com'],
        ['email', 0, 2, 'supervisor@example.com'],
        ['email', 0, 3, 'supervisor@example.com'],
      ]);
      expect(String(failed[0].detail)).toMatch(/timeout|Greeting/i);
      expect(await delivery()).toMatchObject({ attempts: 3, lastError: expect.any(String) });
    } finally {
      await silent.close();
    }
  });

  it('handles alarms in a batch with who, when and the result; a worse level needs handling again', async () => {
    const [hls] = await alarmsOf('QJ-HLS-02', 'settlement');
    const [th] = await alarmsOf('QJ-TH-01', 'temperature');
    const before = expectOk(await ctx.demo.get<NoticeInfo>(`${X}/alarm/getNoticeInfo`)).alarmNum;
    expectRefused(await ctx.demo.post(`${X}/alarm/batchHandle`, { ids: `${hls.id},${th.id}` }), '请输入处理结果');
    expectRefused(await ctx.demo.post(`${X}/alarm/batchHandle`, { handleResult: '已处理' }), '缺少必要的请求参数: ids');

    const elsewhere = await submit(ctx.demo, 'project', { name: '另一项目', code: 'ALARM-OTHER' });
    const limited = await staffUser(ctx.server, DEMO, 'duty_b');
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: limited.userId, projectIds: elsewhere.id }));
    expectRefused(await limited.client.post(`${X}/alarm/batchHandle`, { ids: hls.id, handleResult: '越权' }), '数据不存在或无权操作');

    expectOk(await postParams(ctx.demo, `${X}/alarm/batchHandle`, { ids: `${hls.id},${th.id}`, handleResult: '已现场复核,支架已加固' }));
    const handled = expectOk(await ctx.demo.get<Row>(`${X}/alarm/detail`, { id: hls.id }));
    expect(handled).toMatchObject({ handleState: 1, handleUser: adminId, handleResult: '已现场复核,支架已加固', handleTime: expect.any(String), handleUserName: expect.any(String), alarmState: 1 });
    const log = expectOk(await ctx.demo.get<PageData>(`${X}/alarmlog/list`, { alarmId: hls.id, action: 5 })).records;
    expect(log).toHaveLength(1);
    expect(expectOk(await ctx.demo.get<NoticeInfo>(`${X}/alarm/getNoticeInfo`)).alarmNum).toBe(before - 2);

    await emit(ctx.server, [reading('QJ-HLS-02', 'settlement', 45, tick())]);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/alarm/detail`, { id: hls.id }))).toMatchObject({ alarmLevel: 1, handleState: 0 });
  });

  it('records manual alarms, and an update changes only the remark', async () => {
    const manual = await submit(ctx.demo, 'alarm', { deviceId: demoId('device:QJ-GNSS-01'), pointKey: 'dz', alarmLevel: 2, content: '巡检发现桥面裂缝' });
    expect(manual).toMatchObject({ source: 2, alarmType: 4, alarmLevel: 2, projectId: BRIDGE, deviceCode: 'QJ-GNSS-01', alarmState: 1 });
    const changed = expectOk(await ctx.demo.post<Row>(`${X}/alarm/update`, { id: manual.id, alarmLevel: 1, alarmState: 2, remark: '已通知养护单位' }));
    expect(changed).toMatchObject({ alarmLevel: 2, alarmState: 1, remark: '已通知养护单位' });
    expectRefused(await ctx.demo.post(`${X}/alarm/submit`, { deviceId: demoId('device:QJ-GNSS-01'), pointKey: 'nothing', alarmLevel: 2 }), '设备没有该点位');
    expectRefused(await ctx.demo.post(`${X}/alarm/submit`, { deviceId: demoId('device:QJ-GNSS-01'), alarmLevel: 7 }), '告警等级应为');
  });

  it('turns the console alarm sound off and on per user', async () => {
    const staff = await staffUser(ctx.server, DEMO, 'duty_c');
    expect(expectOk(await staff.client.get<{ sound: number }>(`${X}/alarmrecipient/sound`)).sound).toBe(1);
    expect(expectOk(await staff.client.post(`${X}/alarmrecipient/soundPperation`, { sound: 0 }))).toEqual({ sound: 0 });
    expect(expectOk(await staff.client.get<{ sound: number }>(`${X}/alarmrecipient/sound`)).sound).toBe(0);
    expect(expectOk(await staff.client.get<NoticeInfo>(`${X}/alarm/getNoticeInfo`)).sound).toBe(0);
    const mine = expectOk(await ctx.demo.get<Row[]>(`${X}/alarmrecipient/selectList`, { userId: staff.userId }));
    expect(mine).toEqual([expect.objectContaining({ userId: staff.userId, sound: 0, channels: 'notice' })]);
    expect(expectOk(await ctx.demo.post(`${X}/alarmrecipient/soundPperation`, { id: mine[0].id, sound: 1 }))).toEqual({ sound: 1 });
    expect(expectOk(await staff.client.get<{ sound: number }>(`${X}/alarmrecipient/sound`)).sound).toBe(1);
    expectRefused(await ctx.demo.post(`${X}/alarmrecipient/soundPperation`, { id: '42', sound: 0 }), '数据不存在或无权操作');
    expectRefused(await staff.client.post(`${X}/alarmrecipient/soundPperation`, { sound: 3 }), '声音开关应为 0 或 1');
    expectRefused(await staff.client.post(`${X}/alarmrecipient/soundPperation`, {}), '缺少必要的请求参数: sound');
  });

  it('checks recipients and strategies', async () => {
    expectRefused(await ctx.demo.post(`${X}/alarmrecipient/submit`, { name: '错号', phone: '12345' }), '手机号码长度不为11位');
    expectRefused(await ctx.demo.post(`${X}/alarmrecipient/submit`, { name: '错邮箱', email: 'nobody' }), '邮箱格式不正确');
    expectRefused(await ctx.demo.post(`${X}/alarmrecipient/submit`, { name: '错渠道', channels: 'pigeon' }), '通知方式应为');
    expectRefused(await ctx.demo.post(`${X}/alarmrecipient/submit`, { name: '无此人', userId: '123' }), '用户不存在');
    expectRefused(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '无人', channels: 'notice' }), '请选择告警接收人');
    expectRefused(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '假人', recipientIds: '123', channels: 'notice' }), '告警接收人不存在');
    expectRefused(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '半窗', userIds: adminId, channels: 'notice', silenceStart: '22:00' }), '请同时设置静默开始和结束时间');
    expectRefused(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '坏时', userIds: adminId, channels: 'notice', silenceStart: '25:00', silenceEnd: '07:00' }), '时间格式应为 HH:mm');
    expectRefused(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '坏级', userIds: adminId, channels: 'notice', levels: '0' }), '告警等级应为 1 到 4');
  });

  it('answers the alarm statistics of the home page', async () => {
    const all = expectOk(await ctx.demo.get<PageData>(`${X}/alarm/list`, { size: 500 })).records;
    const stats = expectOk(await ctx.demo.get<Row & { levels: Row[]; trend: Row[] }>(`${X}/index/getAlarmInfoData`));
    expect(stats.total).toBe(all.length);
    expect(stats.open).toBe(all.filter((a) => a.alarmState === 1).length);
    expect(stats.cleared).toBe(all.filter((a) => a.alarmState === 2).length);
    expect(stats.unhandled).toBe(all.filter((a) => a.handleState === 0).length);
    expect(stats.handled).toBe(1);
    expect(stats.levels).toEqual([1, 2, 3, 4].map((level) => ({ level, name: expect.any(String), count: all.filter((a) => a.alarmState === 1 && a.alarmLevel === level).length })));
    expect(stats.trend).toHaveLength(7);
    expect(stats.trend[6]).toMatchObject({ total: all.length });
    const other = await signedIn(ctx.server.url);
    expect(expectOk(await other.get<Row>(`${X}/index/getAlarmInfoData`)).total).toBe(0);
  });

  it('reminds while an alarm stays open and unhandled, once per round', async () => {
    const staff = await staffUser(ctx.server, DEMO, 'duty_r');
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '每分钟提醒', userIds: staff.userId, channels: 'notice', levels: '2', repeatInterval: 1 }));
    expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-TILT-02'), pointKey: 'tilt_y', level2Upper: 0.5 }));
    await emit(ctx.server, [reading('QJ-TILT-02', 'tilt_y', 0.8, tick())]);
    const [alarm] = await alarmsOf('QJ-TILT-02', 'tilt_y');
    const db = ctx.server.app.platform.db;
    const notifier = ctx.server.app.alarms.notifier;
    const rounds = async () => (await sendLogs(alarm.id)).filter((s) => s.userId === staff.userId).map((s) => Number(s.round)).sort();

    // Two and a half intervals after the level changed (the scan missed round 1, say while the server was down):
    // only the latest round goes out, planned once however often asked.
    await db.updateTable('wit_alarm').set({ levelAt: Date.now() - 150_000 }).where('id', '=', alarm.id).execute();
    await notifier.planReminders();
    await notifier.planReminders();
    await ctx.server.app.alarms.idle();
    expect(await rounds()).toEqual([0, 2]);
    const titles = expectOk(await staff.client.get<PageData>('/api/blade-desk/notice/list', { size: 20 })).records.map((n) => n.title);
    expect(titles).toContain(`[第2次提醒] ${alarm.title}`);

    // Handled: no more reminders.
    expectOk(await postParams(ctx.demo, `${X}/alarm/batchHandle`, { ids: alarm.id, handleResult: '已知悉,持续观察' }));
    await db.updateTable('wit_alarm').set({ levelAt: Date.now() - 250_000 }).where('id', '=', alarm.id).execute();
    await notifier.planReminders();
    await ctx.server.app.alarms.idle();
    expect(await rounds()).toEqual([0, 2]);
  });
});
