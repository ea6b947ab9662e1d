import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { nextId } from '../../ids';
import { column as c, createTable } from '../table';

/**
 * Left open by earlier work (docs/data-model.md "Purging"):
 *
 * - Indexes on the columns purges look rows up by. A project purge deletes every row that names the project, its
 *   devices, gateways, monitor points, thresholds or alarms (server/modules/wit-xinde/project-rows.ts), a tenant purge
 *   every row tagged with the tenant; a log table without an index on such a column was read whole for every slice of
 *   ids — on a year of alarm logs or command pushes, minutes of SQLite's write lock. Each (table, column) below leads
 *   an index now; tests/integration/monitoring/purge-indexes.test.ts checks every column the purges use.
 * - The alarm outbox's id may not be NULL. SQLite lets a primary key that is not an INTEGER PRIMARY KEY hold NULL
 *   (PostgreSQL never does), and the notifier claims a delivery by id: a row without one could never be claimed and
 *   kept its sender selecting it forever (docs/alarms.md "Exactly once"). SQLite cannot add NOT NULL to a column, so
 *   the table is rebuilt with it; a row found without an id gets one (it is a delivery like any other, pending or a
 *   record of one sent), then the rows are copied and the indexes made again as migration 0006 made them.
 * - The series loses `tenant_id`. It was the tenant a point was written under, and nothing read it: the series is read
 *   by device, moves leave it as it is (it follows its device), and purges delete it by device. The writers count new
 *   points per tenant from the device's tenant they already know (server/db/tally.cjs). Both stores drop a column no
 *   index, key or trigger names (SQLite since 3.35): PostgreSQL at once, SQLite by rewriting the table once.
 * - Tenant purges as jobs (`blade_tenant_purge`): a purge deletes in batches, each its own short transaction, and may
 *   be stopped midway by a restart; its row says that the tenant is being purged (so it cannot be restored half
 *   deleted), how far it got, and is resumed at the next start (server/modules/blade-system/access/tenant-purge.ts).
 *   No `tenant_id` column: the purge deletes every row of the tenant that has one, and this row must outlive it. At
 *   most one running purge per tenant code; finished ones stay as the record of who purged what and when.
 */

/** (table, column) pairs that lead no index before this migration and that a purge selects or deletes by. */
export const PURGE_INDEXES: ReadonlyArray<readonly [table: string, column: string]> = [
  // Logs and history named by project (and by device or gateway where nothing else serves it).
  ['wit_gateway_state', 'project_id'],
  ['wit_device_push_log', 'project_id'],
  ['wit_device_push_log', 'gateway_id'],
  ['wit_device_log_update_log', 'project_id'],
  ['wit_collect_calculation_log', 'project_id'],
  ['wit_job_info', 'project_id'],
  ['wit_api_send_log', 'project_id'],
  ['wit_alarm_log', 'project_id'],
  ['wit_alarm_log', 'device_id'],
  ['wit_alarm_delivery', 'project_id'],
  ['wit_alarm_send_log', 'project_id'],
  // Alarms and thresholds: what a purge owns is found through them (ownedIds).
  ['wit_alarm', 'project_id'],
  ['wit_alarm', 'device_id'],
  ['wit_alarm', 'monitor_point_id'],
  ['wit_alarm', 'threshold_id'],
  ['wit_device_threshold', 'project_id'],
  ['wit_device_threshold', 'device_id'],
  ['wit_device_threshold', 'monitor_point_id'],
  // Configuration named by project or device.
  ['wit_collect_strategy', 'project_id'],
  ['wit_collect_strategy', 'gateway_id'],
  ['wit_data_comparison', 'project_id'],
  ['wit_push_map', 'device_id'],
  // Broker identities of the purged devices and gateways: by client id, then their topic rules by username.
  ['wit_mqtt_user', 'client_id'],
  ['wit_mqtt_acl', 'username'],
  // Counters and samples keyed by tenant first: a project purge names the project only.
  ['wit_project_points', 'project_id'],
  ['wit_presence_sample', 'project_id'],
  ['wit_alarm_counts', 'project_id'],
  // Made without the base columns (migration 0019): a tenant purge deletes its timers by tenant.
  ['wf_timer', 'tenant_id'],
];

// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  // SQLite runs a migration outside any transaction (Kysely's Migrator): this one is all or nothing there too. On
  // PostgreSQL the Migrator has opened one already.
  if (sqlite) await db.transaction().execute((trx) => run(trx, true));
  else await run(db, false);
}

async function run(db: Kysely<any>, sqlite: boolean): Promise<void> {
  if (sqlite) await outboxIdNotNull(db);
  await db.schema.alterTable('wit_device_log').dropColumn('tenant_id').execute();
  await createTable(db, 'blade_tenant_purge', false, [
    c('tenant_code', 'text', { notNull: true }),
    c('tenant_name', 'text'),
    // 1 running, 2 done
    c('state', 'int', { notNull: true, default: 1 }),
    // rows deleted so far, and the table the purge is at
    c('deleted', 'bigint', { notNull: true, default: 0 }),
    c('step', 'text'),
    c('finish_time', 'datetime'),
    // why the last run stopped short (it is resumed at the next start, or by purging again)
    c('last_error', 'longtext'),
  ]);
  await sql`create unique index blade_tenant_purge_running_idx on blade_tenant_purge (tenant_code) where state = 1`.execute(db);
  // Plain CREATE INDEX, as createIndex (server/db/table.ts) names it: both stores accept it inside the transaction.
  for (const [table, column] of PURGE_INDEXES) await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
}

const OUTBOX_COLUMNS = [
  'id', 'tenant_id', 'alarm_id', 'project_id', 'revision', 'round', 'person_key', 'recipient_id', 'user_id', 'channel', 'state', 'attempts',
  'due_at', 'claimed_at', 'reading_ts', 'last_error', 'create_user', 'create_dept', 'create_time', 'update_user', 'update_time', 'status', 'is_deleted',
].join(', ');

/** SQLite: wit_alarm_delivery rebuilt with `id … not null`, as 0006 made it otherwise (createTable, server/db/table.ts). */
async function outboxIdNotNull(db: Kysely<any>): Promise<void> {
  const nameless = await sql<{ rowid: number }>`select rowid from wit_alarm_delivery where id is null`.execute(db);
  for (const { rowid } of nameless.rows) await sql`update wit_alarm_delivery set id = ${nextId()} where rowid = ${rowid}`.execute(db);
  for (const index of ['scope', 'alarm_id_revision_round_person_key_channel', 'state_due_at']) await sql.raw(`drop index wit_alarm_delivery_${index}_idx`).execute(db);
  await sql`create table wit_alarm_delivery_new (
    id varchar(20) not null primary key, tenant_id varchar(12) not null default '000000',
    alarm_id varchar(20) not null, project_id varchar(20), revision integer not null, round integer not null,
    person_key varchar(255) not null, recipient_id varchar(20), user_id varchar(20), channel varchar(255) not null,
    state integer not null default 0, attempts integer not null default 0, due_at bigint not null, claimed_at bigint,
    reading_ts bigint, last_error text,
    create_user varchar(20), create_dept varchar(20), create_time varchar(19), update_user varchar(20), update_time varchar(19),
    status integer not null default 1, is_deleted integer not null default 0)`.execute(db);
  await sql.raw(`insert into wit_alarm_delivery_new (${OUTBOX_COLUMNS}) select ${OUTBOX_COLUMNS} from wit_alarm_delivery`).execute(db);
  await sql`drop table wit_alarm_delivery`.execute(db);
  await sql`alter table wit_alarm_delivery_new rename to wit_alarm_delivery`.execute(db);
  await db.schema.createIndex('wit_alarm_delivery_scope_idx').on('wit_alarm_delivery').columns(['tenant_id', 'is_deleted', 'id']).execute();
  await db.schema
    .createIndex('wit_alarm_delivery_alarm_id_revision_round_person_key_channel_idx')
    .on('wit_alarm_delivery')
    .columns(['alarm_id', 'revision', 'round', 'person_key', 'channel'])
    .unique()
    .execute();
  await db.schema.createIndex('wit_alarm_delivery_state_due_at_idx').on('wit_alarm_delivery').columns(['state', 'due_at']).execute();
}
