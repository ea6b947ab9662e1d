import { Cron } from 'croner';
import type { Row } from '../../db/database';
import { inUse } from '../../db/in-use';
import type { Platform } from '../../platform';
import { nextId } from '../../ids';
import { formatDateTime, parseDateTime } from '../../time';
import type { Commands, Target } from './commands';

/**
 * Collection strategies that really run (docs/data-model.md "Collection strategies"): every enabled strategy of a
 * live project has a timer in this process; each run publishes the strategy's command to its gateway and devices
 * through the command module and is logged in wit_job_info. Timers follow every change of the table and are
 * started at boot from the enabled rows. Every server on the database arms the same occurrences (they follow from
 * the row alone); an occurrence fires in the one process whose claim of it on the row succeeds.
 */

export const DEFAULT_COMMAND = JSON.stringify({ command: 'collect' });
export const MAX_DEVICES = 500;
/** How long stopping a strategy waits for its run in progress (a publish to an unreachable broker may hang). */
const DRAIN_MS = 5000;

type Trigger = 'interval' | 'time';

/** One firing of a strategy: the instant it is due (epoch ms) and what made it due. */
export interface Occurrence {
  at: number;
  trigger: Trigger;
}

/** What runs need of the command module (tests: a recorder). */
export interface CommandSender {
  send(...args: Parameters<Commands['send']>): Promise<unknown>;
}

/** Arms `fire` for the instant `at`; the handle stops it. */
export type Arm = (at: number, fire: () => Promise<void>) => { stop(): void };

export interface SchedulerOptions {
  /** The clock occurrences are counted from (tests: a fake one, driven with `arm`). */
  now?: () => number;
  /** Arms the timer of one occurrence; by default a croner one-off job, which also waits past setTimeout's limit. */
  arm?: Arm;
}

const cronArm: Arm = (at, fire) => new Cron(new Date(at), { unref: true }, () => fire());

interface Scheduled {
  row: Row;
  signature: string;
  calendar: Calendar;
  timer?: { stop(): void };
  /** Runs in progress: a strategy is stopped once they have ended. */
  runs: Set<Promise<void>>;
}

/** What decides a strategy's timer: any change of these restarts it. */
const signatureOf = (row: Row) =>
  JSON.stringify([row.tenantId, row.projectId, row.gatewayId, row.deviceIds, row.intervalSeconds, row.times, row.command, row.updateTime]);

export const idsOf = (value: unknown): string[] => String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/**
 * When a strategy fires: every `intervalSeconds` counted from its last change (a grid every server computes alike,
 * unlike one counted from each process's start), and daily at each `HH:mm` of `times` in local time (croner).
 */
export class Calendar {
  private readonly daily: Cron[];

  constructor(
    private readonly intervalMs: number,
    private readonly anchor: number,
    times: string,
  ) {
    this.daily = idsOf(times).map((time) => {
      const [h, m] = time.split(':').map(Number);
      return new Cron(`0 ${m} ${h} * * *`);
    });
  }

  static of(row: Row): Calendar {
    const anchor = parseDateTime(String(row.updateTime ?? row.createTime ?? ''))?.getTime() ?? 0;
    return new Calendar(Number(row.intervalSeconds ?? 0) * 1000, anchor, String(row.times ?? ''));
  }

  /** The first occurrence strictly after `after`. */
  next(after: number): Occurrence | undefined {
    let best: Occurrence | undefined;
    if (this.intervalMs > 0) best = { at: this.anchor + (Math.floor((after - this.anchor) / this.intervalMs) + 1) * this.intervalMs, trigger: 'interval' };
    for (const cron of this.daily) {
      const at = cron.nextRun(new Date(after))?.getTime();
      if (at !== undefined && (best === undefined || at < best.at)) best = { at, trigger: 'time' };
    }
    return best;
  }
}

/** Resolves when the runs have ended, or after DRAIN_MS. */
async function drained(runs: Promise<void>[]): Promise<void> {
  if (runs.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(runs), new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]);
  clearTimeout(timer);
}

function parseCommand(text: unknown): { command: string; params: Record<string, unknown> } {
  const parsed = JSON.parse(typeof text === 'string' && text ? text : DEFAULT_COMMAND) as { command: string; params?: unknown };
  const params = parsed.params && typeof parsed.params === 'object' && !Array.isArray(parsed.params) ? (parsed.params as Record<string, unknown>) : {};
  return { command: parsed.command, params };
}

export class Scheduler {
  private readonly scheduled = new Map<string, Scheduled>();
  private syncing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly now: () => number;
  private readonly arm: Arm;

  constructor(
    private readonly platform: Platform,
    private readonly commands: CommandSender,
    options: SchedulerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.arm = options.arm ?? cronArm;
  }

  /**
   * Brings the timers in line with the enabled strategies of live projects (serialised: one reload at a time); a
   * strategy it stops has no run left in progress when it resolves.
   */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.reload()).catch((error: unknown) => this.logError(error));
    return this.syncing;
  }

  isRunning(id: string): boolean {
    return this.scheduled.has(id);
  }

  /** Restarts the timers of one tenant's strategies (all tenants: undefined); returns how many run afterwards. */
  async restart(tenantId: string | undefined): Promise<number> {
    for (const [id, s] of this.scheduled) if (tenantId === undefined || s.row.tenantId === tenantId) this.unschedule(id);
    await this.sync();
    return [...this.scheduled.values()].filter((s) => tenantId === undefined || s.row.tenantId === tenantId).length;
  }

  /** Stops every timer; resolves when the runs in progress have ended. */
  async stop(): Promise<void> {
    this.closed = true;
    await drained([...this.scheduled.keys()].flatMap((id) => this.unschedule(id)));
  }

  private async reload(): Promise<void> {
    if (this.closed) return;
    const db = this.platform.db;
    const rows = await db
      .selectFrom('wit_collect_strategy')
      .selectAll()
      .$call(inUse)
      .where('enabled', '=', 1)
      .where('projectId', 'in', db.selectFrom('wit_project').select('id').where('isDeleted', '=', 0))
      .execute();
    if (this.closed) return;
    const wanted = new Map(rows.map((r) => [r.id, r]));
    const ending: Promise<void>[] = [];
    for (const [id, s] of this.scheduled) {
      const row = wanted.get(id);
      if (!row || signatureOf(row) !== s.signature) ending.push(...this.unschedule(id));
    }
    for (const [id, row] of wanted) if (!this.scheduled.has(id)) this.schedule(id, row);
    await drained(ending);
  }

  private schedule(id: string, row: Row): void {
    const s: Scheduled = { row, signature: signatureOf(row), calendar: Calendar.of(row), runs: new Set() };
    this.scheduled.set(id, s);
    this.armNext(id, s, this.now());
  }

  /** Stops a strategy's timer; returns its runs still in progress. */
  private unschedule(id: string): Promise<void>[] {
    const s = this.scheduled.get(id);
    s?.timer?.stop();
    this.scheduled.delete(id);
    return [...(s?.runs ?? [])];
  }

  private armNext(id: string, s: Scheduled, after: number): void {
    const next = s.calendar.next(after);
    if (next) s.timer = this.arm(next.at, () => this.fire(id, s, next));
  }

  private async fire(id: string, s: Scheduled, occurrence: Occurrence): Promise<void> {
    if (this.scheduled.get(id) !== s) return;
    // From now when late (a busy process): occurrences already past are skipped, not fired in a burst.
    this.armNext(id, s, Math.max(occurrence.at, this.now()));
    const run = this.claimed(id, occurrence)
      .then((won) => (won ? this.run(s.row, occurrence.trigger) : undefined))
      .catch((error: unknown) => this.logError(error));
    s.runs.add(run);
    await run;
    s.runs.delete(run);
  }

  /**
   * Claims an occurrence on the strategy's row: of all the servers on the database, the first to move `lastFired`
   * up to it wins; the others (and a second claim of the same occurrence) change no row.
   */
  private async claimed(id: string, occurrence: Occurrence): Promise<boolean> {
    const { numUpdatedRows } = await this.platform.db
      .updateTable('wit_collect_strategy')
      .set({ lastFired: occurrence.at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastFired', 'is', null), eb('lastFired', '<', occurrence.at)]))
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }

  /** Sends the strategy's command to its gateway and devices (no waiting for answers) and logs the run. */
  async run(row: Row, trigger: Trigger): Promise<void> {
    const db = this.platform.db;
    const tenantId = String(row.tenantId);
    const targets: Target[] = [];
    if (row.gatewayId) {
      const gw = await db.selectFrom('wit_gateway').select(['id', 'code', 'projectId']).where('id', '=', String(row.gatewayId)).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst();
      if (gw) targets.push({ kind: 'gateway', id: gw.id, code: gw.code, tenantId, projectId: (gw.projectId as string | null) ?? null });
    }
    const deviceIds = idsOf(row.deviceIds);
    if (deviceIds.length) {
      const devices = await db.selectFrom('wit_device').select(['id', 'code', 'projectId']).where('id', 'in', deviceIds).where('tenantId', '=', tenantId).$call(inUse).execute();
      for (const d of devices) targets.push({ kind: 'device', id: d.id, code: d.code, tenantId, projectId: (d.projectId as string | null) ?? null });
    }
    const { command, params } = parseCommand(row.command);
    const failures: string[] = [];
    let sent = 0;
    for (const target of targets) {
      try {
        await this.commands.send(target, command, params, { wait: 0, source: `strategy:${String(row.id)}` });
        sent++;
      } catch (error) {
        failures.push(`${target.code}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const now = formatDateTime();
    const message = targets.length === 0 ? '策略没有可用的网关或设备' : failures.length ? `发送失败 ${failures.join('; ')}`.slice(0, 4000) : `已向 ${sent} 个目标发送 ${command}`;
    await db
      .insertInto('wit_job_info')
      .values({
        id: nextId(), tenantId, strategyId: String(row.id), strategyName: row.name, projectId: row.projectId, triggerType: trigger, runTime: now,
        targets: targets.length, sent, message, createTime: now, updateTime: now, status: 1, isDeleted: 0,
      })
      .execute();
    // Not a change of the strategy itself: updateTime stays, so the timer is not restarted.
    await db.updateTable('wit_collect_strategy').set({ lastRunTime: now }).where('id', '=', String(row.id)).execute();
    this.platform.events.emit('changed', 'wit_job_info');
  }

  private logError(error: unknown): void {
    if (this.closed) return;
    this.platform.logs.write('blade_log_error', { exceptionName: 'collectstrategy', message: error instanceof Error ? error.message : String(error), stackTrace: error instanceof Error ? error.stack : undefined });
  }
}
