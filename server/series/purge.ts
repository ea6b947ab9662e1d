import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database';
import { type LooseSchema, loose, type TableName } from '../db/tables';
import { slices } from '../db/slices';
import { nextTurn } from '../turn';

/**
 * Deleting history for good (docs/data-model.md "Purging"). The series, its rollups and the raw messages of a project
 * or a tenant can be millions of rows: one statement over them would hold SQLite's write lock (and the ingestion
 * behind it) for as long as it runs. They are deleted a bounded chunk at a time instead, each chunk its own short
 * transaction, before the purge's transaction, which then finds (almost) nothing of them left. A tenant purge deletes
 * every table of the tenant so (deleteInBatches).
 */

/** Rows per statement: a few milliseconds of the write lock. */
export const PURGE_CHUNK = 5000;


/** Which rows of a table a purge deletes: a condition on the untyped view. */
export type PurgeCondition = (eb: ExpressionBuilder<LooseSchema, string>) => Expression<SqlBool>;

/**
 * The statement of one batch: the rows of `table` that `where` names, `limit` at most, found by the table's primary key
 * `key` (one seek per row). Exported so that tests can show its plan (tests/integration/monitoring/purge-indexes.test.ts).
 */
export function batchDelete(typed: Db, table: string, key: readonly string[], where: PurgeCondition, limit = PURGE_CHUNK) {
  // Table, key and condition are the caller's: the untyped view.
  const db = loose(typed);
  const chunk = db.selectFrom(table).select([...key]).where(where).limit(limit);
  return db.deleteFrom(table).where(sql<SqlBool>`(${sql.join(key.map((k) => sql.ref(k)))}) in (${chunk})`);
}

/**
 * Deletes the rows of `table` that `where` names, PURGE_CHUNK rows a batch, each batch its own short transaction;
 * `onBatch` runs inside it (a purge records its progress there, so what it says is what was deleted). Between
 * batches the event loop and other writers get their turn. Returns how many rows were deleted.
 */
export async function deleteInBatches(db: Db, table: string, key: readonly string[], where: PurgeCondition, onBatch?: (trx: Db, deleted: number) => Promise<void>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const result = await batchDelete(trx, table, key, where).executeTakeFirst();
      const count = Number(result.numDeletedRows);
      if (count > 0) await onBatch?.(trx, count);
      return count;
    });
    deleted += n;
    if (n < PURGE_CHUNK) return deleted;
    await nextTurn();
  }
}

/**
 * Deletes the rows of `table` whose `column` is one of `values`, PURGE_CHUNK rows a statement, found by their
 * primary key `key` (one seek per row of the chunk).
 */
export async function deleteInChunks(db: Db, table: TableName, key: readonly string[], column: string, values: readonly string[], onBatch?: (trx: Db, deleted: number) => Promise<void>): Promise<number> {
  let deleted = 0;
  for (const slice of slices(values)) deleted += await deleteInBatches(db, table, key, (eb) => eb(column, 'in', slice), onBatch);
  return deleted;
}

/**
 * Inside a purge's transaction, once the devices' points and rollups are gone: their hours marked for rolling up are
 * dropped, and the hours the roller is recomputing right now are marked again, so that whatever such a recomputation
 * writes after this is recomputed from no points, that is removed (server/series/rollups.ts).
 */
export async function forgetMarks(trx: Db, deviceIds: readonly string[]): Promise<void> {
  for (const slice of slices(deviceIds)) {
    await trx.deleteFrom('wit_device_log_dirty').where('deviceId', 'in', slice).execute();
    await trx
      .insertInto('wit_device_log_dirty')
      .columns(['deviceId', 'hour'])
      .expression(trx.selectFrom('wit_device_log_rolling').select(['deviceId', 'hour']).where('deviceId', 'in', slice))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
