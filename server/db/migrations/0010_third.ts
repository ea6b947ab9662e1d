import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/**
 * Third-party platforms (docs/third-party.md): connections to remote monitoring platforms, and the bindings of local
 * projects, devices and monitor points to theirs. Uniqueness of bindings is checked by the calls that write them
 * (bindings are soft-deleted, so a unique index would refuse binding again).
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createTable(db, 'wit_third_param', true, [
    c('name', 'text', { notNull: true }),
    c('platform_type', 'text', { notNull: true, default: 'bladex' }),
    c('base_url', 'longtext', { notNull: true }),
    c('third_tenant_id', 'text', { notNull: true, default: '000000' }),
    c('username', 'text', { notNull: true }),
    c('password', 'text'),
    c('client_id', 'text', { notNull: true, default: 'saber' }),
    c('client_secret', 'text'),
    c('code_prefix', 'text'),
    c('interval_seconds', 'int', { notNull: true, default: 0 }),
    c('timeout_seconds', 'int', { notNull: true, default: 15 }),
    c('enabled', 'int', { notNull: true, default: 0 }),
    c('last_pull_time', 'datetime'),
    c('last_pull_state', 'int', { notNull: true, default: 0 }),
    c('last_pull_message', 'longtext'),
    c('remark', 'text'),
  ]);

  const binding = [c('third_param_id', 'id', { notNull: true }), c('project_id', 'id', { notNull: true }), c('third_project_id', 'text', { notNull: true })];
  await createTable(db, 'wit_third_project', true, [
    ...binding,
    c('third_project_name', 'text'),
    c('third_project_code', 'text'),
    c('sync_time', 'datetime'),
    c('last_pull_time', 'datetime'),
    c('last_pull_count', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_third_project', ['third_param_id', 'third_project_id']);
  await createIndex(db, 'wit_third_project', ['project_id']);

  await createTable(db, 'wit_third_device', true, [
    ...binding,
    c('device_id', 'id', { notNull: true }),
    c('third_device_id', 'text', { notNull: true }),
    c('third_device_code', 'text'),
    c('third_device_name', 'text'),
    c('pulled_ts', 'bigint'),
    c('last_pull_time', 'datetime'),
    c('sync_time', 'datetime'),
  ]);
  await createIndex(db, 'wit_third_device', ['third_param_id', 'third_device_id']);
  await createIndex(db, 'wit_third_device', ['device_id']);
  await createIndex(db, 'wit_third_device', ['project_id']);

  await createTable(db, 'wit_third_point', true, [
    ...binding,
    c('monitor_point_id', 'id', { notNull: true }),
    c('third_point_id', 'text', { notNull: true }),
    c('third_point_code', 'text'),
    c('third_point_name', 'text'),
    c('sync_time', 'datetime'),
  ]);
  await createIndex(db, 'wit_third_point', ['third_param_id', 'third_point_id']);
  await createIndex(db, 'wit_third_point', ['monitor_point_id']);
  await createIndex(db, 'wit_third_point', ['project_id']);
}
