import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/**
 * Onward data (docs/push.md): push targets, the projects bound to them, the renaming of devices and channels per
 * target, and the log of every send attempt.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  // push_type: 1 MQTT, 2 HTTP. Secrets (password, token, secret) are needed in clear to talk to the target.
  await createTable(db, 'wit_mqtt_param', true, [
    c('name', 'text', { notNull: true }),
    c('push_type', 'int', { notNull: true, default: 1 }),
    c('broker_url', 'longtext'),
    c('client_id', 'text'),
    c('username', 'text'),
    c('password', 'text'),
    c('topic', 'text'),
    c('qos', 'int', { notNull: true, default: 1 }),
    c('url', 'longtext'),
    c('headers', 'longtext'),
    c('token', 'longtext'),
    c('secret', 'text'),
    c('batch_size', 'int', { notNull: true, default: 100 }),
    c('flush_interval', 'int', { notNull: true, default: 2000 }),
    c('timeout', 'int', { notNull: true, default: 10000 }),
    c('enabled', 'int', { notNull: true, default: 1 }),
    c('remark', 'text'),
  ]);

  // last_state: 0 nothing sent yet, 1 the last attempt succeeded, 2 it failed.
  await createTable(db, 'wit_tenant_project', true, [
    c('mqtt_param_id', 'id', { notNull: true }),
    c('project_id', 'id', { notNull: true }),
    c('device_ids', 'longtext'),
    c('enabled', 'int', { notNull: true, default: 1 }),
    c('last_push_time', 'datetime'),
    c('last_state', 'int', { notNull: true, default: 0 }),
    c('last_error', 'longtext'),
    c('push_count', 'bigint', { notNull: true, default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_tenant_project', ['project_id']);
  await createIndex(db, 'wit_tenant_project', ['mqtt_param_id']);

  await createTable(db, 'wit_push_map', true, [
    c('mqtt_param_id', 'id', { notNull: true }),
    c('device_id', 'id', { notNull: true }),
    c('point_key', 'text'),
    c('target_device', 'text'),
    c('target_key', 'text'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_push_map', ['mqtt_param_id', 'device_id']);

  // state: 1 success, 2 failed, 3 readings dropped from a full queue. trigger: realtime, retry, manual, test.
  await createTable(db, 'wit_api_send_log', true, [
    c('mqtt_param_id', 'id'),
    c('tenant_project_id', 'id'),
    c('project_id', 'id'),
    c('push_type', 'int', { notNull: true }),
    c('trigger', 'text', { notNull: true }),
    c('target', 'longtext'),
    c('readings', 'int', { notNull: true, default: 0 }),
    c('messages', 'int', { notNull: true, default: 0 }),
    c('state', 'int', { notNull: true }),
    c('attempt', 'int', { notNull: true, default: 1 }),
    c('http_status', 'int'),
    c('error', 'longtext'),
    c('duration_ms', 'int'),
    c('payload', 'longtext'),
  ]);
  await createIndex(db, 'wit_api_send_log', ['tenant_id', 'create_time']);
  await createIndex(db, 'wit_api_send_log', ['tenant_project_id', 'create_time']);
}
