import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { type Owned, projectRows } from '../../../server/modules/wit-xinde/project-rows';
import { batchDelete } from '../../../server/series/purge';
import { storeKinds, withFreshStore } from '../../support/databases';
import { leadingIndexColumns } from '../../support/indexes';

/**
 * Every column a purge looks rows up by leads an index (migration 0020): a project purge deletes the rows naming the
 * project and what it owns (server/modules/wit-xinde/project-rows.ts) and finds what it owns through them; a tenant
 * purge deletes every row tagged with the tenant. Without the index each slice of ids read the whole table.
 */

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const NOTHING: Owned = { projectIds: [], tenantIds: [], deviceIds: [], gatewayIds: [], monitorPointIds: [], pointIds: [], thresholdIds: [], alarmIds: [], strategyIds: [], bindingIds: [], clientIds: [], usernames: [] };

/** What ownedIds (project-rows.ts) reads to find what projects own, beside the rows projectRows lists. */
const OWNERSHIP_LOOKUPS: ReadonlyArray<readonly [string, string]> = [
  ['wit_project', 'tenant_id'],
  ['wit_device', 'project_id'],
  ['wit_device', 'tenant_id'],
  ['wit_gateway', 'project_id'],
  ['wit_gateway', 'tenant_id'],
  ['wit_monitor_point', 'project_id'],
  ['wit_device_threshold', 'project_id'],
  ['wit_device_threshold', 'device_id'],
  ['wit_device_threshold', 'monitor_point_id'],
  ['wit_device_point', 'device_id'],
  ['wit_alarm', 'project_id'],
  ['wit_alarm', 'device_id'],
  ['wit_alarm', 'monitor_point_id'],
  ['wit_alarm', 'threshold_id'],
  ['wit_collect_strategy', 'project_id'],
  ['wit_collect_strategy', 'gateway_id'],
  ['wit_tenant_project', 'project_id'],
  ['wit_mqtt_user', 'client_id'],
];

describe.each(await storeKinds())('indexes the purges use, on %s', (store) => {
  const withDatabase = (run: (database: Database) => Promise<void>) =>
    withFreshStore(store, async (database) => {
    await migrateToLatest(database.db);
    await run(database);
    });

  it('has an index led by every column a project or tenant purge selects or deletes by', () =>
    withDatabase(async ({ db, dialect }) => {
      const wanted = new Set<string>();
      for (const entry of projectRows(NOTHING)) for (const [column] of entry.by) wanted.add(`${entry.table}.${snake(column)}`);
      for (const [table, column] of OWNERSHIP_LOOKUPS) wanted.add(`${table}.${column}`);
      for (const table of await db.introspection.getTables()) {
        if (!table.isView && table.columns.some((c) => c.name === 'tenant_id')) wanted.add(`${table.name}.tenant_id`);
      }
      expect(wanted.size).toBeGreaterThan(100);
      const missing: string[] = [];
      const leading = new Map<string, Set<string>>();
      for (const pair of [...wanted].sort()) {
        const [table, column] = pair.split('.');
        if (!leading.has(table)) leading.set(table, await leadingIndexColumns(db, dialect, table));
        if (!leading.get(table)?.has(column)) missing.push(pair);
      }
      expect(missing).toEqual([]);
    }));

  it('deletes a batch of a log by project through the project index', () =>
    withDatabase(async ({ db, dialect }) => {
      for (const table of ['wit_alarm_log', 'wit_device_push_log', 'wit_alarm_send_log', 'wit_alarm_delivery']) {
        const query = batchDelete(db, table, ['id'], (eb) => eb('projectId', 'in', ['1', '2'])).compile();
        const plan = await db.connection().execute(async (connection) => {
          if (dialect === 'sqlite') {
            const rows = await connection.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
            return rows.rows.map((r) => r.detail);
          }
          // With sequential scans priced out, PostgreSQL uses the index that serves the condition, if there is one.
          await sql`set enable_seqscan = off`.execute(connection);
          try {
            const rows = await connection.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
            return rows.rows.map((r) => Object.values(r)[0]);
          } finally {
            await sql`reset enable_seqscan`.execute(connection);
          }
        });
        const text = plan.join('\n');
        if (dialect === 'sqlite') expect(text, table).toMatch(new RegExp(`USING (COVERING )?INDEX ${table}_project_id_idx`));
        else expect(text, table).toMatch(new RegExp(`(Index|Index Only|Bitmap Index) Scan (using|on) ${table}_project_id_idx`));
      }
    }));
});
