import type { Db } from '../../../db/database';
import { loose } from '../../../db/tables';

/**
 * Deletes a tenant for good: the link rows hanging off its roles, top menus and notices, then every row of every
 * table that has a tenant_id column (found by introspection, so tables added by later modules are covered) but the
 * tables in `except`, whose rows do not belong to the tenant they are tagged with, then the tenant itself. Returns
 * the tables touched. Runs inside a transaction.
 */
export async function purgeTenant(trx: Db, tenantId: string, except: readonly string[] = []): Promise<string[]> {
  const owned = (table: 'blade_role' | 'blade_top_menu' | 'blade_notice' | 'blade_user') => trx.selectFrom(table).select('id').where('tenantId', '=', tenantId);
  await trx.deleteFrom('blade_role_menu').where('roleId', 'in', owned('blade_role')).execute();
  await trx.deleteFrom('blade_role_scope').where('roleId', 'in', owned('blade_role')).execute();
  await trx.deleteFrom('blade_top_menu_setting').where('topMenuId', 'in', owned('blade_top_menu')).execute();
  await trx
    .deleteFrom('blade_notice_read')
    .where((eb) => eb.or([eb('noticeId', 'in', owned('blade_notice')), eb('userId', 'in', owned('blade_user'))]))
    .execute();

  const tables = (await trx.introspection.getTables())
    .filter((t) => !t.isView && t.name !== 'blade_tenant' && !except.includes(t.name) && t.columns.some((c) => c.name === 'tenant_id'))
    .map((t) => t.name);
  // Tables found by introspection: the untyped view.
  for (const table of new Set(tables)) await loose(trx).deleteFrom(table).where('tenantId', '=', tenantId).execute();
  await trx.deleteFrom('blade_tenant').where('tenantId', '=', tenantId).execute();
  return ['blade_role_menu', 'blade_role_scope', 'blade_top_menu_setting', 'blade_notice_read', ...tables, 'blade_tenant'];
}
