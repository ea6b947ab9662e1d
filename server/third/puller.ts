import { PULL_STATE } from '../../resources/iot/third';
import type { Row } from '../db/database';
import { inUse } from '../db/in-use';
import { badRequest } from '../http/envelope';
import type { StoredReading } from '../ingest/types';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import type { ThirdConnections } from './connections';
import { type RemoteReading, ThirdError, type ThirdPlatform } from './types';
import { affects } from '../events';

/**
 * Pulls readings of bound devices from third-party platforms into the series (docs/third-party.md "Pulling data").
 * Each device binding remembers how far it has been pulled (`pulled_ts`); a pull goes on from there (less an overlap
 * for readings the remote stores late) to now, a day at a time, and stores what is new or changed through the
 * ingestion pipeline, so history, latest values and alarms see pulled readings like received ones. Every enabled
 * connection with an interval has a timer in this process; a failure is recorded on the connection and in the error
 * log and does not stop the others. A refused sign-in pauses the connection's timer until it is edited, so a wrong
 * password does not lock the remote account.
 */

const DAY_MS = 86_400_000;
/** A device never pulled starts this far back. */
export const FIRST_LOOKBACK_MS = DAY_MS;
/** Each pull reads again this far before where the last one ended. */
export const OVERLAP_MS = 10 * 60_000;
/** The longest range one call may ask for. */
export const MAX_RANGE_MS = 31 * DAY_MS;
const MAX_DELAY_MS = 2 ** 31 - 1;

/** How pulled readings are stored: the pipeline's entry for readings from elsewhere. */
export type StoreReadings = (readings: readonly StoredReading[]) => Promise<void>;

/**
 * Arms the timer of a connection's next periodic pull. `fire` resolves once that pull is done and the next one armed
 * (or the connection paused), so whoever fires it knows the pass has ended.
 */
export type PullTimer = (delayMs: number, fire: () => Promise<void>) => { stop(): void };

export interface PullerOptions {
  /** The periodic pulls' timers (tests: ones they fire themselves, instead of waiting for the interval). */
  timer?: PullTimer;
  /** The clock a pull's interval is claimed by across the deployment (tests: one their timers move). */
  now?: () => number;
}

const realTimer: PullTimer = (delayMs, fire) => {
  const timer = setTimeout(() => void fire(), Math.min(delayMs, MAX_DELAY_MS));
  timer.unref();
  return { stop: () => clearTimeout(timer) };
};

interface Scheduled {
  signature: string;
  timer?: { stop(): void };
}

export interface PullScope {
  /** Only the devices of this local project / of these projects (what the caller sees) / these local devices. */
  projectId?: string;
  projectIds?: readonly string[];
  deviceIds?: readonly string[];
  /** An explicit range (epoch ms); without it each device goes on from where it stopped. */
  from?: number;
  to?: number;
}

export interface PullResult {
  devices: number;
  /** Readings stored (new or changed on the remote). */
  readings: number;
  /** Readings pulled again that were already stored with the same value. */
  unchanged: number;
  startTime: string | null;
  endTime: string;
  /** Devices that could not be pulled (the others were). */
  failures: string[];
}

/** A device binding joined with its live local device. */
interface Target {
  id: string;
  tenantId: string;
  projectId: string;
  deviceId: string;
  deviceCode: string;
  thirdDeviceId: string;
  pulledTs: number | null;
}

/** Failures that concern the whole connection: the other devices would fail the same way. */
const isFatal = (error: unknown) => !(error instanceof ThirdError) || error.kind !== 'remote';
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class ThirdPuller {
  private readonly timers = new Map<string, Scheduled>();
  private readonly timer: PullTimer;
  private readonly now: () => number;
  /** The pull under way per connection: pulls of one connection run one after another. */
  private readonly running = new Map<string, Promise<unknown>>();
  private syncing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly onChanged = (table: string) => {
    if (affects(table, ['wit_third_param'])) void this.sync();
  };

  constructor(
    private readonly platform: Platform,
    private readonly store: StoreReadings,
    readonly connections: ThirdConnections,
    options: PullerOptions = {},
  ) {
    this.timer = options.timer ?? realTimer;
    this.now = options.now ?? Date.now;
  }

  /** Starts the timers of the enabled connections and follows every later change of them. */
  async start(): Promise<void> {
    this.platform.events.on('changed', this.onChanged);
    await this.sync();
  }

  /** Stops the timers and waits for the pulls under way (their remote calls end within the connection's timeout). */
  async stop(): Promise<void> {
    this.closed = true;
    this.platform.events.off('changed', this.onChanged);
    for (const id of [...this.timers.keys()]) this.unschedule(id);
    await Promise.allSettled([...this.running.values()]);
  }

  isScheduled(id: string): boolean {
    return this.timers.has(id);
  }

  /** Brings the timers in line with the stored connections (one reload at a time). */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.reload()).catch((error: unknown) => this.logError(undefined, error));
    return this.syncing;
  }

  /** Pulls one connection now (after any pull of it under way); the outcome is recorded on the connection. */
  pull(paramId: string, scope: PullScope = {}): Promise<PullResult> {
    const previous = this.running.get(paramId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.pullNow(paramId, scope));
    this.running.set(paramId, next);
    void next.catch(() => undefined).finally(() => {
      if (this.running.get(paramId) === next) this.running.delete(paramId);
    });
    return next;
  }

  private async reload(): Promise<void> {
    if (this.closed) return;
    const rows = await this.platform.db
      .selectFrom('wit_third_param')
      .select(['id', 'intervalSeconds', 'updateTime', 'tenantId'])
      .$call(inUse)
      .where('enabled', '=', 1)
      .where('intervalSeconds', '>', 0)
      .where('lastPullState', '<>', PULL_STATE.refused)
      .execute();
    if (this.closed) return;
    const wanted = new Map(rows.map((r) => [r.id, JSON.stringify([r.intervalSeconds, r.updateTime, r.tenantId])]));
    for (const [id, entry] of this.timers) if (wanted.get(id) !== entry.signature) this.unschedule(id);
    for (const [id, signature] of wanted) {
      if (this.timers.has(id)) continue;
      const row = rows.find((r) => r.id === id) as Row;
      const entry: Scheduled = { signature };
      this.timers.set(id, entry);
      this.arm(id, entry, Number(row.intervalSeconds) * 1000);
    }
  }

  private arm(id: string, entry: Scheduled, delayMs: number): void {
    entry.timer = this.timer(delayMs, () => this.fire(id, entry, delayMs));
  }

  /**
   * One periodic pull; the next is armed when it is done, so slow pulls never pile up. Every process of a deployment
   * arms it: the one that claims the interval first pulls.
   */
  private async fire(id: string, entry: Scheduled, delayMs: number): Promise<void> {
    if (this.timers.get(id) !== entry || this.closed) return;
    const claimed = await this.platform.leases.claim(`third-pull:${id}`, Math.floor(this.now() / delayMs)).catch((error: unknown) => this.logError(undefined, error));
    if (claimed) await this.pull(id).catch(() => undefined); // recorded on the connection
    if (this.timers.get(id) !== entry || this.closed) return;
    this.arm(id, entry, delayMs);
    // A refused sign-in has just paused the connection: the reload drops its timer.
    await this.sync();
  }

  private unschedule(id: string): void {
    this.timers.get(id)?.timer?.stop();
    this.timers.delete(id);
  }

  private async pullNow(paramId: string, scope: PullScope): Promise<PullResult> {
    const param = await this.platform.db.selectFrom('wit_third_param').selectAll().where('id', '=', paramId).where('isDeleted', '=', 0).executeTakeFirst();
    if (!param) throw badRequest('第三方参数不存在或无权操作');
    const to = scope.to ?? Date.now();
    const result: PullResult = { devices: 0, readings: 0, unchanged: 0, startTime: null, endTime: formatDateTime(new Date(to)), failures: [] };
    const byProject = new Map<string, number>();
    try {
      const targets = await this.targets(param, scope);
      result.devices = targets.length;
      const remote = this.connections.of(param);
      // A refused sign-in or an unreachable platform fails the whole pull at once, before any device (and a
      // connection with nothing bound yet still learns whether it works).
      await remote.connect();
      let earliest = Number.POSITIVE_INFINITY;
      for (const target of targets) {
        const from = scope.from ?? (target.pulledTs !== null ? target.pulledTs - OVERLAP_MS : to - FIRST_LOOKBACK_MS);
        earliest = Math.min(earliest, from);
        try {
          const { stored, unchanged } = await this.pullDevice(remote, target, from, to, scope);
          result.readings += stored;
          result.unchanged += unchanged;
          byProject.set(target.projectId, (byProject.get(target.projectId) ?? 0) + stored);
        } catch (error) {
          if (isFatal(error)) throw error;
          result.failures.push(`${target.deviceCode}: ${messageOf(error)}`);
        }
      }
      if (Number.isFinite(earliest)) result.startTime = formatDateTime(new Date(earliest));
    } catch (error) {
      await this.record(param, error instanceof ThirdError && error.kind === 'login' ? PULL_STATE.refused : PULL_STATE.failed, messageOf(error));
      this.logError(param, error);
      throw error;
    }
    await this.recordProjects(param.id, byProject);
    const summary = `拉取 ${result.devices} 台设备,新增或更新 ${result.readings} 条数据`;
    if (result.failures.length) {
      const message = `${summary};${result.failures.length} 台失败: ${result.failures.join('; ')}`;
      await this.record(param, PULL_STATE.failed, message);
      this.logError(param, new Error(message));
    } else {
      await this.record(param, PULL_STATE.ok, summary);
    }
    return result;
  }

  /** The live bound devices of a connection (of its tenant, enabled, in live projects still bound), within the scope. */
  private async targets(param: Row, scope: PullScope): Promise<Target[]> {
    const db = this.platform.db;
    const tenantId = String(param.tenantId);
    let qb = db.selectFrom('wit_third_device').selectAll().where('thirdParamId', '=', String(param.id)).where('tenantId', '=', tenantId).where('isDeleted', '=', 0);
    if (scope.projectId) qb = qb.where('projectId', '=', scope.projectId);
    if (scope.projectIds) qb = scope.projectIds.length ? qb.where('projectId', 'in', [...scope.projectIds]) : qb.where('id', '=', '-1');
    if (scope.deviceIds) qb = scope.deviceIds.length ? qb.where('deviceId', 'in', [...scope.deviceIds]) : qb.where('id', '=', '-1');
    const bindings = await qb.orderBy('id').execute();
    if (bindings.length === 0) return [];
    const projects = new Set(
      (
        await db
          .selectFrom('wit_third_project')
          .select('projectId')
          .where('thirdParamId', '=', String(param.id))
          .where('isDeleted', '=', 0)
          .where('projectId', 'in', db.selectFrom('wit_project').select('id').where('isDeleted', '=', 0))
          .execute()
      ).map((r) => r.projectId),
    );
    const devices = await db
      .selectFrom('wit_device')
      .select(['id', 'code', 'projectId'])
      .where('id', 'in', bindings.map((b) => b.deviceId))
      .where('tenantId', '=', tenantId)
      .$call(inUse)
      .execute();
    const byId = new Map(devices.map((d) => [d.id, d]));
    return bindings.flatMap((b): Target[] => {
      const d = byId.get(b.deviceId);
      if (!d || !projects.has(b.projectId)) return [];
      const pulled = b.pulledTs === null || b.pulledTs === undefined ? null : b.pulledTs;
      return [{ id: b.id, tenantId, projectId: String(d.projectId ?? b.projectId), deviceId: d.id, deviceCode: d.code, thirdDeviceId: b.thirdDeviceId, pulledTs: pulled }];
    });
  }

  /**
   * One device over [from, to], a day at a time. The binding's mark moves on after each day when the range joins
   * up with where it stood (a manual pull of an earlier period leaves it alone).
   */
  private async pullDevice(remote: ThirdPlatform, target: Target, from: number, to: number, scope: PullScope): Promise<{ stored: number; unchanged: number }> {
    const advances = scope.from === undefined || target.pulledTs === null || scope.from <= target.pulledTs;
    let stored = 0;
    let unchanged = 0;
    for (let start = from, end = Math.min(to, from + DAY_MS); start <= to; start = end + 1, end = Math.min(to, start + DAY_MS)) {
      const pulled = await remote.readings(target.thirdDeviceId, start, end);
      const fresh = await this.changedOnly(target.deviceId, pulled);
      unchanged += pulled.length - fresh.length;
      await this.store(
        fresh.map((r) => ({ tenantId: target.tenantId, projectId: target.projectId, deviceId: target.deviceId, deviceCode: target.deviceCode, pointKey: r.pointKey, ts: r.ts, value: r.value, raw: r.raw })),
      );
      stored += fresh.length;
      const now = formatDateTime();
      let update = this.platform.db.updateTable('wit_third_device').set({ lastPullTime: now }).where('id', '=', target.id);
      if (advances && (target.pulledTs === null || end > target.pulledTs)) {
        update = this.platform.db.updateTable('wit_third_device').set({ lastPullTime: now, pulledTs: end }).where('id', '=', target.id);
        target.pulledTs = end;
      }
      await update.execute();
    }
    return { stored, unchanged };
  }

  /** The readings not already stored with the same value and raw value: a reading pulled again is not announced again. */
  private async changedOnly(deviceId: string, readings: RemoteReading[]): Promise<RemoteReading[]> {
    if (readings.length === 0) return readings;
    const stored = await this.platform.db
      .selectFrom('wit_device_log')
      .select(['pointKey', 'ts', 'value', 'raw'])
      .where('deviceId', '=', deviceId)
      .where('ts', '>=', readings[0].ts)
      .where('ts', '<=', readings[readings.length - 1].ts)
      .execute();
    const key = (pointKey: unknown, ts: unknown, value: unknown, raw: unknown) => `${String(pointKey)}\u0000${Number(ts)}\u0000${Number(value)}\u0000${Number(raw)}`;
    const have = new Set(stored.map((r) => key(r.pointKey, r.ts, r.value, r.raw)));
    return readings.filter((r) => !have.has(key(r.pointKey, r.ts, r.value, r.raw)));
  }

  private async record(param: Row, state: number, message: string): Promise<void> {
    await this.platform.db
      .updateTable('wit_third_param')
      .set({ lastPullTime: formatDateTime(), lastPullState: state, lastPullMessage: message.slice(0, 2000) })
      .where('id', '=', String(param.id))
      .execute();
    // Paused at once, whether the refusal came from a periodic pull or from one asked for.
    if (state === PULL_STATE.refused) await this.sync();
  }

  private async recordProjects(paramId: string, byProject: ReadonlyMap<string, number>): Promise<void> {
    const now = formatDateTime();
    for (const [projectId, count] of byProject) {
      await this.platform.db
        .updateTable('wit_third_project')
        .set({ lastPullTime: now, lastPullCount: count })
        .where('thirdParamId', '=', paramId)
        .where('projectId', '=', projectId)
        .where('isDeleted', '=', 0)
        .execute();
    }
  }

  private logError(param: Row | undefined, error: unknown): void {
    if (this.closed) return;
    this.platform.logs.write('blade_log_error', {
      tenantId: param ? String(param.tenantId) : '000000',
      exceptionName: error instanceof ThirdError ? `ThirdPull:${error.kind}` : 'ThirdPull',
      message: param ? `第三方平台「${String(param.name)}」拉取失败: ${messageOf(error)}` : messageOf(error),
      requestUri: param ? String(param.baseUrl) : undefined,
      params: param ? JSON.stringify({ thirdParamId: String(param.id) }) : undefined,
      stackTrace: error instanceof ThirdError ? undefined : error instanceof Error ? error.stack : undefined,
    });
  }
}
