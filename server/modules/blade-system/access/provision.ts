import { ADMINISTRATOR, PLATFORM_TENANT, type Principal } from '../../../auth/principal';
import type { Db, Row } from '../../../db/database';
import { DEFAULT_INIT_PASSWORD, INIT_PASSWORD_PARAM, PLATFORM_MENU_CODES } from '../../../db/seed';
import { badRequest } from '../../../http/envelope';
import { nextId } from '../../../ids';
import { formatDateTime } from '../../../time';
import { packageMenuIds } from '../../../auth/rights';
import { insertChunked, MenuSet } from './grants';
import { subtree } from '../../../http/trees';
import { loose, type TableName } from '../../../db/tables';

/** Tables a new tenant gets rows in; their caches hear about it once the transaction is committed. */
export const PROVISIONED_TABLES = ['blade_tenant', 'blade_role', 'blade_role_menu', 'blade_dept', 'blade_post', 'blade_user', 'blade_param'] as const;

/** The initial password of accounts: param account.initPassword of the tenant (seed.ts), or the default. */
export async function initialPassword(db: Db, tenantId: string = PLATFORM_TENANT): Promise<string> {
  const row = await db
    .selectFrom('blade_param')
    .select('paramValue')
    .where('tenantId', '=', tenantId)
    .where('paramKey', '=', INIT_PASSWORD_PARAM)
    .where('isDeleted', '=', 0)
    .executeTakeFirst();
  return row?.paramValue ? row.paramValue : DEFAULT_INIT_PASSWORD;
}

/** The next free 6-digit tenant code, counting deleted tenants too (their rows still carry the code). */
export async function nextTenantId(db: Db): Promise<string> {
  const rows = await db.selectFrom('blade_tenant').select('tenantId').execute();
  const highest = Math.max(0, ...rows.map((r) => Number(r.tenantId)).filter(Number.isInteger));
  const next = Math.max(highest + 1, 100000);
  if (next > 999999) throw badRequest('租户编号已用尽,请手工指定租户编号');
  return String(next);
}

/** Without a package a tenant's administrator gets every menu but the platform's own (seed.ts PLATFORM_MENU_CODES). */
function defaultMenuIds(menus: MenuSet): Set<string> {
  const platform = new Set<string>();
  for (const row of menus.rows) if (PLATFORM_MENU_CODES.has(row.code)) for (const id of subtree(row.id, menus.rows)) platform.add(id);
  return new Set([...menus.allIds].filter((id) => !platform.has(id)));
}

export interface NewTenant {
  tenantId: string;
  tenantName: string;
  /** Hash of the administrator's initial password, computed before the transaction. */
  adminPassword: string;
}

/**
 * Gives a new tenant what it needs to sign in and work: its administrator role granted its package's menus, a root
 * department, a post, the `admin` account, and its own copy of the initial-password param. Runs inside the
 * transaction that inserted the tenant row.
 */
export async function provisionTenant(trx: Db, creator: Principal, tenant: NewTenant): Promise<void> {
  const now = formatDateTime();
  const base = { tenantId: tenant.tenantId, createUser: creator.userId, createDept: creator.deptId, createTime: now, updateUser: creator.userId, updateTime: now, status: 1, isDeleted: 0 };
  const ids = { role: nextId(), dept: nextId(), post: nextId(), user: nextId() };
  // Rows of several tables with the same base columns: the untyped view, the table names checked.
  const insert = (table: TableName, row: Row) => loose(trx).insertInto(table).values({ ...base, ...row }).execute();

  await insert('blade_role', { id: ids.role, parentId: '0', roleName: '租户管理员', roleAlias: ADMINISTRATOR, sort: 1 });
  await insert('blade_dept', { id: ids.dept, parentId: '0', ancestors: '0', deptCategory: 1, deptName: tenant.tenantName, fullName: tenant.tenantName, sort: 1 });
  await insert('blade_post', { id: ids.post, category: 1, postCode: 'ceo', postName: '首席执行官', sort: 1 });
  await insert('blade_user', {
    id: ids.user, code: 'admin', userType: 1, account: 'admin', password: tenant.adminPassword, name: '管理员', realName: '管理员',
    roleId: ids.role, deptId: ids.dept, postId: ids.post,
  });
  await insert('blade_param', { id: nextId(), paramName: '账号初始密码', paramKey: INIT_PASSWORD_PARAM, paramValue: await initialPassword(trx), remark: '重置密码时使用' });

  const menus = await MenuSet.load(trx);
  const pkg = await packageMenuIds(trx, tenant.tenantId);
  const menuIds = pkg ? menus.withAncestors(pkg) : defaultMenuIds(menus);
  const links = [...menuIds].map((menuId) => ({ id: nextId(), roleId: ids.role, menuId }));
  await insertChunked(trx, 'blade_role_menu', links);
}
