import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SMTP_PARAMS } from '../../../server/alarms/channels';
import type { RetryPolicy } from '../../../server/alarms/notifier';
import { Secrets } from '../../../server/auth/secrets';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { figure, scrape } from '../ops/support';
import { until } from '../../support/wait';
import { DEMO, demoId, staffUser, submit, X } from '../monitoring/support';
import { alarmMessage, BRIDGE, deliveriesSettled, emit, reading, setParam, startReceiver, startSmtp } from './support';

/**
 * What each channel does with one person (docs/alarms.md "Channels"): a person without the channel's address, or a
 * tenant without its configuration, is given up at once with the reason; a webhook's refusal is retried and given
 * up; what a notice, a mail and a webhook's answer say.
 */

/** A mail's text part, decoded (nodemailer writes Chinese text as quoted-printable or base64). */
function mailText(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  // The message's last line break belongs to SMTP's end of data, not to the text.
  const body = rest.join('\n\n').replace(/\r?\n$/, '');
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
}

/** OpenSSL's refusal of a plain SMTP server's greeting read as a TLS record (`wrong version number`). */
const TLS_REFUSED = /SSL routines/;

onEveryStore('alarm channels', { signIn: ['demo'] }, (ctx) => {
  const closers: Array<() => Promise<void>> = [];
  /** The mail server the tests from the mail's words on are configured with. */
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t = Date.now() - 600_000;
  const tick = () => (t += 1000);
  /** The retry policy the server started with, before the suite's quick one. */
  let started: RetryPolicy;
  beforeAll(() => {
    started = ctx.server.app.alarms.notifier.retry;
    ctx.server.app.alarms.notifier.retry = { attempts: 3, backoffMs: 50 };
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  /** Raises an alarm on a demo device channel past `limit` at `level`, for a strategy telling `told` on `channels`. */
  const raise = async (code: string, pointKey: string, level: number, told: Record<string, string>, channels: string) => {
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: `${code} ${pointKey}`, ...told, channels, levels: String(level), projectIds: BRIDGE }));
    expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId(`device:${code}`), pointKey, [`level${level}Upper`]: 10 }));
    await emit(ctx.server, [reading(code, pointKey, 20, tick())]);
    const [alarm] = expectOk(await ctx.demo.get<PageData>(`${X}/alarm/list`, { deviceId: demoId(`device:${code}`), pointKey_equal: pointKey })).records;
    expect(alarm).toMatchObject({ alarmLevel: level, alarmState: 1 });
    return alarm;
  };
  const sendLogs = async (alarmId: string) => expectOk(await ctx.demo.get<PageData>(`${X}/alarmsendlog/list`, { alarmId, size: 100, ascs: 'attempt' })).records;
  const deliveries = (alarmId: string) =>
    ctx.server.app.platform.db.selectFrom('wit_alarm_delivery').select(['recipientId', 'channel', 'state', 'attempts', 'lastError']).where('alarmId', '=', alarmId).execute();

  it('gives a channel up at once, with the reason, when the person has no address for it or the tenant no configuration', async () => {
    // The demo tenant has no SMTP server (alarm.smtp.host) and no enabled SMS configuration.
    const bare = await submit(ctx.demo, 'alarmrecipient', { name: '无地址' });
    const addressed = await submit(ctx.demo, 'alarmrecipient', { name: '有地址', email: 'site@example.com', phone: '13800138001', channels: 'email,sms' });
    const alarm = await raise('QJ-TH-01', 'temperature', 3, { recipientIds: `${bare.id},${addressed.id}` }, 'notice,email,sms,webhook');
    await deliveriesSettled(ctx.server, alarm.id, 6);

    const logs = await sendLogs(alarm.id);
    const of = (recipient: Row) =>
      logs
        .filter((l) => l.recipientId === recipient.id)
        .map((l) => [l.channel, l.attempt, l.success, l.target, l.detail])
        .sort();
    expect(of(bare)).toEqual([
      ['email', 1, 0, null, '接收人未设置邮箱'],
      ['notice', 1, 0, null, '接收人未关联平台用户'],
      ['sms', 1, 0, null, '接收人未设置手机号码'],
      ['webhook', 1, 0, null, '接收人未设置 Webhook 地址'],
    ]);
    expect(of(addressed)).toEqual([
      ['email', 1, 0, 'site@example.com', '未配置邮件服务器(参数 alarm.smtp.host)'],
      ['sms', 1, 0, '13800138001', '未启用短信配置'],
    ]);
    // Given up, not waiting for a retry that could not help.
    for (const delivery of await deliveries(alarm.id)) expect(delivery).toMatchObject({ state: 2, attempts: 1, lastError: expect.any(String) });
  });

  it('retries a webhook that answers an error, in its status and words, and keeps the start of a good answer', async () => {
    const words = `网关故障 ${'x'.repeat(300)}`;
    const failing = await startReceiver({ status: 502, body: words });
    const long = `{"ok":true,"echo":"${'y'.repeat(600)}"}`;
    const answering = await startReceiver({ status: 200, body: long });
    closers.push(failing.close, answering.close);
    const down = await submit(ctx.demo, 'alarmrecipient', { name: '坏网关', webhookUrl: failing.url, channels: 'webhook' });
    const up = await submit(ctx.demo, 'alarmrecipient', { name: '好网关', webhookUrl: answering.url, channels: 'webhook' });
    const alarm = await raise('QJ-TH-01', 'humidity', 2, { recipientIds: `${down.id},${up.id}` }, 'webhook');
    await deliveriesSettled(ctx.server, alarm.id, 2);

    const logs = await sendLogs(alarm.id);
    const refused = `Webhook 返回 502: ${words.slice(0, 200)}`;
    expect(logs.filter((l) => l.recipientId === down.id).map((l) => [l.attempt, l.success, l.target, l.detail])).toEqual([
      [1, 0, failing.url, refused],
      [2, 0, failing.url, refused],
      [3, 0, failing.url, refused],
    ]);
    expect(failing.bodies).toHaveLength(3);
    expect(logs.filter((l) => l.recipientId === up.id).map((l) => [l.attempt, l.success, l.detail])).toEqual([[1, 1, `200 ${long.slice(0, 500)}`]]);
    expect(answering.bodies).toEqual([{ event: 'alarm', alarm: expect.objectContaining({ alarmId: alarm.id, alarmLevel: 2, round: 0, revision: 1 }) }]);
    const byRecipient = new Map((await deliveries(alarm.id)).map((d) => [d.recipientId, d]));
    expect(byRecipient.get(down.id)).toMatchObject({ state: 2, attempts: 3, lastError: refused });
    expect(byRecipient.get(up.id)).toMatchObject({ state: 1, attempts: 1, lastError: null });
  });

  it('retries after 5 s, then four times longer each time, and gives up after the fourth attempt', async () => {
    const failing = await startReceiver({ status: 503, body: '繁忙' });
    closers.push(failing.close);
    const notifier = ctx.server.app.alarms.notifier;
    const db = ctx.server.app.platform.db;
    // The policy a server starts with (docs/alarms.md), not this suite's quick one.
    const quick = notifier.retry;
    notifier.retry = started;
    const backoffMs = 5_000;
    try {
      const busy = await submit(ctx.demo, 'alarmrecipient', { name: '忙网关', webhookUrl: failing.url, channels: 'webhook' });
      const delivery = () => db.selectFrom('wit_alarm_delivery').select(['id', 'state', 'attempts', 'dueAt']).where('recipientId', '=', busy.id).executeTakeFirstOrThrow();
      /** Sets off attempt n, waits for its end, and checks the next is due `wait` after it (the clock read around it). */
      const attempt = async (n: number, setOff: () => Promise<unknown>, wait: number) => {
        const before = Date.now();
        await setOff();
        const row = await until(async () => {
          const d = await delivery();
          return Number(d.attempts) === n && Number(d.state) !== 4 && d;
        }, 10_000, `attempt ${n} to end`);
        if (wait > 0) {
          expect(Number(row.state)).toBe(0);
          expect(Number(row.dueAt)).toBeGreaterThanOrEqual(before + wait);
          expect(Number(row.dueAt)).toBeLessThanOrEqual(Date.now() + wait);
        }
        return Number(row.state);
      };
      /** Makes the retry due now and wakes the sender. */
      const due = async () => {
        await db.updateTable('wit_alarm_delivery').set({ dueAt: Date.now() - 1 }).where('recipientId', '=', busy.id).execute();
        notifier.kick();
      };

      // The earlier tests' strategies end, so that the counts below are this delivery's alone.
      const earlier = expectOk(await ctx.demo.get<PageData>(`${X}/alarmnoticestrategy/list`, { size: 100 })).records.map((r) => r.id);
      expectOk(await ctx.demo.request('POST', `${X}/alarmnoticestrategy/remove`, { query: { ids: earlier.join(',') } }));
      const counted = async () => {
        const { text } = await scrape(ctx.server.url, ctx.server.app.platform.config.metricsToken);
        return (['sent', 'retry', 'failed'] as const).map((outcome) => figure(text, 'vigil_notifications_total', { channel: 'webhook', outcome }));
      };
      const before = await counted();
      await attempt(1, () => raise('QJ-TILT-01', 'tilt_x', 2, { recipientIds: busy.id }, 'webhook'), backoffMs);
      await attempt(2, due, 4 * backoffMs);
      await attempt(3, due, 16 * backoffMs);
      // The last attempt gives up: the delivery has failed.
      expect(await attempt(4, due, 0)).toBe(2);
      expect(failing.bodies).toHaveLength(4);
      // Counted as operators see them: three retries, then one failure.
      expect((await counted()).map((n, i) => n - before[i])).toEqual([0, 3, 1]);
    } finally {
      notifier.retry = quick;
    }
  });

  it('puts the alarm’s words in the notice as text with a link to it, and mails them with the time and the link', async () => {
    smtp = await startSmtp();
    closers.push(smtp.close);
    for (const [key, value] of [
      ['alarm.smtp.host', '127.0.0.1'],
      ['alarm.smtp.port', String(smtp.port)],
    ]) {
      expectOk(await ctx.demo.post('/api/blade-system/param/submit', { paramName: key, paramKey: key, paramValue: value }));
    }
    // A device named with markup: it reaches the alarm's words, and must reach the notice as text.
    const name = `裂缝计 <b>"A&B"</b> '1'`;
    await ctx.server.app.platform.db.updateTable('wit_device').set({ name }).where('id', '=', demoId('device:QJ-CRACK-01')).execute();
    const staff = await staffUser(ctx.server, DEMO, 'channel_duty');
    const person = await submit(ctx.demo, 'alarmrecipient', { name: '值班', userId: staff.userId, email: 'duty@example.com', channels: 'notice,email' });
    const alarm = await raise('QJ-CRACK-01', 'crack', 1, { recipientIds: person.id }, 'notice,email');
    expect(alarm.content).toContain(name);
    await deliveriesSettled(ctx.server, alarm.id, 2);

    const logs = await sendLogs(alarm.id);
    const notice = logs.find((l) => l.channel === 'notice');
    expect(notice).toMatchObject({ success: 1, target: `user:${staff.userId}`, detail: expect.stringMatching(/^通知 \d+$/) });
    const noticeId = String(notice?.detail).slice('通知 '.length);
    const stored = await ctx.server.app.platform.db.selectFrom('blade_notice').select(['title', 'content', 'category']).where('id', '=', noticeId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ title: alarm.title, category: 8 });
    // Addressed to the person: in their notices, and in no one else's (a notice naming nobody is everybody's).
    const titles = async (client: typeof staff.client) => expectOk(await client.get<PageData>('/api/blade-desk/notice/list', { size: 50 })).records.map((n) => n.id);
    expect(await titles(staff.client)).toContain(noticeId);
    expect(await titles((await staffUser(ctx.server, DEMO, 'channel_other')).client)).not.toContain(noticeId);
    const content = String(stored.content);
    expect(content).not.toContain('<b>');
    const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    const text = content
      .replace(/<[^>]+>/g, '')
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
      .replace(/&(\w+);/g, (whole, entity: string) => entities[entity] ?? whole);
    expect(text).toBe(`${alarm.content}查看告警`);
    expect(content).toContain(`<a href="#/xinde/alarm?id=${alarm.id}"`);

    // Without alarm.smtp.from or a user, the sender is vigil@ the SMTP host.
    expect(smtp.mails.map((m) => m.to)).toEqual(['duty@example.com']);
    const [mail] = smtp.mails;
    expect(mail.raw).toMatch(/^From: vigil@127\.0\.0\.1\r?$/m);
    expect(mailText(mail.raw)).toBe(`${alarm.content}\n\n时间: ${alarm.levelTime}\n链接: /xinde/alarm?id=${alarm.id}`);
    expect(logs.find((l) => l.channel === 'email')).toMatchObject({ success: 1, target: 'duty@example.com', attempt: 1 });
  });

  it('mails a user at their own address when their recipient entry leaves it blank, and names a user without a real name by their name', async () => {
    // The mail server set up in the test before.
    const db = ctx.server.app.platform.db;
    const [entryUser, direct] = [await staffUser(ctx.server, DEMO, 'blank_entry'), await staffUser(ctx.server, DEMO, 'no_real_name')];
    await db.updateTable('blade_user').set({ email: 'own@example.com' }).where('id', '=', entryUser.userId).execute();
    await db.updateTable('blade_user').set({ email: 'direct@example.com', realName: null, name: '值班丙' }).where('id', '=', direct.userId).execute();
    const entry = await submit(ctx.demo, 'alarmrecipient', { name: '值班乙', userId: entryUser.userId, email: '', phone: '', channels: 'email' });
    // Blue: no strategy of the tests before tells anyone of it.
    const alarm = await raise('QJ-TILT-02', 'tilt_y', 4, { recipientIds: entry.id, userIds: direct.userId }, 'email');
    await deliveriesSettled(ctx.server, alarm.id, 2);
    const logs = (await sendLogs(alarm.id)).map((l) => [l.recipientName, l.target, l.success]).sort();
    expect(logs).toEqual([
      ['值班丙', 'direct@example.com', 1],
      ['值班乙', 'own@example.com', 1],
    ]);
    // Nor does this one of the tests after.
    const [strategy] = expectOk(await ctx.demo.get<PageData>(`${X}/alarmnoticestrategy/list`, { name: 'QJ-TILT-02 tilt_y' })).records;
    expect(strategy.name).toBe('QJ-TILT-02 tilt_y');
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/remove`, undefined, { ids: String(strategy.id) }));
  });

  it('mails over TLS when alarm.smtp.secure says so, in any case and spacing, and in plain SMTP otherwise', async () => {
    // The mail server set up above speaks plain SMTP: a client that opens with a TLS handshake fails there at once.
    const person = { key: 'r:tls', recipientId: null, userId: null, name: '传输', email: 'tls@example.com' };
    const mailWith = async (secure: string) => {
      expectOk(await setParam(ctx.demo, SMTP_PARAMS.secure, secure));
      return ctx.server.app.alarms.notifier.channels.send('email', person, alarmMessage(DEMO)).then(
        () => 'sent',
        (error: Error) => error.message,
      );
    };
    const before = smtp.mails.length;
    for (const secure of ['false', '0', 'no', 'off']) expect(await mailWith(secure), secure).toBe('sent');
    expect(smtp.mails.length - before).toBe(4);
    for (const secure of [' YES ', 'True', '1']) expect(await mailWith(secure), secure).toMatch(TLS_REFUSED);
    expect(smtp.mails.length - before).toBe(4);
    expectOk(await setParam(ctx.demo, SMTP_PARAMS.secure, 'false'));
  });

  it('gives an e-mail up at once when the stored SMTP password opens under no configured key', async () => {
    // The mail server set up above, and a password sealed under a key this server does not have.
    const sealed = new Secrets([randomBytes(32)]).seal('smtp-secret');
    expectOk(await ctx.demo.post('/api/blade-system/param/submit', { paramName: 'SMTP 密码', paramKey: SMTP_PARAMS.password, paramValue: 'placeholder' }));
    await ctx.server.app.platform.db.updateTable('blade_param').set({ paramValue: sealed }).where('tenantId', '=', DEMO).where('paramKey', '=', SMTP_PARAMS.password).execute();
    const person = await submit(ctx.demo, 'alarmrecipient', { name: '监理', email: 'supervisor@example.com', channels: 'email' });
    const alarm = await raise('QJ-HLS-02', 'settlement', 4, { recipientIds: person.id }, 'email');
    await deliveriesSettled(ctx.server, alarm.id, 1);
    expect((await sendLogs(alarm.id)).map((l) => [l.attempt, l.success, l.target, l.detail])).toEqual([
      [1, 0, 'supervisor@example.com', '已保存的密钥无法解密(SECRETS_KEY 可能已更换),请重新填写'],
    ]);
  });
});
