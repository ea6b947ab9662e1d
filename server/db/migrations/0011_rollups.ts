import { type CreateTableBuilder, type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * Rollups of the time series (docs/live-and-history.md "Rollups"): min, max, sum, count, first and last of each
 * device channel per 10 minutes, hour and 6 hours, so a long chart reads a few thousand cells instead of every point.
 * Which hours of a device changed since they were rolled up is kept by triggers on wit_device_log itself, so no
 * writer — the ingestion, a correction, a purge, an operator's SQL — can leave a stale rollup behind unnoticed.
 */
/**
 * The advisory lock between writers of wit_device_log (shared) and the roller claiming marks (exclusive); the same
 * number as ROLLUP_LOCK in server/series/rollups.ts (a migration keeps its own copy: it must not change).
 */
const ROLLUP_LOCK = 73_400_011;

// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // Both tables are read by their key prefix: SQLite stores them in key order.
  const withoutRowid = <T extends string>(table: CreateTableBuilder<T>) => (sqlite ? table.modifyEnd(sql`without rowid`) : table);

  await withoutRowid(
    db.schema
      .createTable('wit_device_log_rollup')
      .addColumn('device_id', 'varchar(20)', (col) => col.notNull())
      .addColumn('point_key', 'varchar(64)', (col) => col.notNull())
      .addColumn('step', 'bigint', (col) => col.notNull())
      .addColumn('bucket', 'bigint', (col) => col.notNull())
      .addColumn('mn', 'double precision', (col) => col.notNull())
      .addColumn('mx', 'double precision', (col) => col.notNull())
      .addColumn('sm', 'double precision', (col) => col.notNull())
      .addColumn('n', 'bigint', (col) => col.notNull())
      .addColumn('t0', 'bigint', (col) => col.notNull())
      .addColumn('v0', 'double precision', (col) => col.notNull())
      .addColumn('t1', 'bigint', (col) => col.notNull())
      .addColumn('v1', 'double precision', (col) => col.notNull())
      .addPrimaryKeyConstraint('wit_device_log_rollup_pk', ['device_id', 'point_key', 'step', 'bucket']),
  ).execute();

  // Hours (epoch ms / 3,600,000) of a device whose points changed after their rollups were computed, and the hours
  // the roller has claimed and is recomputing (kept apart so a write during the recomputation marks the hour again).
  for (const table of ['wit_device_log_dirty', 'wit_device_log_rolling']) {
    await withoutRowid(
      db.schema
        .createTable(table)
        .addColumn('device_id', 'varchar(20)', (col) => col.notNull())
        .addColumn('hour', 'bigint', (col) => col.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['device_id', 'hour']),
    ).execute();
  }

  if (sqlite) {
    // Row triggers: one primary-key probe of a small table per written point. `on conflict do nothing`, not `insert or
    // ignore`: inside a trigger fired by an upsert, SQLite replaces `or ignore` with the outer statement's abort.
    const mark = (row: 'new' | 'old') => `insert into wit_device_log_dirty (device_id, hour) values (${row}.device_id, ${row}.ts / 3600000) on conflict do nothing;`;
    await sql.raw(`create trigger wit_device_log_inserted after insert on wit_device_log begin ${mark('new')} end`).execute(db);
    await sql.raw(`create trigger wit_device_log_updated after update on wit_device_log begin ${mark('old')} ${mark('new')} end`).execute(db);
    await sql.raw(`create trigger wit_device_log_deleted after delete on wit_device_log begin ${mark('old')} end`).execute(db);
  } else {
    // Statement triggers over the transition tables: one insert per statement, however many rows it wrote. Marks are
    // taken in key order so two writers never wait on each other's marks in opposite orders. Every writer holds the
    // shared side of an advisory lock until it commits; the roller claims marks under its exclusive side, so it
    // never claims a mark whose points a writer has not committed yet (server/series/rollups.ts).
    await sql
      .raw(
        `create function wit_device_log_mark() returns trigger language plpgsql as $$
        begin
          perform pg_advisory_xact_lock_shared(${ROLLUP_LOCK});
          if tg_op = 'INSERT' then
            insert into wit_device_log_dirty (device_id, hour)
              select distinct device_id, ts / 3600000 from new_rows order by 1, 2 on conflict do nothing;
          elsif tg_op = 'UPDATE' then
            insert into wit_device_log_dirty (device_id, hour)
              select device_id, ts / 3600000 from new_rows union select device_id, ts / 3600000 from old_rows order by 1, 2
              on conflict do nothing;
          else
            insert into wit_device_log_dirty (device_id, hour)
              select distinct device_id, ts / 3600000 from old_rows order by 1, 2 on conflict do nothing;
          end if;
          return null;
        end $$`,
      )
      .execute(db);
    await sql.raw(`create trigger wit_device_log_inserted after insert on wit_device_log referencing new table as new_rows for each statement execute function wit_device_log_mark()`).execute(db);
    await sql.raw(`create trigger wit_device_log_updated after update on wit_device_log referencing old table as old_rows new table as new_rows for each statement execute function wit_device_log_mark()`).execute(db);
    await sql.raw(`create trigger wit_device_log_deleted after delete on wit_device_log referencing old table as old_rows for each statement execute function wit_device_log_mark()`).execute(db);
  }

  // Points stored before this migration: every hour of theirs is to be rolled up.
  await sql`insert into wit_device_log_dirty (device_id, hour) select distinct device_id, ts / 3600000 from wit_device_log`.execute(db);
}
