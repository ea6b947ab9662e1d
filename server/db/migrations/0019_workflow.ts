import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/**
 * Workflow (docs/workflow.md): models, process definitions (one deployed version each), instances with their engine
 * state, user tasks with their candidates, the history of every step, the timers waiting on instances, the leave
 * request, and the process an alarm started.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createTable(db, 'wf_model', true, [
    c('model_key', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('description', 'longtext'),
    c('category', 'text'),
    c('xml', 'longtext'),
    c('version', 'int', { notNull: true, default: 0 }),
    c('deployed_version', 'int'),
  ]);

  await createTable(db, 'wf_definition', true, [
    c('process_key', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('version', 'int', { notNull: true }),
    c('category', 'text'),
    c('description', 'longtext'),
    c('resource_name', 'text', { notNull: true }),
    c('xml', 'longtext', { notNull: true }),
    c('suspension_state', 'int', { notNull: true, default: 1 }),
    c('model_id', 'id'),
    c('deploy_time', 'datetime', { notNull: true }),
  ]);
  // One version number per key and tenant, whichever process deploys it (a second deployment of the same version loses).
  await createIndex(db, 'wf_definition', ['tenant_id', 'process_key', 'version'], true);

  await createTable(db, 'wf_instance', true, [
    c('definition_id', 'id', { notNull: true }),
    c('process_key', 'text', { notNull: true }),
    c('title', 'text', { notNull: true }),
    c('business_table', 'text'),
    c('business_id', 'id'),
    c('start_user', 'id'),
    c('state', 'int', { notNull: true, default: 1 }),
    c('start_time', 'datetime', { notNull: true }),
    c('end_time', 'datetime'),
    c('delete_reason', 'longtext'),
    c('engine_state', 'longtext'),
    c('variables', 'longtext'),
    c('revision', 'int', { notNull: true, default: 0 }),
  ]);
  await createIndex(db, 'wf_instance', ['tenant_id', 'start_user', 'start_time']);
  await createIndex(db, 'wf_instance', ['tenant_id', 'start_time']);
  await createIndex(db, 'wf_instance', ['definition_id', 'state']);
  await createIndex(db, 'wf_instance', ['business_table', 'business_id']);

  await createTable(db, 'wf_task', true, [
    c('instance_id', 'id', { notNull: true }),
    c('definition_id', 'id', { notNull: true }),
    c('element_id', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('execution_id', 'text', { notNull: true }),
    c('assignee', 'id'),
    c('owner', 'id'),
    c('delegation', 'text'),
    c('candidates', 'longtext'),
    c('state', 'int', { notNull: true, default: 1 }),
    c('claim_time', 'datetime'),
    c('end_time', 'datetime'),
    c('due_time', 'datetime'),
    c('pass', 'int'),
    c('comment', 'longtext'),
    c('reason', 'text'),
  ]);
  await createIndex(db, 'wf_task', ['tenant_id', 'assignee', 'state', 'create_time']);
  await createIndex(db, 'wf_task', ['instance_id', 'state']);
  await createIndex(db, 'wf_task', ['tenant_id', 'state', 'assignee']);

  // Who may claim a task: kind 1 user (ref a user id), 2 role (role id), 3 dept (dept id); rows of a task, no tenant's.
  await db.schema
    .createTable('wf_task_candidate')
    .addColumn('id', 'varchar(20)', (col) => col.primaryKey())
    .addColumn('task_id', 'varchar(20)', (col) => col.notNull())
    .addColumn('kind', 'integer', (col) => col.notNull())
    .addColumn('ref', 'varchar(20)', (col) => col.notNull())
    .execute();
  await createIndex(db, 'wf_task_candidate', ['kind', 'ref', 'task_id']);
  await createIndex(db, 'wf_task_candidate', ['task_id']);

  await createTable(db, 'wf_history', true, [
    c('instance_id', 'id', { notNull: true }),
    c('element_id', 'text', { notNull: true }),
    c('element_type', 'text', { notNull: true }),
    c('name', 'text'),
    c('execution_id', 'text', { notNull: true }),
    c('task_id', 'id'),
    c('assignee', 'id'),
    c('start_time', 'datetime', { notNull: true }),
    c('end_time', 'datetime'),
    c('duration_ms', 'bigint'),
    c('comment', 'longtext'),
    c('pass', 'int'),
    c('reason', 'text'),
  ]);
  await createIndex(db, 'wf_history', ['instance_id', 'start_time']);

  // A timer an instance waits on (a boundary timer of a user task, an intermediate timer): due_at epoch ms of the
  // platform's clock; the scheduler fires it by loading the instance (server/flow/timers.ts).
  await db.schema
    .createTable('wf_timer')
    .addColumn('id', 'varchar(20)', (col) => col.primaryKey())
    .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
    .addColumn('instance_id', 'varchar(20)', (col) => col.notNull())
    .addColumn('element_id', 'varchar(255)', (col) => col.notNull())
    .addColumn('execution_id', 'varchar(255)', (col) => col.notNull())
    .addColumn('due_at', 'bigint', (col) => col.notNull())
    .execute();
  await createIndex(db, 'wf_timer', ['due_at']);
  await createIndex(db, 'wf_timer', ['instance_id']);

  await createTable(db, 'blade_process_leave', true, [
    c('process_definition_id', 'id', { notNull: true }),
    c('process_instance_id', 'id'),
    c('start_time', 'datetime', { notNull: true }),
    c('end_time', 'datetime', { notNull: true }),
    c('reason', 'longtext', { notNull: true }),
    c('task_user', 'id'),
    c('apply_time', 'datetime', { notNull: true }),
    c('days', 'int', { notNull: true }),
  ]);

  // The disposal process an alarm started (docs/alarms.md "Disposal"); null when its level has none.
  await db.schema.alterTable('wit_alarm').addColumn('process_instance_id', 'varchar(20)').execute();
}
