import { formatDateTime } from '../../time';
import type { Db, Row } from '../database';
import { loose } from '../tables';
import { seedId } from './ids';
import { slices } from '../slices';

/**
 * A numbered seed step (server/db/seed.ts). It runs once per store, in one transaction with the record that it ran;
 * `db` is that transaction.
 */
export interface SeedStep {
  /** `NNNN_what`, in order; a shipped step is never renamed, reordered or removed. */
  name: string;
  run(db: Db): Promise<void>;
}

function auditColumns(): Row {
  const now = formatDateTime();
  return { createUser: seedId('user:000000:admin'), createTime: now, updateTime: now, status: 1, isDeleted: 0 };
}

/** Inserts rows as they are (with the base columns unless `withBase` is false): for steps that run on an empty store. */
export async function insertRows(db: Db, table: string, rows: readonly Row[], withBase = true): Promise<void> {
  const base = withBase ? auditColumns() : {};
  for (const slice of slices(rows, 100)) {
    // Steps name their tables as data: the untyped view.
    await loose(db).insertInto(table).values(slice.map((row) => ({ ...base, ...row }))).execute();
  }
}

/** The ids of rows by their natural key, the values of the key columns in order (compared as text). */
export class NaturalIds {
  private readonly ids = new Map<string, string>();

  static key(values: readonly unknown[]): string {
    return JSON.stringify(values.map((value) => String(value ?? '')));
  }

  set(values: readonly unknown[], id: string): void {
    if (!this.ids.has(NaturalIds.key(values))) this.ids.set(NaturalIds.key(values), id);
  }

  get(...values: unknown[]): string | undefined {
    return this.ids.get(NaturalIds.key(values));
  }
}

/**
 * Inserts the rows whose natural key (`keys`, camelCase columns, never null) no row holds yet, live or soft-deleted:
 * what an administrator removed stays removed, what they changed stays changed. Returns the id of every key's row,
 * existing or inserted, so a step can attach children to rows it did not insert. This is how a step adds to a store
 * that has data; ids are never the test, since an administrator's write may hold the same key under another id.
 */
export async function insertMissing(db: Db, table: string, keys: readonly [string, ...string[]], rows: readonly Row[], withBase = true): Promise<NaturalIds> {
  const ids = new NaturalIds();
  const keyValues = (row: Row) => keys.map((k) => row[k]);
  const firsts = [...new Set(rows.map((row) => row[keys[0]]))];
  for (const slice of slices(firsts)) {
    const found = await loose(db).selectFrom(table).select(['id', ...keys]).where(keys[0], 'in', slice).execute();
    for (const row of found) ids.set(keyValues(row), String(row.id));
  }
  const missing: Row[] = [];
  for (const row of rows) {
    if (ids.get(...keyValues(row)) !== undefined) continue; // taken, or repeated within the call: the first one wins
    ids.set(keyValues(row), String(row.id));
    missing.push(row);
  }
  await insertRows(db, table, missing, withBase);
  return ids;
}
