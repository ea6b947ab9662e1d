import { ALARM_SOURCE, ALARM_STATE, type AlarmLevel, type Channel, CHANNELS, LEVEL_NAMES } from '../../resources/iot/alarm';
import type { PeriodicJob } from '../cluster/leases';
import type { Db, Row } from '../db/database';
import { inUse } from '../db/in-use';
import { nextId } from '../ids';
import type { Platform } from '../platform';
import type { Realtime } from '../realtime';
import { formatDateTime } from '../time';
import type { AlarmMessage } from '../../resources/wire/alarms';
import { alarmHref, Channels, PermanentFailure, type Person } from './channels';
import { silenceEnd } from './silence';

/**
 * Tells people about alarm changes (docs/alarms.md "Notifications"). The engine plans deliveries in the same
 * transaction that changes the alarm: one outbox row (wit_alarm_delivery) per change, reminder round, person and
 * channel, under a unique key — so a change notifies each person once per channel, whatever batches run at once
 * and however often the server restarts. The sender works the outbox apart from ingestion: every attempt goes to
 * wit_alarm_send_log, failures are retried with growing waits, then given up.
 */

const DELIVERY = 'wit_alarm_delivery';
const STATE = { pending: 0, sent: 1, failed: 2, dropped: 3, sending: 4 } as const;
/** A claim older than this belonged to a process that died mid-send: the delivery is tried again. */
const STALE_CLAIM_MS = 5 * 60_000;

export interface RetryPolicy {
  /** Attempts before a delivery is given up. */
  attempts: number;
  /** Wait before the first retry; each later wait is four times longer. */
  backoffMs: number;
}

const list = (value: unknown): string[] =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const nowMs = () => Date.now();

/** Unexpected failures of the alarm workers go to the error log; they never reach ingestion. */
export function logAlarmError(platform: Platform, error: unknown): void {
  platform.logs.error('alarm', error);
}

export class Notifier {
  retry: RetryPolicy = { attempts: 4, backoffMs: 5_000 };
  /** How often due deliveries (retries, ends of silence windows) and reminders are looked for. */
  tickMs = 1_000;

  readonly channels: Channels;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private reminders?: PeriodicJob;

  constructor(
    private readonly platform: Platform,
    realtime: Realtime,
  ) {
    this.channels = new Channels(platform, realtime);
  }

  async start(): Promise<void> {
    const stale = nowMs() - STALE_CLAIM_MS;
    await this.platform.db.updateTable(DELIVERY).set({ state: STATE.pending }).where('state', '=', STATE.sending).where('claimedAt', '<', stale).execute();
    this.timers.push(setInterval(() => this.kick(), this.tickMs).unref());
    // Every process sends what is due (each delivery is claimed by one); reminders are planned by one per round.
    this.reminders = this.platform.leases.every('alarm-reminders', this.platform.config.reminderCheckMs, () => this.planReminders(), (error) => this.fail(error));
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.reminders?.stop();
    await this.idle();
    this.channels.close();
  }

  /** Resolves when no sending is under way. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Deliveries planned and not yet settled (waiting, held by a silence window, being sent): the metrics' backlog. */
  async backlog(): Promise<number> {
    const row = await this.platform.db
      .selectFrom(DELIVERY)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', 'in', [STATE.pending, STATE.sending])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Sends what is due, now; never waits for it. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error) => this.fail(error))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private fail(error: unknown): void {
    logAlarmError(this.platform, error);
  }

  /**
   * Plans the deliveries of an alarm change (round 0) or reminder (round ≥ 1) inside the caller's transaction;
   * `only` limits planning to some strategies (reminders). Returns how many rows were new.
   */
  async plan(trx: Db, alarm: Row, round: number, only?: (strategy: Row) => boolean): Promise<number> {
    const tenantId = String(alarm.tenantId);
    const level = Number(alarm.alarmLevel) as AlarmLevel;
    const strategies = (await activeStrategies(trx, tenantId)).filter((s) => applies(s, alarm) && (!only || only(s)));
    if (strategies.length === 0) return 0;
    const people = await peopleOf(trx, tenantId, strategies);
    const now = new Date();
    const due = new Map<string, { person: Person; channel: Channel; dueAt: number }>();
    for (const strategy of strategies) {
      const held = list(strategy.silenceExceptLevels).includes(String(level)) ? undefined : silenceEnd(now, strategy.silenceStart as string, strategy.silenceEnd as string);
      const dueAt = held?.getTime() ?? now.getTime();
      const told = [...list(strategy.recipientIds).map((id) => `r:${id}`), ...list(strategy.userIds).map((id) => `u:${id}`)];
      for (const ref of told) {
        const person = people.get(ref);
        if (!person) continue;
        for (const channel of list(strategy.channels) as Channel[]) {
          if (!CHANNELS.includes(channel) || (person.accepts && !person.accepts.has(channel))) continue;
          const key = `${person.key}|${channel}`;
          const known = due.get(key);
          if (!known || known.dueAt > dueAt) due.set(key, { person, channel, dueAt });
        }
      }
    }
    if (due.size === 0) return 0;
    const stamp = formatDateTime(now);
    const rows = [...due.values()].map(({ person, channel, dueAt }) => ({
      id: nextId(),
      tenantId,
      alarmId: alarm.id,
      projectId: alarm.projectId ?? null,
      revision: Number(alarm.revision),
      round,
      personKey: person.key,
      recipientId: person.recipientId,
      userId: person.userId,
      channel,
      state: STATE.pending,
      attempts: 0,
      dueAt,
      readingTs: alarm.readingTs ?? null,
      createTime: stamp,
      updateTime: stamp,
      status: 1,
      isDeleted: 0,
    }));
    const result = await trx
      .insertInto(DELIVERY)
      .values(rows)
      .onConflict((oc) => oc.columns(['alarmId', 'revision', 'round', 'personKey', 'channel']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /** Reminders while an alarm stays open and unhandled: round n is due n intervals after its level changed. */
  async planReminders(): Promise<void> {
    const db = this.platform.db;
    const strategies = await db
      .selectFrom('wit_alarm_notice_strategy')
      .selectAll()
      .$call(inUse)
      .where('repeatInterval', '>', 0)
      .execute();
    const tenants = [...new Set(strategies.map((s) => s.tenantId))];
    if (tenants.length === 0) return;
    const alarms = await db
      .selectFrom('wit_alarm')
      .selectAll()
      .where('tenantId', 'in', tenants)
      .where('alarmState', '=', ALARM_STATE.open)
      .where('handleState', '=', 0)
      .where('source', '=', ALARM_SOURCE.rule)
      .where('isDeleted', '=', 0)
      .execute();
    const now = nowMs();
    let planned = 0;
    for (const alarm of alarms) {
      for (const strategy of strategies.filter((s) => s.tenantId === alarm.tenantId && applies(s, alarm))) {
        const round = Math.floor((now - Number(alarm.levelAt)) / (Number(strategy.repeatInterval) * 60_000));
        if (round >= 1) planned += await this.plan(db, alarm, round, (s) => s.id === strategy.id);
      }
    }
    if (planned) this.kick();
  }

  /**
   * One pass over the deliveries due now, in (due time, id) order, 50 at a time. The pass moves on past every row it
   * has tried, whether its claim succeeded or not: a row it could not claim (another process has it, the claim failed)
   * waits for the next pass and is never tried twice in this one, so every pass ends — one unclaimable row used to be
   * selected again and again, the pass never ending and nothing behind it being sent.
   */
  private async drain(): Promise<void> {
    const db = this.platform.db;
    let after: { dueAt: number; id: string } | undefined;
    for (;;) {
      let query = db.selectFrom(DELIVERY).selectAll().where('state', '=', STATE.pending).where('dueAt', '<=', nowMs());
      if (after) {
        const { dueAt, id } = after;
        query = query.where((eb) => eb.or([eb('dueAt', '>', dueAt), eb.and([eb('dueAt', '=', dueAt), eb('id', '>', id)])]));
      }
      const due = await query.orderBy('dueAt').orderBy('id').limit(50).execute();
      if (due.length === 0 || this.stopped) return;
      // Channels are independent: a slow SMTP server does not hold back webhooks or in-app notices.
      await Promise.all(due.map((delivery) => this.deliver(delivery).catch((error) => this.fail(error))));
      const last = due[due.length - 1];
      after = { dueAt: Number(last.dueAt), id: String(last.id) };
    }
  }

  private async deliver(delivery: Row): Promise<void> {
    const db = this.platform.db;
    const claimed = await db
      .updateTable(DELIVERY)
      .set({ state: STATE.sending, claimedAt: nowMs() })
      .where('id', '=', delivery.id as string)
      .where('state', '=', STATE.pending)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return; // another process has it
    const alarm = await db.selectFrom('wit_alarm').selectAll().where('id', '=', delivery.alarmId as string).executeTakeFirst();
    const round = Number(delivery.round);
    const stillDue = alarm && alarm.isDeleted === 0 && (round === 0 || (Number(alarm.alarmState) === ALARM_STATE.open && Number(alarm.handleState) === 0));
    if (!alarm || !stillDue) {
      await this.settle(delivery, STATE.dropped, Number(delivery.attempts), '告警已恢复、已处理或已删除,不再提醒');
      this.platform.metrics.notified(String(delivery.channel), 'dropped');
      return;
    }
    const person = await personOf(db, String(delivery.tenantId), delivery);
    const attempt = Number(delivery.attempts) + 1;
    const channel = String(delivery.channel) as Channel;
    let outcome: { success: boolean; target: string | null; detail: string; permanent: boolean };
    try {
      if (!person) throw new PermanentFailure('接收人已删除或已停用');
      const sent = await this.channels.send(channel, person, messageOf(alarm, delivery));
      outcome = { success: true, target: sent.target, detail: sent.detail, permanent: false };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      outcome = { success: false, target: targetOf(person, channel), detail, permanent: error instanceof PermanentFailure };
    }
    await db
      .insertInto('wit_alarm_send_log')
      .values({
        id: nextId(),
        tenantId: delivery.tenantId,
        alarmId: delivery.alarmId,
        projectId: delivery.projectId ?? null,
        revision: delivery.revision,
        round,
        recipientId: delivery.recipientId ?? null,
        userId: delivery.userId ?? null,
        recipientName: person?.name ?? null,
        channel,
        target: outcome.target,
        attempt,
        success: outcome.success ? 1 : 0,
        detail: outcome.detail.slice(0, 2000),
        readingTs: delivery.readingTs ?? null,
        sendTime: formatDateTime(),
        createTime: formatDateTime(),
        status: 1,
        isDeleted: 0,
      })
      .execute();
    this.platform.events.emit('changed', 'wit_alarm_send_log');
    const final = outcome.permanent || attempt >= this.retry.attempts;
    this.platform.metrics.notified(channel, outcome.success ? 'sent' : final ? 'failed' : 'retry');
    if (outcome.success) return this.settle(delivery, STATE.sent, attempt);
    if (final) return this.settle(delivery, STATE.failed, attempt, outcome.detail);
    await db
      .updateTable(DELIVERY)
      .set({ state: STATE.pending, attempts: attempt, dueAt: nowMs() + this.retry.backoffMs * 4 ** (attempt - 1), lastError: outcome.detail, updateTime: formatDateTime() })
      .where('id', '=', delivery.id as string)
      .execute();
  }

  private async settle(delivery: Row, state: number, attempts: number, lastError: string | null = null): Promise<void> {
    await this.platform.db
      .updateTable(DELIVERY)
      .set({ state, attempts, lastError, updateTime: formatDateTime() })
      .where('id', '=', delivery.id as string)
      .execute();
  }
}

async function activeStrategies(db: Db, tenantId: string): Promise<Row[]> {
  return db.selectFrom('wit_alarm_notice_strategy').selectAll().where('tenantId', '=', tenantId).$call(inUse).execute();
}

/** A strategy covers the alarm's project (none named: all) and level (none named: all). */
function applies(strategy: Row, alarm: Row): boolean {
  const projects = list(strategy.projectIds);
  const levels = list(strategy.levels);
  return (projects.length === 0 || projects.includes(String(alarm.projectId))) && (levels.length === 0 || levels.includes(String(alarm.alarmLevel)));
}

/** The people the strategies name, keyed `r:<recipientId>` and `u:<userId>`; a recipient tied to a user is that user. */
async function peopleOf(db: Db, tenantId: string, strategies: Row[]): Promise<Map<string, Person>> {
  const recipientIds = [...new Set(strategies.flatMap((s) => list(s.recipientIds)))];
  const recipients = recipientIds.length
    ? await db.selectFrom('wit_alarm_recipient').selectAll().where('tenantId', '=', tenantId).where('id', 'in', recipientIds).$call(inUse).execute()
    : [];
  const userIds = [...new Set([...strategies.flatMap((s) => list(s.userIds)), ...recipients.map((r) => r.userId).filter(Boolean).map(String)])];
  const users = userIds.length ? await db.selectFrom('blade_user').selectAll().where('tenantId', '=', tenantId).where('id', 'in', userIds).where('isDeleted', '=', 0).execute() : [];
  const byUser = new Map(users.map((u) => [u.id, u]));
  const out = new Map<string, Person>();
  for (const user of users) out.set(`u:${user.id}`, personFromUser(user));
  for (const recipient of recipients) {
    const person = personFromRecipient(recipient, recipient.userId ? byUser.get(recipient.userId) : undefined);
    out.set(`r:${recipient.id}`, person);
    if (person.userId) out.set(`u:${person.userId}`, person);
  }
  return out;
}

const optional = (value: unknown): string | undefined => (value === null || value === undefined || value === '' ? undefined : String(value));

function personFromUser(user: Row): Person {
  return { key: `u:${user.id}`, recipientId: null, userId: String(user.id), name: String(user.realName ?? user.name ?? user.account), email: optional(user.email), phone: optional(user.phone) };
}

/** A recipient's own addresses win over its user's. */
function personFromRecipient(recipient: Row, user: Row | undefined): Person {
  const channels = list(recipient.channels);
  const base = user ? personFromUser(user) : undefined;
  return {
    key: user ? `u:${user.id}` : `r:${recipient.id}`,
    recipientId: String(recipient.id),
    userId: user ? String(user.id) : null,
    name: String(recipient.name),
    email: optional(recipient.email) ?? base?.email,
    phone: optional(recipient.phone) ?? base?.phone,
    webhookUrl: optional(recipient.webhookUrl),
    accepts: channels.length ? new Set(channels) : undefined,
  };
}

/** The person of a delivery as they are now (an address may have changed since it was planned). */
async function personOf(db: Db, tenantId: string, delivery: Row): Promise<Person | undefined> {
  if (delivery.recipientId) {
    const recipient = await db.selectFrom('wit_alarm_recipient').selectAll().where('id', '=', delivery.recipientId as string).$call(inUse).executeTakeFirst();
    if (!recipient) return undefined;
    const user = recipient.userId ? await db.selectFrom('blade_user').selectAll().where('id', '=', recipient.userId as string).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst() : undefined;
    return personFromRecipient(recipient, user);
  }
  if (!delivery.userId) return undefined;
  const user = await db.selectFrom('blade_user').selectAll().where('id', '=', delivery.userId as string).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst();
  return user ? personFromUser(user) : undefined;
}

function targetOf(person: Person | undefined, channel: Channel): string | null {
  if (!person) return null;
  if (channel === 'notice') return person.userId ? `user:${person.userId}` : null;
  if (channel === 'email') return person.email ?? null;
  if (channel === 'sms') return person.phone ?? null;
  return person.webhookUrl ?? null;
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function messageOf(alarm: Row, delivery: Row): AlarmMessage {
  const level = Number(alarm.alarmLevel) as AlarmLevel;
  const round = Number(delivery.round);
  const title = String(alarm.title ?? '');
  return {
    alarmId: String(alarm.id),
    tenantId: String(alarm.tenantId),
    projectId: (alarm.projectId as string | null) ?? null,
    deviceId: String(alarm.deviceId),
    deviceCode: (alarm.deviceCode as string | null) ?? null,
    pointKey: (alarm.pointKey as string | null) ?? null,
    alarmLevel: level,
    levelName: LEVEL_NAMES[level] ?? '',
    alarmType: Number(alarm.alarmType),
    alarmState: Number(alarm.alarmState),
    title: round > 0 ? `[第${round}次提醒] ${title}` : title,
    content: String(alarm.content ?? ''),
    value: numberOrNull(alarm.value),
    limitValue: numberOrNull(alarm.limitValue),
    unit: (alarm.unit as string | null) ?? null,
    ts: numberOrNull(delivery.readingTs),
    time: String(alarm.levelTime ?? ''),
    revision: Number(delivery.revision),
    round,
    href: alarmHref(String(alarm.id)),
  };
}
