import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/**
 * Ingestion: the time series (one row per device, channel and instant), the raw messages as received, command
 * pushes, and the audit of corrected values.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  let series = db.schema
    .createTable('wit_device_log')
    .addColumn('device_id', 'varchar(20)', (col) => col.notNull())
    .addColumn('point_key', 'varchar(64)', (col) => col.notNull())
    .addColumn('ts', 'bigint', (col) => col.notNull())
    .addColumn('value', 'double precision', (col) => col.notNull())
    .addColumn('raw', 'double precision', (col) => col.notNull())
    .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
    .addPrimaryKeyConstraint('wit_device_log_pk', ['device_id', 'point_key', 'ts']);
  // Rows are read by (device, channel, time range): store them in that order.
  if (sqlite) series = series.modifyEnd(sql`without rowid`);
  await series.execute();

  await createTable(db, 'wit_collect_data', true, [
    c('device_id', 'id'),
    c('gateway_id', 'id'),
    c('device_code', 'text'),
    c('topic', 'text', { notNull: true }),
    c('payload', 'longtext', { notNull: true }),
    c('received_at', 'bigint', { notNull: true }),
    c('readings', 'int', { notNull: true, default: 0 }),
    c('error', 'longtext'),
  ]);
  await createIndex(db, 'wit_collect_data', ['tenant_id', 'received_at']);
  await createIndex(db, 'wit_collect_data', ['device_id', 'received_at']);
  await createIndex(db, 'wit_collect_data', ['gateway_id', 'received_at']);

  await createTable(db, 'wit_device_push_log', true, [
    c('device_id', 'id'),
    c('gateway_id', 'id'),
    c('code', 'text', { notNull: true }),
    c('topic', 'text', { notNull: true }),
    c('command', 'longtext', { notNull: true }),
    c('message_id', 'text', { notNull: true }),
    c('state', 'int', { notNull: true, default: 0 }),
    c('reply', 'longtext'),
    c('replied_at', 'datetime'),
  ]);
  await createIndex(db, 'wit_device_push_log', ['message_id']);

  await createTable(db, 'wit_device_log_update_log', true, [
    c('device_id', 'id', { notNull: true }),
    c('point_key', 'text', { notNull: true }),
    c('ts', 'bigint', { notNull: true }),
    c('old_value', 'double'),
    c('new_value', 'double'),
    c('reason', 'text'),
  ]);
  await createIndex(db, 'wit_device_log_update_log', ['device_id', 'ts']);
}
