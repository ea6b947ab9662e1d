import { sql } from 'kysely';
import type { Db } from '../db/database';
import { type Cell, cellOfRow, mergeInto } from './cells';
import { HOUR_MS, rollupStep, staleSpans } from './rollups';
import type { Store } from './store';

/**
 * Reading the time series for charts (docs/live-and-history.md): a range holding more points than the chart has
 * pixels comes back as about `width` buckets of min, max, avg, first and last, so a spike survives as a bucket's
 * max. Long ranges are answered from the rollups, with the edges of the range and any hour changed since its rollup
 * read from the points themselves.
 */

/** One bucket: start time, min, max, avg, first, last, number of points. */
export type Bucket = [t: number, min: number, max: number, avg: number, first: number, last: number, count: number];

export interface Sampled {
  /** 0 when the points are raw. */
  bucketMs: number;
  /** Points in the range. */
  count: number;
  /** [time, value]: the raw points, or each bucket's average. */
  data: Array<[number, number]>;
  buckets?: Bucket[];
}

export interface SeriesRange {
  deviceId: string;
  pointKey: string;
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, inclusive. */
  end: number;
}

/** More separate stretches of points than this, or more than this share of the range, and all of it is read raw. */
const MAX_RAW_STRETCHES = 24;
const MAX_RAW_SHARE = 0.5;

/** Up to `limit` raw points of the range, in time order. */
async function rawPoints(db: Db, range: SeriesRange, limit: number): Promise<Array<[number, number]>> {
  const rows = await db
    .selectFrom('wit_device_log')
    .select(['ts', 'value'])
    .where('deviceId', '=', range.deviceId)
    .where('pointKey', '=', range.pointKey)
    .where('ts', '>=', range.start)
    .where('ts', '<=', range.end)
    .orderBy('ts')
    .limit(limit)
    .execute();
  return rows.map((r) => [r.ts, r.value]);
}

interface GroupRow {
  b: number;
  mn: number;
  mx: number;
  sm: number;
  n: number;
  t0: number;
  t1: number;
}

/**
 * The points of the range grouped into cells of `span` ms aligned to multiples of it since the epoch (so a zoom
 * shares boundaries with the range it zooms into). Two statements: group by floor(ts / span) over the primary-key
 * range, then the first and last values by primary-key lookups. (One statement joining them back misleads
 * PostgreSQL's estimates into hash joins and JIT.)
 */
export async function pointCells(store: Store, range: SeriesRange, span: number): Promise<Cell[]> {
  const origin = Math.floor(range.start / span) * span;
  // Integers we computed, inlined so both dialects do integer division on bigint ts. sum, not avg: PostgreSQL's
  // float avg also accumulates the sum of squares.
  const [o, b] = [sql.lit(origin), sql.lit(span)];
  const grouping = sql<GroupRow>`
    select (ts - ${o}) / ${b} as b, min(value) as mn, max(value) as mx, sum(value) as sm, count(*) as n, min(ts) as t0, max(ts) as t1
    from wit_device_log
    where device_id = ${range.deviceId} and point_key = ${range.pointKey} and ts >= ${range.start} and ts <= ${range.end}
    group by 1
    order by 1`;
  // PostgreSQL cannot know the bucket count (it guesses one group per row): with the default 4 MB of work memory it
  // sorts on disk; 64 MB for this statement lets it hash in memory, a quarter faster.
  const { rows } =
    store.dialect === 'postgres'
      ? await store.db.transaction().execute(async (trx) => {
          await sql`set local work_mem = '64MB'`.execute(trx);
          return grouping.execute(trx);
        })
      : await grouping.execute(store.db);
  const ends = [...new Set(rows.flatMap((r) => [Number(r.t0), Number(r.t1)]))];
  // One parameter for all of them: an array in PostgreSQL (a subquery per element, so each is a primary-key seek; a
  // plain `= any(array)` scans the whole key), a JSON list in SQLite.
  const found =
    store.dialect === 'postgres'
      ? await sql<{ ts: number; value: number }>`
          select e.t as ts, (select value from wit_device_log where device_id = ${range.deviceId} and point_key = ${range.pointKey} and ts = e.t) as value
          from unnest(${ends}::bigint[]) as e(t)`.execute(store.db)
      : await sql<{ ts: number; value: number }>`
          select ts, value from wit_device_log
          where device_id = ${range.deviceId} and point_key = ${range.pointKey} and ts in (select value from json_each(${JSON.stringify(ends)}))`.execute(store.db);
  const valueAt = new Map(found.rows.map((row) => [Number(row.ts), Number(row.value)]));
  return rows.map((r) => {
    const [t0, t1] = [Number(r.t0), Number(r.t1)];
    return { t: origin + Number(r.b) * span, mn: Number(r.mn), mx: Number(r.mx), sm: Number(r.sm), n: Number(r.n), t0, v0: valueAt.get(t0) ?? Number.NaN, t1, v1: valueAt.get(t1) ?? Number.NaN };
  });
}

/** Hours of a device between two hours (inclusive, exclusive) whose rollups are stale: marked, or being recomputed. */
async function dirtyHours(db: Db, deviceId: string, fromHour: number, toHour: number): Promise<number[]> {
  const of = (table: 'wit_device_log_dirty' | 'wit_device_log_rolling') => db.selectFrom(table).select('hour').where('deviceId', '=', deviceId).where('hour', '>=', fromHour).where('hour', '<', toHour);
  const rows = await of('wit_device_log_dirty').union(of('wit_device_log_rolling')).execute();
  return rows.map((r) => r.hour);
}

/** Stretches [from, to] (inclusive) joined where they touch. */
function joined(stretches: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of stretches.sort((x, y) => x[0] - y[0])) {
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * Cells of `span` (a multiple of `step`) over the range from the rollups of `step`: whole cells inside the range
 * that are clean come from wit_device_log_rollup; the range's ragged edges and every stale cell from the points.
 */
async function rolledUpCells(store: Store, range: SeriesRange, span: number, step: number): Promise<Cell[]> {
  const first = Math.ceil(range.start / step) * step;
  const end = Math.floor((range.end + 1) / step) * step;
  const everything = () => pointCells(store, range, span);
  if (end - first < step) return everything();
  const stale = staleSpans(await dirtyHours(store.db, range.deviceId, Math.floor(first / HOUR_MS) - 6, Math.ceil(end / HOUR_MS) + 6), step)
    .map(([from, to]): [number, number] => [Math.max(from, first), Math.min(to, end) - 1])
    .filter(([from, to]) => from <= to);
  const stretches = joined([...(first > range.start ? [[range.start, first - 1] as [number, number]] : []), ...stale, ...(end <= range.end ? [[end, range.end] as [number, number]] : [])]);
  const rawShare = stretches.reduce((sum, [from, to]) => sum + to - from + 1, 0) / (range.end - range.start + 1);
  if (stretches.length > MAX_RAW_STRETCHES || rawShare > MAX_RAW_SHARE) return everything();

  const isStale = (t: number) => stale.some(([from, to]) => t >= from && t <= to);
  const rollups = await store.db
    .selectFrom('wit_device_log_rollup')
    .select(['bucket', 'mn', 'mx', 'sm', 'n', 't0', 'v0', 't1', 'v1'])
    .where('deviceId', '=', range.deviceId)
    .where('pointKey', '=', range.pointKey)
    .where('step', '=', step)
    .where('bucket', '>=', first)
    .where('bucket', '<', end)
    .execute();
  const cells: Cell[] = rollups.map(cellOfRow).filter((cell) => !isStale(cell.t));
  for (const [from, to] of stretches) cells.push(...(await pointCells(store, { ...range, start: from, end: to }, span)));
  return mergeInto(cells, span);
}

/** Whether the range holds more than `limit` points, without reading them. */
async function moreThan(db: Db, range: SeriesRange, limit: number): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from (
      select 1 from wit_device_log
      where device_id = ${range.deviceId} and point_key = ${range.pointKey} and ts >= ${range.start} and ts <= ${range.end}
      limit ${limit + 1}
    ) p`.execute(db);
  return Number(rows[0]?.n ?? 0) > limit;
}

/**
 * Buckets of about `bucketMs`: rounded up to a multiple of the rollup step that serves them (so at most the asked
 * number of buckets, and at least half of it), aligned to multiples of the bucket since the epoch.
 */
export async function bucketed(store: Store, range: SeriesRange, bucketMs: number): Promise<Sampled> {
  const step = rollupStep(bucketMs);
  const span = step ? Math.ceil(bucketMs / step) * step : bucketMs;
  const cells = step ? await rolledUpCells(store, range, span, step) : await pointCells(store, range, span);
  const buckets = cells.map((c): Bucket => [c.t, c.mn, c.mx, c.sm / c.n, c.v0, c.v1, c.n]);
  return { bucketMs: span, count: cells.reduce((sum, c) => sum + c.n, 0), data: buckets.map((b) => [b[0], b[3]]), buckets };
}

/** Raw points when the range holds at most `width` of them; otherwise about `width` buckets. */
export async function sampled(store: Store, range: SeriesRange, width: number): Promise<Sampled> {
  if (!(await moreThan(store.db, range, width))) {
    const raw = await rawPoints(store.db, range, width);
    return { bucketMs: 0, count: raw.length, data: raw };
  }
  return bucketed(store, range, Math.max(1, Math.ceil((range.end - range.start + 1) / width)));
}

/** Hourly aggregates (hours since the epoch: local hours wherever the zone's offset is whole hours). */
export function hourly(store: Store, range: SeriesRange): Promise<Sampled> {
  return bucketed(store, range, HOUR_MS);
}
