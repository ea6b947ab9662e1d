import { ALARM_ACTION, ALARM_SOURCE, ALARM_STATE, ALARM_TYPE, type AlarmLevel } from '../../resources/iot/alarm';
import type { Db, Row } from '../db/database';
import { nextId } from '../ids';
import type { StoredReading } from '../ingest/types';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import { alarmWords, hasRate, judge, type LimitKind, rateOf, type Sample, transition, type Transition } from './evaluate';
import { logAlarmError, type Notifier } from './notifier';
import type { RuleBook, SeriesRule } from './rules';
import { slices } from '../db/slices';

/**
 * Turns stored readings into alarm changes (docs/alarms.md "States"). The `readings` handler only enqueues; one
 * worker takes batches in arrival order, so a channel's readings are judged one after another. Every change is a
 * conditional write on the alarm row (a partial unique index allows one open alarm per channel, updates check the
 * revision they read), logged in wit_alarm_log and planned for notification in the same transaction.
 */

const KIND_TYPE: Record<LimitKind, number> = { upper: ALARM_TYPE.upper, lower: ALARM_TYPE.lower, rate: ALARM_TYPE.rate };
const ACTION: Record<'raise' | 'escalate' | 'deescalate' | 'clear', number> = {
  raise: ALARM_ACTION.raise,
  escalate: ALARM_ACTION.escalate,
  deescalate: ALARM_ACTION.deescalate,
  clear: ALARM_ACTION.clear,
};

/** Another writer changed the alarm first; this reading's change is dropped (the next reading sees the new state). */
class LostRace extends Error {}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/i.test(e?.message ?? '');
};

const seriesKey = (reading: StoredReading) => `${reading.deviceId}|${reading.pointKey}`;

export class AlarmEngine {
  private readonly queue: Array<readonly StoredReading[]> = [];
  private running?: Promise<void>;

  constructor(
    private readonly platform: Platform,
    private readonly rules: RuleBook,
    private readonly notifier: Notifier,
  ) {}

  /** Takes a stored batch; returns at once (ingestion never waits for alarms). */
  enqueue(batch: readonly StoredReading[]): void {
    if (batch.length === 0) return;
    this.queue.push(batch);
    this.kick();
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      // A batch that arrived between the last look at the queue and here starts the next round.
      if (this.queue.length) this.kick();
    });
  }

  /** Resolves when every enqueued reading has been judged. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let batch = this.queue.shift(); batch; batch = this.queue.shift()) {
      try {
        await this.judgeBatch(batch);
      } catch (error) {
        logAlarmError(this.platform, error);
      }
    }
  }

  /** Judges a batch in order: the open alarms of its ruled channels are read in one query, then kept up to date. */
  private async judgeBatch(batch: readonly StoredReading[]): Promise<void> {
    const ruled = await this.rules.ruled(batch);
    if (ruled.length === 0) return;
    const open = await this.openAlarms([...new Set(ruled.map(([r]) => r.deviceId))]);
    for (const [reading, rule] of ruled) {
      const key = seriesKey(reading);
      try {
        const next = await this.judgeReading(reading, rule, open.get(key));
        if (next === undefined) open.delete(key);
        else open.set(key, next);
      } catch (error) {
        if (!(error instanceof LostRace)) logAlarmError(this.platform, error);
        // Someone else changed the alarm: read it again before the channel's next reading.
        const fresh = await this.openAlarms([reading.deviceId]);
        if (fresh.has(key)) open.set(key, fresh.get(key) as Row);
        else open.delete(key);
      }
    }
  }

  /** Judges one reading against its channel's open alarm; returns the open alarm after it (undefined: none). */
  private async judgeReading(reading: StoredReading, rule: SeriesRule, open: Row | undefined): Promise<Row | undefined> {
    // A late reading (older than the change the alarm last made) does not move the alarm back in time.
    if (open && Number(open.readingTs ?? 0) > reading.ts) return open;
    const held = open ? (Number(open.alarmLevel) as AlarmLevel) : 0;
    const rate = hasRate(rule.rule) ? rateOf(reading, await this.reference(reading, rule.rule.periodMs), rule.rule.periodMs) : undefined;
    const change = transition(held, judge(rule.rule, reading.value, rate, held));
    if (change.action === 'none') return open;
    const { alarm, planned } = await this.platform.db.transaction().execute((trx) => this.apply(trx, reading, rule, open, change, rate));
    this.platform.events.emit('changed', 'wit_alarm');
    this.platform.events.emit('changed', 'wit_alarm_log');
    // The alarm raised or moved, or the open one cleared; none when there was nothing to move.
    const changed = alarm ?? open;
    if (changed) this.platform.events.emit('alarms', { tenantId: reading.tenantId, ids: [String(changed.id)], at: Date.now(), action: change.action });
    if (planned) this.notifier.kick();
    return alarm;
  }

  /** The open threshold alarms of the devices, by channel. */
  private async openAlarms(deviceIds: readonly string[]): Promise<Map<string, Row>> {
    const out = new Map<string, Row>();
    for (const slice of slices(deviceIds)) {
      const rows = await this.platform.db
        .selectFrom('wit_alarm')
        .selectAll()
        .where('deviceId', 'in', slice)
        .where('alarmState', '=', ALARM_STATE.open)
        .where('source', '=', ALARM_SOURCE.rule)
        .where('isDeleted', '=', 0)
        .execute();
      for (const row of rows) out.set(`${row.deviceId}|${row.pointKey}`, row);
    }
    return out;
  }

  /** The newest stored reading at least one period before this one. */
  private async reference(reading: StoredReading, periodMs: number): Promise<Sample | undefined> {
    const row = await this.platform.db
      .selectFrom('wit_device_log')
      .select(['ts', 'value'])
      .where('deviceId', '=', reading.deviceId)
      .where('pointKey', '=', reading.pointKey)
      .where('ts', '<=', reading.ts - periodMs)
      .orderBy('ts', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { ts: row.ts, value: row.value } : undefined;
  }

  /** Writes the change; returns the channel's open alarm after it and how many deliveries were planned. */
  private async apply(trx: Db, reading: StoredReading, rule: SeriesRule, open: Row | undefined, change: Exclude<Transition, { action: 'none' }>, rate: number | undefined): Promise<{ alarm?: Row; planned: number }> {
    const now = new Date();
    const stamp = formatDateTime(now);
    const base = { tenantId: reading.tenantId, createTime: stamp, updateTime: stamp, status: 1, isDeleted: 0 };
    const log = (alarm: Row, action: number, fromLevel: number | null, toLevel: number | null, limitValue: number | null) =>
      trx
        .insertInto('wit_alarm_log')
        .values({
          ...base,
          id: nextId(),
          alarmId: alarm.id,
          projectId: alarm.projectId ?? null,
          deviceId: reading.deviceId,
          pointKey: reading.pointKey,
          revision: alarm.revision,
          action,
          fromLevel,
          toLevel,
          value: reading.value,
          limitValue,
          readingTs: reading.ts,
          logTime: stamp,
        })
        .execute();

    if (change.action === 'clear') {
      if (!open) return { planned: 0 };
      const cleared = { ...open, alarmState: ALARM_STATE.cleared, revision: Number(open.revision) + 1, clearTime: stamp, value: reading.value, readingTs: reading.ts, updateTime: stamp };
      await this.update(trx, open, cleared);
      await log(cleared, ACTION.clear, Number(open.alarmLevel), null, null);
      return { planned: 0 };
    }

    const described = await this.describe(trx, reading, change.level, change.kind, change.limit, rate);
    if (change.action === 'raise') {
      const alarm: Row = {
        ...base,
        id: nextId(),
        projectId: reading.projectId ?? rule.projectId,
        deviceId: reading.deviceId,
        deviceCode: reading.deviceCode,
        pointKey: reading.pointKey,
        monitorPointId: rule.monitorPointId,
        thresholdId: rule.thresholdId,
        source: ALARM_SOURCE.rule,
        alarmType: KIND_TYPE[change.kind],
        alarmLevel: change.level,
        maxLevel: change.level,
        alarmState: ALARM_STATE.open,
        handleState: 0,
        revision: 1,
        ...described,
        firstValue: reading.value,
        value: reading.value,
        limitValue: change.limit,
        readingTs: reading.ts,
        levelAt: now.getTime(),
        firstTime: stamp,
        levelTime: stamp,
      };
      try {
        await trx.insertInto('wit_alarm').values(alarm).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new LostRace();
        throw error;
      }
      await log(alarm, ACTION.raise, null, change.level, change.limit);
      return { alarm, planned: await this.notifier.plan(trx, alarm, 0) };
    }

    if (!open) return { planned: 0 };
    const escalated = change.action === 'escalate';
    const moved: Row = {
      ...open,
      ...described,
      alarmType: KIND_TYPE[change.kind],
      alarmLevel: change.level,
      maxLevel: Math.min(Number(open.maxLevel), change.level),
      revision: Number(open.revision) + 1,
      value: reading.value,
      limitValue: change.limit,
      readingTs: reading.ts,
      levelAt: now.getTime(),
      levelTime: stamp,
      thresholdId: rule.thresholdId,
      updateTime: stamp,
      // A worse level needs fresh attention, even if the alarm was handled before.
      ...(escalated ? { handleState: 0 } : {}),
    };
    await this.update(trx, open, moved);
    await log(moved, ACTION[change.action], Number(open.alarmLevel), change.level, change.limit);
    return { alarm: moved, planned: escalated ? await this.notifier.plan(trx, moved, 0) : 0 };
  }

  /** Writes `next` over the alarm only if nobody changed it since it was read. */
  private async update(trx: Db, open: Row, next: Row): Promise<void> {
    const { id, ...changes } = next;
    const result = await trx.updateTable('wit_alarm').set(changes).where('id', '=', id as string).where('revision', '=', Number(open.revision)).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new LostRace();
  }

  /** Title, content and unit of an alarm at a level, in the words of the console. */
  private async describe(trx: Db, reading: StoredReading, level: AlarmLevel, kind: LimitKind, limit: number, rate: number | undefined): Promise<Row> {
    const device = await trx.selectFrom('wit_device').select(['name']).where('id', '=', reading.deviceId).executeTakeFirst();
    const point = await trx
      .selectFrom('wit_device_point')
      .select(['name', 'unit'])
      .where('deviceId', '=', reading.deviceId)
      .where('pointKey', '=', reading.pointKey)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    const channel = { device: device?.name ?? reading.deviceCode, code: reading.deviceCode, point: point?.name ?? reading.pointKey, unit: (point?.unit as string | null | undefined) ?? '' };
    return alarmWords(channel, level, kind, limit, reading.value, rate);
  }
}

