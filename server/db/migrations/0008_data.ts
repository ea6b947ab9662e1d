import { type Kysely, sql } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/**
 * Device data beyond ingestion (docs/data-model.md "Device data"): the project of raw messages, command pushes and
 * corrections (so their lists follow the project scope even when a device is gone), recalculation runs, collection
 * strategies, and the log of strategy runs.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wit_collect_data').addColumn('project_id', 'varchar(20)').execute();
  await createIndex(db, 'wit_collect_data', ['project_id', 'received_at']);
  await sql`update wit_collect_data set project_id = (select d.project_id from wit_device d where d.id = wit_collect_data.device_id) where device_id is not null`.execute(db);
  await sql`update wit_collect_data set project_id = (select g.project_id from wit_gateway g where g.id = wit_collect_data.gateway_id) where project_id is null and gateway_id is not null`.execute(db);

  await db.schema.alterTable('wit_device_push_log').addColumn('project_id', 'varchar(20)').execute();
  await db.schema.alterTable('wit_device_push_log').addColumn('command_name', 'varchar(255)').execute();
  await db.schema.alterTable('wit_device_push_log').addColumn('source', 'varchar(255)').execute();
  await createIndex(db, 'wit_device_push_log', ['device_id', 'create_time']);

  // action: 1 value added, 2 corrected, 3 removed, 4 a range removed (end_ts, affected).
  await db.schema.alterTable('wit_device_log_update_log').addColumn('project_id', 'varchar(20)').execute();
  await db.schema.alterTable('wit_device_log_update_log').addColumn('action', 'integer', (col) => col.notNull().defaultTo(2)).execute();
  await db.schema.alterTable('wit_device_log_update_log').addColumn('end_ts', 'bigint').execute();
  await db.schema.alterTable('wit_device_log_update_log').addColumn('affected', 'integer').execute();
  await db.schema.alterTable('wit_device_log_update_log').addColumn('remark', 'varchar(255)').execute();

  await createTable(db, 'wit_collect_calculation_log', true, [
    c('device_id', 'id', { notNull: true }),
    c('device_code', 'text'),
    c('project_id', 'id'),
    c('point_key', 'text'),
    c('start_ts', 'bigint', { notNull: true }),
    c('end_ts', 'bigint', { notNull: true }),
    c('formula', 'longtext'),
    c('initial_values', 'longtext'),
    c('total', 'int', { notNull: true, default: 0 }),
    c('changed', 'int', { notNull: true, default: 0 }),
    c('failed', 'int', { notNull: true, default: 0 }),
    c('state', 'int', { notNull: true, default: 0 }),
    c('error', 'longtext'),
    c('elapsed_ms', 'int'),
  ]);
  await createIndex(db, 'wit_collect_calculation_log', ['device_id', 'create_time']);

  await createTable(db, 'wit_collect_strategy', true, [
    c('name', 'text', { notNull: true }),
    c('project_id', 'id', { notNull: true }),
    c('gateway_id', 'id'),
    c('interval_seconds', 'int'),
    c('times', 'text'),
    c('command', 'longtext'),
    c('device_ids', 'longtext'),
    c('enabled', 'int', { notNull: true, default: 0 }),
    c('last_run_time', 'datetime'),
    c('remark', 'text'),
  ]);

  await createTable(db, 'wit_job_info', true, [
    c('strategy_id', 'id', { notNull: true }),
    c('strategy_name', 'text'),
    c('project_id', 'id'),
    c('trigger_type', 'text', { notNull: true }),
    c('run_time', 'datetime', { notNull: true }),
    c('targets', 'int', { notNull: true, default: 0 }),
    c('sent', 'int', { notNull: true, default: 0 }),
    c('message', 'longtext'),
  ]);
  await createIndex(db, 'wit_job_info', ['strategy_id', 'run_time']);
}
