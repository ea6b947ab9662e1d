import { type Kysely, SqliteAdapter } from 'kysely';

/**
 * Left open by earlier work (docs/data-model.md "Purging"):
 *
 * - Indexes on the columns purges look rows up by. A project purge deletes every row that names the project, its
 *   devices, gateways, monitor points, thresholds or alarms (server/modules/wit-xinde/project-rows.ts), a tenant purge
 *   every row tagged with the tenant; a log table without an index on such a column was read whole for every slice of
 *   ids — on a year of alarm logs or command pushes, minutes of SQLite's write lock. Each (table, column) below leads
 *   an index now; tests/integration/monitoring/purge-indexes.test.ts checks every column the purges use.
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
  if (sqlite) await db.transaction().execute((trx) => run(trx));
  else await run(db);
}

async function run(db: Kysely<any>): Promise<void> {
  // Plain CREATE INDEX, as createIndex (server/db/table.ts) names it: both stores accept it inside the transaction.
  for (const [table, column] of PURGE_INDEXES) await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
}
