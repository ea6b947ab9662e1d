import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * The time series keyed (device, time, key) instead of (device, key, time). A device sends all its channels at
 * one instant, so a reading's values are now neighbours: a batch of readings changes one index page per device
 * instead of one per device channel, and a commit writes a tenth of the pages (docs/benchmarks.md: 60k -> 90k points/s
 * on SQLite). One device's instant, one device-hour (the rollups) and one device's range (recalculation, pushes) are
 * single key ranges; reading one channel over a range reads the device's other channels of that range too, which
 * the rollups keep small for long charts (docs/live-and-history.md).
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table wit_device_log drop constraint wit_device_log_pk, add constraint wit_device_log_pk primary key (device_id, ts, point_key)`.execute(db);
    return;
  }
  // SQLite cannot change a primary key: the table is rebuilt (its rows copied in the new order) and its triggers,
  // which go with the old table, are created again exactly as migration 0011 made them.
  await sql`create table wit_device_log_new (
    device_id varchar(20) not null, point_key varchar(64) not null, ts bigint not null,
    value double precision not null, raw double precision not null, tenant_id varchar(12) not null,
    constraint wit_device_log_pk primary key (device_id, ts, point_key)) without rowid`.execute(db);
  await sql`insert into wit_device_log_new (device_id, point_key, ts, value, raw, tenant_id)
    select device_id, point_key, ts, value, raw, tenant_id from wit_device_log order by device_id, ts, point_key`.execute(db);
  await sql`drop table wit_device_log`.execute(db);
  await sql`alter table wit_device_log_new rename to wit_device_log`.execute(db);
  const mark = (row: 'new' | 'old') => `insert into wit_device_log_dirty (device_id, hour) values (${row}.device_id, ${row}.ts / 3600000) on conflict do nothing;`;
  await sql.raw(`create trigger wit_device_log_inserted after insert on wit_device_log begin ${mark('new')} end`).execute(db);
  await sql.raw(`create trigger wit_device_log_updated after update on wit_device_log begin ${mark('old')} ${mark('new')} end`).execute(db);
  await sql.raw(`create trigger wit_device_log_deleted after delete on wit_device_log begin ${mark('old')} end`).execute(db);
}
