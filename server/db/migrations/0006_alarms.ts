import { type Kysely, sql } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/** Thresholds, alarms and their log, recipients, notice strategies, the notification outbox and its send log. */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  const limits = [1, 2, 3, 4].flatMap((level) => [c(`level${level}_upper`, 'double'), c(`level${level}_lower`, 'double'), c(`level${level}_rate`, 'double')]);
  await createTable(db, 'wit_device_threshold', true, [
    c('project_id', 'id'),
    c('target_type', 'int', { notNull: true }),
    c('device_id', 'id'),
    c('point_key', 'text'),
    c('monitor_point_id', 'id'),
    c('factors_item_id', 'id'),
    c('name', 'text'),
    ...limits,
    c('rate_period', 'int', { notNull: true, default: 2 }),
    c('hysteresis', 'double', { notNull: true, default: 0 }),
    c('rate_hysteresis', 'double', { notNull: true, default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_device_threshold', ['tenant_id', 'project_id']);

  await createTable(db, 'wit_alarm', true, [
    c('project_id', 'id'),
    c('device_id', 'id', { notNull: true }),
    c('device_code', 'text'),
    c('point_key', 'text'),
    c('monitor_point_id', 'id'),
    c('threshold_id', 'id'),
    c('source', 'int', { notNull: true, default: 1 }),
    c('alarm_type', 'int', { notNull: true }),
    c('alarm_level', 'int', { notNull: true }),
    c('max_level', 'int', { notNull: true }),
    c('alarm_state', 'int', { notNull: true, default: 1 }),
    c('handle_state', 'int', { notNull: true, default: 0 }),
    c('revision', 'int', { notNull: true, default: 1 }),
    c('title', 'text'),
    c('content', 'longtext'),
    c('unit', 'text'),
    c('first_value', 'double'),
    c('value', 'double'),
    c('limit_value', 'double'),
    c('reading_ts', 'bigint'),
    c('level_at', 'bigint'),
    c('first_time', 'datetime'),
    c('level_time', 'datetime'),
    c('clear_time', 'datetime'),
    c('handle_user', 'id'),
    c('handle_user_name', 'text'),
    c('handle_time', 'datetime'),
    c('handle_result', 'longtext'),
    c('remark', 'text'),
  ]);
  // At most one open threshold alarm per device channel, whatever process raises it.
  await sql`create unique index wit_alarm_open_idx on wit_alarm (device_id, point_key) where alarm_state = 1 and source = 1 and is_deleted = 0`.execute(db);
  await createIndex(db, 'wit_alarm', ['tenant_id', 'handle_state']);
  await createIndex(db, 'wit_alarm', ['tenant_id', 'first_time']);

  await createTable(db, 'wit_alarm_log', true, [
    c('alarm_id', 'id', { notNull: true }),
    c('project_id', 'id'),
    c('device_id', 'id'),
    c('point_key', 'text'),
    c('revision', 'int', { notNull: true }),
    c('action', 'int', { notNull: true }),
    c('from_level', 'int'),
    c('to_level', 'int'),
    c('value', 'double'),
    c('limit_value', 'double'),
    c('reading_ts', 'bigint'),
    c('log_time', 'datetime', { notNull: true }),
    c('remark', 'longtext'),
  ]);
  await createIndex(db, 'wit_alarm_log', ['alarm_id']);

  await createTable(db, 'wit_alarm_recipient', true, [
    c('name', 'text', { notNull: true }),
    c('user_id', 'id'),
    c('phone', 'text'),
    c('email', 'text'),
    c('webhook_url', 'longtext'),
    c('channels', 'text'),
    c('sound', 'int', { notNull: true, default: 1 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_alarm_recipient', ['user_id']);

  await createTable(db, 'wit_alarm_notice_strategy', true, [
    c('name', 'text', { notNull: true }),
    c('project_ids', 'longtext'),
    c('levels', 'text'),
    c('recipient_ids', 'longtext'),
    c('user_ids', 'longtext'),
    c('channels', 'text', { notNull: true }),
    c('silence_start', 'text'),
    c('silence_end', 'text'),
    c('silence_except_levels', 'text'),
    c('repeat_interval', 'int'),
    c('remark', 'text'),
  ]);

  // The outbox: one row per alarm change (revision), reminder round, person and channel — the unique key makes
  // planning idempotent, so a change notifies each person on each channel once, across batches and restarts.
  await createTable(db, 'wit_alarm_delivery', true, [
    c('alarm_id', 'id', { notNull: true }),
    c('project_id', 'id'),
    c('revision', 'int', { notNull: true }),
    c('round', 'int', { notNull: true }),
    c('person_key', 'text', { notNull: true }),
    c('recipient_id', 'id'),
    c('user_id', 'id'),
    c('channel', 'text', { notNull: true }),
    c('state', 'int', { notNull: true, default: 0 }),
    c('attempts', 'int', { notNull: true, default: 0 }),
    c('due_at', 'bigint', { notNull: true }),
    c('claimed_at', 'bigint'),
    c('reading_ts', 'bigint'),
    c('last_error', 'longtext'),
  ]);
  await createIndex(db, 'wit_alarm_delivery', ['alarm_id', 'revision', 'round', 'person_key', 'channel'], true);
  await createIndex(db, 'wit_alarm_delivery', ['state', 'due_at']);

  await createTable(db, 'wit_alarm_send_log', true, [
    c('alarm_id', 'id', { notNull: true }),
    c('project_id', 'id'),
    c('revision', 'int', { notNull: true }),
    c('round', 'int', { notNull: true }),
    c('recipient_id', 'id'),
    c('user_id', 'id'),
    c('recipient_name', 'text'),
    c('channel', 'text', { notNull: true }),
    c('target', 'longtext'),
    c('attempt', 'int', { notNull: true }),
    c('success', 'int', { notNull: true }),
    c('detail', 'longtext'),
    c('reading_ts', 'bigint'),
    c('send_time', 'datetime', { notNull: true }),
  ]);
  await createIndex(db, 'wit_alarm_send_log', ['alarm_id']);
  await createIndex(db, 'wit_alarm_send_log', ['tenant_id', 'send_time']);
}
