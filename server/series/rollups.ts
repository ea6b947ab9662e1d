import { sql } from 'kysely';
import type { Db } from '../db/database';
import { type Cell, cellOfRow, cellsOfPoints, mergeInto } from './cells';
import type { Store } from './store';
import { slices } from '../db/slices';
import { nextTurn } from '../turn';

/**
 * Rollups of the time series (docs/live-and-history.md "Rollups"). Triggers on wit_device_log mark each hour of a
 * device whose points changed (wit_device_log_dirty). The roller claims closed marked hours (moves the marks to
 * wit_device_log_rolling), then recomputes each — its 10-minute and hour cells from the points, the 6-hour cell from
 * the hour cells — and drops the claim in the same transaction. Readers treat marked and claimed hours as stale and
 * read their points instead, so a chart is exact at every moment; a write during a recomputation marks the hour
 * again, and a claim a crash left behind is recomputed first on the next pass.
 */

/** The advisory lock of migration 0011's trigger: writers hold it shared until they commit, claims take it exclusive. */
export const ROLLUP_LOCK = 73_400_011;

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const ROLLUP_STEPS = [10 * MINUTE_MS, HOUR_MS, 6 * HOUR_MS] as const;
const [TEN_MINUTES, , SIX_HOURS] = ROLLUP_STEPS;

/**
 * The coarsest rollup step that serves buckets of about `bucketMs`: one that divides it, or one at most half of it
 * (rounding the bucket up to a multiple of the step then keeps at least half the buckets asked for).
 */
export function rollupStep(bucketMs: number): number | undefined {
  return ROLLUP_STEPS.filter((step) => step <= bucketMs && (bucketMs % step === 0 || 2 * step <= bucketMs)).at(-1);
}

/** What a dirty hour makes stale at a level of `step`: the hour itself, or the whole coarser cell holding it. */
export function staleSpans(hours: readonly number[], step: number): Array<[number, number]> {
  const span = Math.max(step, HOUR_MS);
  const starts = new Set(hours.map((hour) => Math.floor((hour * HOUR_MS) / span) * span));
  return [...starts].sort((a, b) => a - b).map((start) => [start, start + span]);
}

const CHUNK = 500;

/** Keys listed at most by rolledUpKeysOf when no limit is asked for (a device has tens). */
const MAX_KEYS = 1_000_000;

/**
 * The distinct keys of a device's rollups (keyed device, key, …): a skip scan, one seek per key, in one recursive
 * statement on both stores (a statement a key was a dozen round trips an hour on PostgreSQL).
 */
async function rolledUpKeysOf(db: Db, deviceId: string, limit: number): Promise<string[]> {
  const { rows } = await sql<{ pk: string }>`with recursive k (pk, n) as (
      select min(point_key), 1 from wit_device_log_rollup where device_id = ${deviceId}
      union all
      select (select min(r.point_key) from wit_device_log_rollup r where r.device_id = ${deviceId} and r.point_key > k.pk), k.n + 1
        from k where k.pk is not null and k.n < ${Math.min(limit, MAX_KEYS)}
    ) select pk from k where pk is not null order by pk`.execute(db);
  return rows.map((row) => row.pk);
}

/** The distinct keys among a device's points in [from, to): one primary-key range (device, time, key). */
async function keysBetween(db: Db, deviceId: string, from: number, to: number): Promise<string[]> {
  const rows = await db.selectFrom('wit_device_log').select('pointKey').distinct().where('deviceId', '=', deviceId).where('ts', '>=', from).where('ts', '<', to).execute();
  return rows.map((r) => r.pointKey);
}

/**
 * The keys a device has points of. The points are stored by (device, time, key), so their keys are not a cheap
 * scan; but every point is either rolled up (its key is in the rollups) or in an hour marked or claimed for rolling
 * up, whose points are read here.
 */
export async function keysOf(db: Db, deviceId: string, limit = 200): Promise<string[]> {
  const keys = new Set(await rolledUpKeysOf(db, deviceId, limit));
  const pending = await db
    .selectFrom('wit_device_log_dirty')
    .select('hour')
    .where('deviceId', '=', deviceId)
    .union(db.selectFrom('wit_device_log_rolling').select('hour').where('deviceId', '=', deviceId))
    .execute();
  // Runs of consecutive hours read as one range (a backlog just imported is one range, not thousands of hours).
  const hours = pending.map((p) => p.hour).sort((a, b) => a - b);
  for (let i = 0; i < hours.length; ) {
    let j = i;
    while (j + 1 < hours.length && hours[j + 1] === hours[j] + 1) j++;
    for (const key of await keysBetween(db, deviceId, hours[i] * HOUR_MS, (hours[j] + 1) * HOUR_MS)) keys.add(key);
    i = j + 1;
  }
  return [...keys].sort().slice(0, limit);
}

type CellRow = Omit<Cell, 't'> & { deviceId: string; pointKey: string; step: number; bucket: number };

const rowsOf = (deviceId: string, pointKey: string, step: number, cells: readonly Cell[]): CellRow[] =>
  cells.map(({ t, ...cell }) => ({ deviceId, pointKey, step, bucket: t, ...cell }));

/** Every key's cells in statements of CHUNK rows: one per key and step was most of an hour's statements. */
async function insertCells(db: Db, rows: readonly CellRow[]): Promise<void> {
  for (const slice of slices(rows, CHUNK)) await db.insertInto('wit_device_log_rollup').values(slice).execute();
}

async function deleteCells(db: Db, deviceId: string, keys: readonly string[], steps: readonly number[], from: number, to: number): Promise<void> {
  if (!keys.length) return;
  await db.deleteFrom('wit_device_log_rollup').where('deviceId', '=', deviceId).where('pointKey', 'in', keys).where('step', 'in', steps).where('bucket', '>=', from).where('bucket', '<', to).execute();
}

/** Recomputes the rollups of one hour of one device (inside the caller's transaction). */
async function rollUpHour(trx: Db, deviceId: string, hour: number): Promise<void> {
  // Keys with points in the hour, and keys with rollups whose points may all be gone.
  const from = hour * HOUR_MS;
  const to = from + HOUR_MS;
  // The hour's points are one primary-key range, in time order.
  const points = await trx.selectFrom('wit_device_log').select(['pointKey', 'ts', 'value']).where('deviceId', '=', deviceId).where('ts', '>=', from).where('ts', '<', to).orderBy('ts').orderBy('pointKey').execute();
  const keys = [...new Set([...points.map((p) => p.pointKey), ...(await rolledUpKeysOf(trx, deviceId, Number.POSITIVE_INFINITY))])];
  if (!keys.length) return;
  const byKey = new Map<string, Array<{ ts: number; value: number }>>();
  for (const p of points) {
    const key = p.pointKey;
    const list = byKey.get(key) ?? [];
    list.push({ ts: p.ts, value: p.value });
    byKey.set(key, list);
  }
  await deleteCells(trx, deviceId, keys, [TEN_MINUTES, HOUR_MS], from, to);
  const cells: CellRow[] = [];
  for (const [key, list] of byKey) {
    const tens = cellsOfPoints(list, TEN_MINUTES);
    cells.push(...rowsOf(deviceId, key, TEN_MINUTES, tens), ...rowsOf(deviceId, key, HOUR_MS, mergeInto(tens, HOUR_MS)));
  }
  await insertCells(trx, cells);

  const six = Math.floor(from / SIX_HOURS) * SIX_HOURS;
  const hours = await trx.selectFrom('wit_device_log_rollup').selectAll().where('deviceId', '=', deviceId).where('pointKey', 'in', keys).where('step', '=', HOUR_MS).where('bucket', '>=', six).where('bucket', '<', six + SIX_HOURS).execute();
  await deleteCells(trx, deviceId, keys, [SIX_HOURS], six, six + SIX_HOURS);
  const hourCells = new Map<string, Cell[]>();
  for (const r of hours) {
    const key = r.pointKey;
    hourCells.set(key, [...(hourCells.get(key) ?? []), cellOfRow(r)]);
  }
  await insertCells(trx, [...hourCells].flatMap(([key, cells]) => rowsOf(deviceId, key, SIX_HOURS, mergeInto(cells, SIX_HOURS))));
}

export interface RollupOptions {
  /** How often the roller looks for marked hours. */
  intervalMs: number;
  /** An hour is rolled up once it ended this long ago (late points re-mark it anyway). */
  graceMs: number;
  /** Longest stretch of work per tick, so ingestion and requests keep the event loop. */
  budgetMs: number;
  /** Shortest time between two roll-ups of the same hour. */
  quietMs: number;
}

const DEFAULTS: RollupOptions = { intervalMs: 2000, graceMs: MINUTE_MS, budgetMs: 250, quietMs: MINUTE_MS };
/** Marks read and claimed at a time. */
const PAGE = 50;

export interface Mark {
  deviceId: string;
  hour: number;
}

const markOf = (row: { deviceId: unknown; hour: unknown }): Mark => ({ deviceId: String(row.deviceId), hour: Number(row.hour) });

/**
 * Hours PostgreSQL recomputes side by side, each in its own transaction: an hour is a dozen round trips, and one at a
 * time the budget went on waiting for them (bench:rollups: 12 device-hours a second). SQLite's one writer takes them
 * in turn anyway.
 */
const POSTGRES_LANES = 4;

/**
 * The marks in order, in groups of up to `lanes` of distinct devices: two hours of one device share their 6-hour cell,
 * so they are never recomputed side by side.
 */
export function waves(marks: readonly Mark[], lanes: number): Mark[][] {
  const out: Mark[][] = [];
  let wave: Mark[] = [];
  for (const mark of marks) {
    if (wave.length === lanes || wave.some((m) => m.deviceId === mark.deviceId)) {
      out.push(wave);
      wave = [];
    }
    wave.push(mark);
  }
  if (wave.length) out.push(wave);
  return out;
}

export class Rollups {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  /** `device|hour` -> when it was last rolled up. */
  private readonly rolledAt = new Map<string, number>();
  private readonly options: RollupOptions;

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown) => void,
    options: Partial<RollupOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  start(): void {
    const tick = async () => {
      await this.roll(Math.floor((Date.now() - this.options.graceMs) / HOUR_MS), this.options.budgetMs).catch(this.onError);
      if (this.timer) this.timer = setTimeout(tick, this.options.intervalMs);
    };
    this.timer = setTimeout(tick, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Rolls up every marked hour that ended before `until` — all of them by default (tests and benchmarks settle). */
  async settle(until = Number.MAX_SAFE_INTEGER): Promise<number> {
    let total = 0;
    for (let done = -1; done !== 0; total += done) done = await this.roll(Math.floor(until / HOUR_MS), Number.POSITIVE_INFINITY, 0);
    return total;
  }

  /** Passes run one after another. */
  private roll(closedBefore: number, budgetMs: number, quietMs = this.options.quietMs): Promise<number> {
    const previous = this.running ?? Promise.resolve(0);
    const run = previous.catch(() => 0).then(() => this.pass(closedBefore, budgetMs, quietMs));
    this.running = run;
    void run.catch(() => undefined).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return run;
  }

  /**
   * Claims left behind first, then marked hours before `closedBefore`, oldest first, within the budget. An hour rolled
   * up less than `quietMs` ago waits: one still being written (a device uploading its backlog) is recomputed once per
   * interval, not on every pass.
   */
  private async pass(closedBefore: number, budgetMs: number, quietMs: number): Promise<number> {
    const started = Date.now();
    for (const [key, at] of this.rolledAt) if (started - at >= quietMs) this.rolledAt.delete(key);
    let done = 0;
    const work = async (marks: readonly Mark[]) => {
      for (const wave of waves(marks, this.store.dialect === 'postgres' ? POSTGRES_LANES : 1)) {
        await Promise.all(wave.map((mark) => this.recompute(mark)));
        // SQLite answers within the same turn: without a turn between hours, a pass held the event loop (and every
        // device's acknowledgement) for its whole budget, 250 ms every 2 s for minutes after each hour at 20,000 devices.
        await nextTurn();
        for (const mark of wave) if (quietMs > 0) this.rolledAt.set(`${mark.deviceId}|${mark.hour}`, Date.now());
        done += wave.length;
        if (Date.now() - started > budgetMs) return false;
      }
      return true;
    };
    const leftover = (await this.store.db.selectFrom('wit_device_log_rolling').select(['deviceId', 'hour']).limit(PAGE).execute()).map(markOf);
    if (!(await work(leftover))) return done;
    let after: Mark | undefined;
    for (;;) {
      let query = this.store.db.selectFrom('wit_device_log_dirty').select(['deviceId', 'hour']).where('hour', '<', closedBefore);
      if (after) {
        const { hour, deviceId } = after;
        query = query.where((eb) => eb.or([eb('hour', '>', hour), eb.and([eb('hour', '=', hour), eb('deviceId', '>', deviceId)])]));
      }
      const page = (await query.orderBy('hour').orderBy('deviceId').limit(PAGE).execute()).map(markOf);
      after = page.at(-1);
      const due = page.filter((mark) => !this.rolledAt.has(`${mark.deviceId}|${mark.hour}`));
      if (due.length && !(await work(await this.claim(due)))) return done;
      if (page.length < PAGE) return done;
    }
  }

  /**
   * Moves marks to the claimed table. In PostgreSQL under the exclusive side of the writers' advisory lock: a writer
   * whose trigger found the mark already there has committed by then, so the recomputation reads its points; a
   * writer after the claim finds no mark and marks the hour again. (SQLite's writers take turns on one lock,
   * server/db/sqlite-driver.ts: no writer is between its statement and its commit while this runs.)
   */
  private claim(marks: readonly Mark[]): Promise<Mark[]> {
    return this.store.db.transaction().execute(async (trx) => {
      if (this.store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${ROLLUP_LOCK})`.execute(trx);
      const taken = (
        await trx
          .deleteFrom('wit_device_log_dirty')
          .where((eb) => eb.or(marks.map((m) => eb.and([eb('deviceId', '=', m.deviceId), eb('hour', '=', m.hour)]))))
          .returning(['deviceId', 'hour'])
          .execute()
      ).map(markOf);
      if (taken.length) await trx.insertInto('wit_device_log_rolling').values(taken.map((m) => ({ ...m }))).onConflict((oc) => oc.doNothing()).execute();
      return taken;
    });
  }

  private async recompute(mark: Mark): Promise<void> {
    await this.store.db.transaction().execute(async (trx) => {
      await rollUpHour(trx, mark.deviceId, mark.hour);
      await trx.deleteFrom('wit_device_log_rolling').where('deviceId', '=', mark.deviceId).where('hour', '=', mark.hour).execute();
    });
  }
}
