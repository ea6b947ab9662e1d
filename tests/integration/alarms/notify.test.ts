import { afterEach, expect, it } from 'vitest';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { failWrites, loggedErrors, takeLoggedErrors } from '../../support/failures';
import { createStaff, type Staff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';
import { figure, scrape } from '../ops/support';
import { until } from '../../support/wait';
import { DEMO, demoId, submit, X } from '../monitoring/support';
import { BRIDGE, deliveriesSettled, emit, reading, startReceiver } from './support';

/**
 * Who is told about an alarm, and when (server/alarms/notifier.ts `plan`): a person named several ways — by two
 * strategies, or as a recipient tied to a user and as that user — gets one message per channel and round; a strategy's
 * silence window holds its messages until the window ends, except for the levels it lists in silenceExceptLevels,
 * and a person named by a held and an excepted strategy is told at once. A held message goes to the person as they
 * are when it is sent; reminders follow each strategy's interval (docs/alarms.md "Reminders").
 */

const MINUTE = 60_000;
/** `HH:mm` of a time, as strategies keep their silence windows (server time zone, the test process's). */
const clock = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

// Reminders are looked for every 0.2 s, not every 30 s: a test sees the server plan them by itself.
onEveryStore('who is told about an alarm, and when', { signIn: ['demo'], config: { reminderCheckMs: 200 } }, (ctx) => {
  const strategies: string[] = [];
  let t = Date.now() - 3_600_000;
  const tick = () => (t += 1000);

  const db = () => ctx.server.app.platform.db;
  const strategy = async (body: Record<string, unknown>) => {
    const row = await submit(ctx.demo, 'alarmnoticestrategy', { channels: 'notice', ...body });
    strategies.push(row.id);
    return row;
  };
  const staff = (account: string): Promise<Staff> => createStaff(ctx.server, DEMO, account);
  /** Raises a level-4 alarm on a demo channel and returns it. */
  const raise = async (code: string, pointKey: string) => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId(`device:${code}`), pointKey, level1Upper: 1000, level4Upper: 10 });
    await emit(ctx.server, [reading(code, pointKey, 50, tick())]);
    const alarm = await db().selectFrom('wit_alarm').selectAll().where('deviceId', '=', demoId(`device:${code}`)).where('pointKey', '=', pointKey).executeTakeFirstOrThrow();
    expect(alarm.alarmLevel).toBe(4);
    return alarm as Row;
  };
  const deliveries = (alarmId: string) => db().selectFrom('wit_alarm_delivery').selectAll().where('alarmId', '=', alarmId).orderBy('personKey').execute();
  /** Who was told of an alarm in which round, as `userId|round`. */
  const told = async (alarmId: string) =>
    (await db().selectFrom('wit_alarm_send_log').select(['userId', 'round']).where('alarmId', '=', alarmId).execute()).map((s) => `${s.userId}|${s.round}`).sort();
  const sentTo = async (alarmId: string) =>
    (await db().selectFrom('wit_alarm_send_log').select(['userId', 'channel', 'success']).where('alarmId', '=', alarmId).execute()).map((s) => `${s.userId}|${s.channel}|${s.success}`).sort();

  afterEach(async () => {
    // Each test's strategies stop, so the next test's alarms reach only the people it names.
    for (const id of strategies.splice(0)) await ctx.demo.request('POST', `${X}/alarmnoticestrategy/remove`, { query: { ids: id } });
    // Planning and sending log what fails unexpectedly: no test here leaves such a failure behind.
    expect(await loggedErrors(ctx.server, 'alarm')).toEqual([]);
  });

  it('tells a person named by two strategies, and as a recipient and as its user, once per channel', async () => {
    const [duty, other] = [await staff('notify_duty'), await staff('notify_other')];
    const recipient = await submit(ctx.demo, 'alarmrecipient', { name: '值班', userId: duty.userId, channels: 'notice' });
    await strategy({ name: '接收人', recipientIds: recipient.id });
    await strategy({ name: '用户', userIds: `${duty.userId},${other.userId}` });
    await strategy({ name: '两者', recipientIds: recipient.id, userIds: duty.userId });

    const alarm = await raise('QJ-TH-01', 'temperature');
    const sent = await until(async () => {
      const logs = await sentTo(alarm.id);
      return logs.length >= 2 && logs;
    }, 10_000, 'the messages sent');
    await ctx.server.app.alarms.notifier.idle();
    expect(await sentTo(alarm.id)).toEqual([`${duty.userId}|notice|1`, `${other.userId}|notice|1`].sort());
    expect(sent).toHaveLength(2);
    expect((await deliveries(alarm.id)).map((d) => [d.personKey, d.channel, d.round])).toEqual(
      [[`u:${duty.userId}`, 'notice', 0], [`u:${other.userId}`, 'notice', 0]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('holds a silenced strategy’s messages until the window ends, and sends excepted levels at once', async () => {
    const [held, excepted, both, after] = [await staff('notify_held'), await staff('notify_excepted'), await staff('notify_both'), await staff('notify_after')];
    const now = Date.now();
    const window = { silenceStart: clock(now - 60 * MINUTE), silenceEnd: clock(now + 60 * MINUTE) };
    // The window ends at the minute its end clock names: an hour from now, to the minute.
    const end = Math.floor((now + 60 * MINUTE) / MINUTE) * MINUTE;
    // Whichever strategy was made first, a person it holds and another sends at once is told at once: `both` is named
    // by an excepted strategy and a held one after it, `after` by the held one and an excepted one after it.
    await strategy({ name: '静默(蓝色例外)', userIds: `${excepted.userId},${both.userId}`, ...window, silenceExceptLevels: '3,4' });
    await strategy({ name: '静默(红色例外)', userIds: `${held.userId},${both.userId},${after.userId}`, ...window, silenceExceptLevels: '1' });
    await strategy({ name: '静默(黄蓝例外)', userIds: after.userId, ...window, silenceExceptLevels: '3,4' });

    const alarm = await raise('QJ-HLS-02', 'settlement');
    // The excepted messages are the barrier: once they are sent, the sender has looked at every delivery due now.
    await until(async () => (await sentTo(alarm.id)).length === 3, 10_000, 'the excepted messages');
    await ctx.server.app.alarms.notifier.idle();
    expect(await sentTo(alarm.id)).toEqual([`${both.userId}|notice|1`, `${excepted.userId}|notice|1`, `${after.userId}|notice|1`].sort());
    const pending = (await deliveries(alarm.id)).filter((d) => d.personKey === `u:${held.userId}`);
    expect(pending.map((d) => [Number(d.state), Number(d.dueAt)])).toEqual([[0, end]]);

    // When the window has ended (its due time moved to now), the held message goes out.
    await db().updateTable('wit_alarm_delivery').set({ dueAt: Date.now() - 1 }).where('id', '=', String(pending[0].id)).execute();
    ctx.server.app.alarms.notifier.kick();
    await until(async () => (await sentTo(alarm.id)).includes(`${held.userId}|notice|1`), 10_000, 'the held message');
  });

  it('sends to people as they are when the message goes out: a changed address used, a removed person given up at once', async () => {
    const [before, after] = [await startReceiver(), await startReceiver()];
    try {
      const kept = await submit(ctx.demo, 'alarmrecipient', { name: '网关', webhookUrl: before.url, channels: 'webhook' });
      const gone = await submit(ctx.demo, 'alarmrecipient', { name: '撤销的网关', webhookUrl: before.url, channels: 'webhook' });
      const leaver = await staff('notify_leaver');
      const now = Date.now();
      const window = { silenceStart: clock(now - 60 * MINUTE), silenceEnd: clock(now + 60 * MINUTE) };
      await strategy({ name: '静默网关', recipientIds: `${kept.id},${gone.id}`, channels: 'webhook', ...window });
      await strategy({ name: '静默用户', userIds: leaver.userId, channels: 'notice', ...window });
      const alarm = await raise('QJ-CRACK-01', 'crack');
      expect((await deliveries(alarm.id)).map((d) => Number(d.state))).toEqual([0, 0, 0]);

      // While the window holds the messages: an address changes, a recipient and a user are removed.
      await submit(ctx.demo, 'alarmrecipient', { id: kept.id, name: '网关', webhookUrl: after.url, channels: 'webhook' });
      expectOk(await ctx.demo.request('POST', `${X}/alarmrecipient/remove`, { query: { ids: gone.id } }));
      expectOk(await ctx.demo.request('POST', '/api/blade-user/remove', { query: { ids: leaver.userId } }));
      // The send log's list is read while nothing is sent (its count is kept a while).
      const logged = async () => expectOk(await ctx.demo.get<PageData>(`${X}/alarmsendlog/list`, { alarmId: alarm.id })).total;
      expect(await logged()).toBe(0);
      await db().updateTable('wit_alarm_delivery').set({ dueAt: Date.now() - 1 }).where('alarmId', '=', alarm.id).execute();
      ctx.server.app.alarms.notifier.kick();
      await deliveriesSettled(ctx.server, alarm.id, 3);
      // Each attempt is announced: the list counts them at once.
      expect(await logged()).toBe(3);

      expect([before.bodies.length, after.bodies.length]).toEqual([0, 1]);
      const logs = await db().selectFrom('wit_alarm_send_log').selectAll().where('alarmId', '=', alarm.id).execute();
      // Each attempt carries the alarm's project (the project scope of the log's readers) and its reading's time.
      expect(logs.map((l) => [l.projectId, Number(l.readingTs)])).toEqual(logs.map(() => [BRIDGE, Number(alarm.readingTs)]));
      expect(alarm.readingTs).not.toBeNull();
      const of = (field: 'recipientId' | 'userId', id: string) =>
        logs.filter((l) => l[field] === id).map((l) => [l.channel, l.attempt, l.success, l.target, l.detail, l.recipientName]);
      expect(of('recipientId', kept.id)).toEqual([['webhook', 1, 1, after.url, expect.stringMatching(/^200 /), '网关']]);
      expect(of('recipientId', gone.id)).toEqual([['webhook', 1, 0, null, '接收人已删除或已停用', null]]);
      expect(of('userId', leaver.userId)).toEqual([['notice', 1, 0, null, '接收人已删除或已停用', null]]);
      // Given up at once: no retry can bring a removed person back.
      expect((await deliveries(alarm.id)).map((d) => [d.personKey, Number(d.state), Number(d.attempts)])).toEqual(
        [[`r:${kept.id}`, 1, 1], [`r:${gone.id}`, 2, 1], [`u:${leaver.userId}`, 2, 1]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
    } finally {
      await before.close();
      await after.close();
    }
  });

  it('raises the alarm and tells nobody when its strategies name only a removed person or another project', async () => {
    const [gone, elsewhere] = [await staff('notify_removed'), await staff('notify_elsewhere')];
    await strategy({ name: '已删除的人', userIds: gone.userId });
    expectOk(await ctx.demo.request('POST', '/api/blade-user/remove', { query: { ids: gone.userId } }));
    const project = await submit(ctx.demo, 'project', { name: '另一座桥', code: 'NOTIFY-OTHER', structureType: 1 });
    await strategy({ name: '另一项目', userIds: elsewhere.userId, projectIds: project.id });
    const alarm = await raise('QJ-GNSS-01', 'dz');
    expect(alarm.projectId).toBe(BRIDGE);
    expect(await deliveries(alarm.id)).toEqual([]);
  });

  it('tells a user named directly and through their recipient entry as the entry says: its channels, its address', async () => {
    const duty = await staff('notify_entry');
    const receiver = await startReceiver();
    try {
      const entry = await submit(ctx.demo, 'alarmrecipient', { name: '值班网关', userId: duty.userId, webhookUrl: receiver.url, channels: 'webhook' });
      await strategy({ name: '用户与接收人', recipientIds: entry.id, userIds: duty.userId, channels: 'notice,webhook' });
      const alarm = await raise('QJ-GNSS-01', 'dx');
      await deliveriesSettled(ctx.server, alarm.id, 1);
      expect((await deliveries(alarm.id)).map((d) => [d.personKey, d.channel, Number(d.state)])).toEqual([[`u:${duty.userId}`, 'webhook', 1]]);
      expect(receiver.bodies).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('reminds on each repeating strategy’s own interval, only the people it names, and on its own', async () => {
    const [repeating, once, late] = [await staff('remind_every'), await staff('remind_once'), await staff('remind_late')];
    await strategy({ name: '每分钟提醒', userIds: repeating.userId, repeatInterval: 1 });
    await strategy({ name: '不提醒', userIds: once.userId });
    const alarm = await raise('QJ-TILT-01', 'tilt_y');
    await ctx.server.app.alarms.idle();
    // Made after the alarm was raised: it tells of it from its first interval on, not at once.
    await strategy({ name: '每两分钟提醒', userIds: late.userId, repeatInterval: 2 });

    // 70 s after the level changed: round 1 of the one-minute strategy; nothing of the two-minute one yet.
    await db().updateTable('wit_alarm').set({ levelAt: Date.now() - 70_000 }).where('id', '=', alarm.id).execute();
    await ctx.server.app.alarms.notifier.planReminders();
    await ctx.server.app.alarms.idle();
    expect(await told(alarm.id)).toEqual([`${once.userId}|0`, `${repeating.userId}|0`, `${repeating.userId}|1`].sort());

    // 130 s: the server plans the next rounds by itself (every ALARM_REMINDER_CHECK, 0.2 s in this suite).
    await db().updateTable('wit_alarm').set({ levelAt: Date.now() - 130_000 }).where('id', '=', alarm.id).execute();
    const all = [`${once.userId}|0`, `${repeating.userId}|0`, `${repeating.userId}|1`, `${repeating.userId}|2`, `${late.userId}|1`].sort();
    await until(async () => (await told(alarm.id)).length >= all.length, 10_000, 'the reminders planned by the server');
    await ctx.server.app.alarms.idle();
    expect(await told(alarm.id)).toEqual(all);
  });

  it('drops a held reminder once its alarm is cleared or handled, and still tells of the change itself', async () => {
    const duty = await staff('remind_drop');
    const now = Date.now();
    await strategy({ name: '静默提醒', userIds: duty.userId, repeatInterval: 1, silenceStart: clock(now - 60 * MINUTE), silenceEnd: clock(now + 60 * MINUTE) });
    const cleared = await raise('QJ-HLS-01', 'settlement');
    const handled = await raise('QJ-RAIN-01', 'rainfall');
    const ids = [cleared.id, handled.id];
    // Round 1 of each, held by the window as round 0 is.
    await db().updateTable('wit_alarm').set({ levelAt: Date.now() - 70_000 }).where('id', 'in', ids).execute();
    await ctx.server.app.alarms.notifier.planReminders();
    const states = async (alarmId: string) => (await deliveries(alarmId)).map((d) => [Number(d.round), Number(d.state), d.lastError]).sort();
    for (const id of ids) expect(await states(id)).toEqual([[0, 0, null], [1, 0, null]]);

    const dropped = async () => figure((await scrape(ctx.server.url, ctx.server.app.platform.config.metricsToken)).text, 'vigil_notifications_total', { channel: 'notice', outcome: 'dropped' });
    const before = await dropped();
    await emit(ctx.server, [reading('QJ-HLS-01', 'settlement', 1, tick())]);
    expectOk(await postParams(ctx.demo, `${X}/alarm/batchHandle`, { ids: handled.id, handleResult: '已现场处理' }));
    await db().updateTable('wit_alarm_delivery').set({ dueAt: Date.now() - 1 }).where('alarmId', 'in', ids).execute();
    ctx.server.app.alarms.notifier.kick();
    await until(async () => (await db().selectFrom('wit_alarm_delivery').select('state').where('alarmId', 'in', ids).execute()).every((d) => Number(d.state) !== 0 && Number(d.state) !== 4), 10_000, 'the held messages settled');
    await ctx.server.app.alarms.idle();
    for (const id of ids) expect(await states(id)).toEqual([[0, 1, null], [1, 3, '告警已恢复、已处理或已删除,不再提醒']]);
    expect((await dropped()) - before).toBe(2);
  });

  it('logs a reminder the store refuses to plan, and plans it at the next check once the store takes it', async () => {
    const duty = await staff('remind_refused');
    await strategy({ name: '存储故障提醒', userIds: duty.userId, repeatInterval: 1 });
    const alarm = await raise('QJ-TILT-02', 'tilt_x');
    await ctx.server.app.alarms.idle();
    const restore = await failWrites(ctx.server, 'wit_alarm_delivery', 'new.round >= 1');
    try {
      await db().updateTable('wit_alarm').set({ levelAt: Date.now() - 70_000 }).where('id', '=', alarm.id).execute();
      await until(async () => (await loggedErrors(ctx.server, 'alarm')).length > 0, 10_000, 'the refused plan logged');
    } finally {
      await restore();
    }
    // One line per refused check (every 0.2 s here), each naming the store's refusal.
    const errors = await takeLoggedErrors(ctx.server, 'alarm');
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toContain('storage failure');
    expect(await told(alarm.id)).toEqual([`${duty.userId}|0`]);
    await until(async () => (await told(alarm.id)).length === 2, 10_000, 'the reminder planned at the next check');
    expect(await told(alarm.id)).toEqual([`${duty.userId}|0`, `${duty.userId}|1`]);
  });
});
