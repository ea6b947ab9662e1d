import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database';
import { loose, type TableName } from '../db/tables';

/**
 * Deleting history for good (docs/data-model.md "Purging"). The series, its rollups and the raw messages of a project
 * or a tenant can be millions of rows: one statement over them would hold SQLite's write lock (and the ingestion
 * behind it) for as long as it runs. They are deleted a bounded chunk at a time instead, each chunk its own short
 * statement, before the purge's transaction, which then finds (almost) nothing of them left.
 */

/** Rows per statement: a few milliseconds of the write lock. */
export const PURGE_CHUNK = 5000;
/** Values per `in` list: far below the parameter limits of both databases. */
export const IN_LIST = 500;

export function slices<T>(values: readonly T[], size = IN_LIST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Deletes the rows of `table` whose `column` is one of `values`, PURGE_CHUNK rows a statement, found by their
 * primary key `key` (one seek per row of the chunk). Between chunks the event loop and other writers get their turn.
 */
export async function deleteInChunks(typed: Db, table: TableName, key: readonly string[], column: string, values: readonly string[]): Promise<number> {
  // Table, key and column are the caller's: the untyped view.
  const db = loose(typed);
  let deleted = 0;
  for (const slice of slices(values)) {
    for (;;) {
      const chunk = db.selectFrom(table).select([...key]).where(column, 'in', slice).limit(PURGE_CHUNK);
      const result = await db
        .deleteFrom(table)
        .where(sql<SqlBool>`(${sql.join(key.map((k) => sql.ref(k)))}) in (${chunk})`)
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < PURGE_CHUNK) break;
      await turn();
    }
  }
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
