import { createRequire } from 'node:module';
import { serverFile } from '../files';
import type { Db } from '../db/database';
import type { OnConflictBuilder } from 'kysely';
import { type DayColumn, type LooseSchema, loose } from '../db/tables';
import type { SeriesRow } from '../ingest/store';
import type { Platform } from '../platform';
import { slices } from '../db/slices';

/** The database and its dialect (the platform, or an open Database in the benchmark). */
export type Store = Pick<Platform, 'db' | 'dialect'>;

/** A counter row as tally.cjs gives it: the key's values, the total, then the counts of days 1…31. */
type CounterRow = Array<string | number>;
/** One statement's parameters of PostgreSQL's counter upsert: an array per key column, then the days and the counts. */
type CounterColumns = Array<Array<string | number>>;

/** A counter table, its key, and whether its rows are striped by writer connection. */
interface Counter {
  table: 'wit_device_points' | 'wit_project_points';
  key: readonly string[];
  striped: boolean;
}

/** server/db/tally.cjs: the one implementation of counting stored points, shared with the writer threads. */
export interface TallyModule {
  DAYS: readonly DayColumn[];
  COUNTERS: ReadonlyArray<Counter>;
  /** The columns a counter row is unique by: its key, then its stripe where it has one (the stripe defaults to 0). */
  uniqueBy(counter: Counter): readonly string[];
  /** PostgreSQL's statement of `dayRounds()`'s parameters, then the stripe of a striped counter. */
  upsertDaysArraySql(counter: Counter): string;
  NO_PROJECT: string;
  ALL_PROJECTS: string;
  monthDay(ts: number): { month: string; day: number };
  Tally: new () => {
    add(device: string, tenant: string, project: string | null, ts: number): void;
    readonly empty: boolean;
    rows(): CounterRow[][];
    /** Per counter table, the statements' parameters in rounds (PostgreSQL's writer thread). */
    dayRounds(): CounterColumns[][];
  };
}

export const tally = createRequire(import.meta.url)(serverFile('db/tally.cjs')) as TallyModule;

/** Rows a statement: 5 parameters each, below SQLite's 32,766. */
const CHUNK = 4000;

const keyOf = (r: Pick<SeriesRow, 'deviceId' | 'ts' | 'pointKey'>) => `${r.deviceId}\u0000${r.ts}\u0000${r.pointKey}`;

/**
 * Stores points of the series within the caller's transaction (or as one statement a chunk on `db`) and counts the
 * new ones per device and project and day, exactly as the ingestion's writer thread does (`SeriesWriter.write`,
 * server/ingest/store.ts): seeds, and values added by hand. A point already stored is overwritten and not counted
 * again; of two copies of a point the last wins. Returns how many points were new.
 */
export async function storeSeries(db: Db, rows: readonly SeriesRow[]): Promise<number> {
  const latest = new Map<string, SeriesRow>();
  for (const r of rows) latest.set(keyOf(r), r);
  const unique = [...latest.values()];
  const counted = new tally.Tally();
  let fresh = 0;
  for (const chunk of slices(unique, CHUNK)) {
    const inserted = await db
      .insertInto('wit_device_log')
      .values(chunk.map((r) => ({ deviceId: r.deviceId, pointKey: r.pointKey, ts: r.ts, value: r.value, raw: r.raw })))
      .onConflict((oc) => oc.columns(['deviceId', 'ts', 'pointKey']).doNothing())
      .returning(['deviceId', 'ts', 'pointKey'])
      .execute();
    const added = new Set(inserted.map((r) => keyOf({ deviceId: r.deviceId, ts: Number(r.ts), pointKey: r.pointKey })));
    for (const r of chunk) {
      if (added.has(keyOf(r))) {
        counted.add(r.deviceId, r.tenantId, r.projectId, r.ts);
        fresh += 1;
      } else {
        await db.updateTable('wit_device_log').set({ value: r.value, raw: r.raw }).where('deviceId', '=', r.deviceId).where('ts', '=', r.ts).where('pointKey', '=', r.pointKey).execute();
      }
    }
  }
  await addCounts(db, counted.rows());
  return fresh;
}

/** Adds counter rows (tally.cjs: per device, per project — stripe 0) to their tables, in key order. */
async function addCounts(db: Db, [devices, projects]: CounterRow[][]): Promise<void> {
  // The day columns are named from tally.cjs's list at run time: the untyped view. 35 parameters a row at most: 500
  // rows stay below both databases' limits.
  const [byDevice, byProject] = tally.COUNTERS;
  for (const slice of slices(devices)) {
    await loose(db).insertInto('wit_device_points').values(counterValues(byDevice.key, slice)).onConflict(adding('wit_device_points', tally.uniqueBy(byDevice))).execute();
  }
  for (const slice of slices(projects)) {
    await loose(db).insertInto('wit_project_points').values(counterValues(byProject.key, slice)).onConflict(adding('wit_project_points', tally.uniqueBy(byProject))).execute();
  }
}

const ADDED = ['total', ...tally.DAYS] as const;

/** Counter rows as column values. */
const counterValues = (key: readonly string[], rows: CounterRow[]) => {
  const columns = [...key.map(camel), ...ADDED];
  return rows.map((row) => Object.fromEntries(columns.map((column, c) => [column, row[c]])));
};

/** On a counter row already there, its counts are added to. */
const adding =
  (table: string, key: readonly string[]) =>
  (oc: OnConflictBuilder<LooseSchema, string>) =>
    oc.columns(key.map(camel)).doUpdateSet((eb) => Object.fromEntries(ADDED.map((c) => [c, eb(eb.ref(`${table}.${c}`), '+', eb.ref(`excluded.${c}`))])));

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
