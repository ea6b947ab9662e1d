import type { Db } from '../../../db/database';
import { loose, type TableName } from '../../../db/tables';
import type { PurgeCondition } from '../../../series/purge';

/** Rows of a table that has no tenant of its own, found through rows of the tenant. */
export interface TenantLink {
  table: TableName;
  where: PurgeCondition;
}

/**
 * The rows without a tenant column that hang off the tenant's roles (grants, scopes), top menus, notices, users and
 * workflow tasks (their candidates). They must go before the rows they hang off, which are how they are found.
 */
export function tenantLinks(db: Db, tenantId: string): TenantLink[] {
  // Subqueries on the tables named here, for conditions on the untyped view.
  const owned = (table: 'blade_role' | 'blade_top_menu' | 'blade_notice' | 'blade_user' | 'wf_task') => loose(db).selectFrom(table).select('id').where('tenantId', '=', tenantId);
  const ofNoticeOrUser: PurgeCondition = (eb) => eb.or([eb('noticeId', 'in', owned('blade_notice')), eb('userId', 'in', owned('blade_user'))]);
  return [
    { table: 'blade_role_menu', where: (eb) => eb('roleId', 'in', owned('blade_role')) },
    { table: 'blade_role_scope', where: (eb) => eb('roleId', 'in', owned('blade_role')) },
    { table: 'blade_top_menu_setting', where: (eb) => eb('topMenuId', 'in', owned('blade_top_menu')) },
    { table: 'blade_notice_read', where: ofNoticeOrUser },
    { table: 'blade_notice_user', where: ofNoticeOrUser },
    { table: 'wf_task_candidate', where: (eb) => eb('taskId', 'in', owned('wf_task')) },
  ];
}

/**
 * Every table that has a tenant_id column (found by introspection, so tables added by later modules are covered) but
 * the tenants themselves and the tables in `except`, whose rows do not belong to the tenant they are tagged with.
 */
export async function tenantTables(db: Db, except: readonly string[] = []): Promise<TableName[]> {
  const tables = (await db.introspection.getTables())
    .filter((t) => !t.isView && t.name !== 'blade_tenant' && !except.includes(t.name) && t.columns.some((c) => c.name === 'tenant_id'))
    .map((t) => t.name as TableName);
  return [...new Set(tables)];
}

/**
 * The last step of deleting a tenant for good, inside a transaction: its link rows (tenantLinks), every row of every
 * tenant table (tenantTables) but those in `except`, then the tenant itself. A tenant purge has deleted all of it in
 * batches before (tenant-purge.ts): this takes what arrived meanwhile, and the tenant row. Returns the tables touched.
 */
export async function purgeTenant(trx: Db, tenantId: string, except: readonly string[] = []): Promise<string[]> {
  const links = tenantLinks(trx, tenantId);
  for (const link of links) await loose(trx).deleteFrom(link.table).where(link.where).execute();
  const tables = await tenantTables(trx, except);
  // Tables found by introspection: the untyped view.
  for (const table of tables) await loose(trx).deleteFrom(table).where('tenantId', '=', tenantId).execute();
  await trx.deleteFrom('blade_tenant').where('tenantId', '=', tenantId).execute();
  return [...links.map((l) => l.table), ...tables, 'blade_tenant'];
}
