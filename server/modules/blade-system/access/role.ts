import type { FastifyInstance } from 'fastify';
import { type SqlBool, sql } from 'kysely';
import { role } from '../../../../resources/system/role';
import { user as userResource } from '../../../../resources/system/user';
import { EscalationGuard } from '../../../auth/escalation';
import { ADMINISTRATOR, isPlatformAdmin, type Principal } from '../../../auth/principal';
import { SCOPE_API, SCOPE_DATA } from '../../../auth/scopes';
import type { Db, Row } from '../../../db/database';
import type { CallContext, ScopeOptions } from '../../../db/repository';
import { type CrudHooks, registerCrud } from '../../../http/crud';
import { bodyOf, contextOf, paramsOf, requiredText, text } from '../../../http/context';
import { badRequest, ok } from '../../../http/envelope';
import { nextId } from '../../../ids';
import type { Platform } from '../../../platform';
import { grantableMenuIds, idArray, insertChunked, MenuSet } from './grants';
import { forest, subtree, treeNode } from '../../../http/trees';
import { needs } from '../../../auth/rights';

const BASE = '/blade-system/role';

export const ROLE_MESSAGES = {
  inUse: '该角色已分配给用户,请先解除用户的角色后再删除',
  administrator: '超级管理员角色不可删除',
  aliasLocked: '超级管理员角色的别名不可修改',
  noRole: '角色不存在或无权操作',
  noAdministratorGrant: '无权配置超级管理员角色',
  noMenu: '菜单不存在',
  noScope: '所选权限不存在',
  scopeOutside: '所选权限所属菜单不在可分配范围内',
} as const;

/**
 * Whether a live user holds any of the roles (blade_user.role_id is comma-joined). Rights, beside the caller's scope:
 * a role held by a user the caller's data scope hides is still in use (raw-queries.ts, IDENTITY).
 */
async function held(db: Db, roleIds: readonly string[]): Promise<boolean> {
  if (roleIds.length === 0) return false;
  const holder = await db
    .selectFrom('blade_user')
    .select('id')
    .where('isDeleted', '=', 0)
    .where((eb) => eb.or(roleIds.map((id) => sql<SqlBool>`(',' || role_id || ',') like ${`%,${id},%`}`)))
    .executeTakeFirst();
  return holder !== undefined;
}

interface RoleRow {
  id: string;
  parentId: string;
  tenantId: string;
  roleName: string;
  roleAlias: string;
}

/** The roles of a tenant the caller sees; `wholeTenant` for checks that must see the whole tree (cycles). */
async function tenantRoles(platform: Platform, ctx: CallContext, tenantId: string, options?: ScopeOptions): Promise<RoleRow[]> {
  const rows = await (await platform.repo(role).select(ctx, options))
    .select(['id', 'parentId', 'tenantId', 'roleName', 'roleAlias'])
    .where('tenantId', '=', tenantId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, parentId: String(r.parentId ?? '0'), tenantId: r.tenantId, roleName: r.roleName, roleAlias: r.roleAlias }));
}

function roleHooks(platform: Platform): CrudHooks {
  return {
    async beforeSave(ctx, values, existing) {
      const out: Row = existing ? { ...values } : { parentId: '0', sort: 0, ...values };
      if (out.parentId === null || out.parentId === '') out.parentId = '0';
      if (existing?.roleAlias === ADMINISTRATOR && out.roleAlias !== undefined && out.roleAlias !== ADMINISTRATOR) {
        throw badRequest(ROLE_MESSAGES.aliasLocked);
      }
      const tenantId = String(existing?.tenantId ?? (isPlatformAdmin(ctx.principal) && out.tenantId ? out.tenantId : ctx.principal.tenantId));
      const guard = new EscalationGuard(platform);
      if (existing) await guard.assertCoversRoles(ctx.principal, [existing]);
      if (out.roleAlias !== existing?.roleAlias) await guard.assertAliasAllowed(ctx.principal, tenantId, out.roleAlias);
      const parentId = String(out.parentId ?? existing?.parentId ?? '0');
      if (parentId !== '0') {
        const roles = await tenantRoles(platform, ctx, tenantId, { wholeTenant: true });
        if (!roles.some((r) => r.id === parentId)) throw badRequest('上级角色不存在');
        if (existing && subtree(String(existing.id), roles).has(parentId)) throw badRequest('上级角色不能是自己或自己的下级');
      }
      return out;
    },
    async beforeRemove(ctx, ids) {
      const visible = await platform.repo(role).all(ctx, {}, [(eb) => eb('id', 'in', ids)]);
      if (visible.some((r) => r.roleAlias === ADMINISTRATOR)) throw badRequest(ROLE_MESSAGES.administrator);
      await new EscalationGuard(platform).assertCoversRoles(ctx.principal, visible);
      if (await held(platform.db, visible.map((r) => r.id))) throw badRequest(ROLE_MESSAGES.inUse);
    },
  };
}

/** The tenant a tree is asked for: the platform administrator may name any; everyone else gets its own. */
const tenantOf = (principal: Principal, asked: string | undefined) => (isPlatformAdmin(principal) && asked ? asked : principal.tenantId);

/** The role tree of a tenant; the administrator role is hidden from callers who are not administrators (BladeX). */
async function roleTree(platform: Platform, ctx: CallContext, tenantId: string, without?: string) {
  let roles = await tenantRoles(platform, ctx, tenantId);
  if (!ctx.principal.roleNames.includes(ADMINISTRATOR)) roles = roles.filter((r) => r.roleAlias !== ADMINISTRATOR);
  const excluded = without ? subtree(without, roles) : new Set<string>();
  return forest(roles.filter((r) => !excluded.has(r.id)).map((r) => treeNode(r.id, r.parentId, r.roleName)));
}

/** Scope ids that are menu ids are tree parents the console sends along with the checked scopes: dropped. */
const scopesOnly = (ids: readonly string[], menus: MenuSet) => ids.filter((id) => !menus.byId.has(id));

/** Every scope id must be a live scope of its category whose menu the caller may grant (rights: shared scope rows). */
async function checkScopes(db: Db, table: 'blade_scope_data' | 'blade_scope_api', ids: readonly string[], grantable: ReadonlySet<string>): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.selectFrom(table).select(['id', 'menuId']).where('id', 'in', ids as string[]).where('isDeleted', '=', 0).execute();
  if (rows.length !== ids.length) throw badRequest(ROLE_MESSAGES.noScope);
  if (rows.some((r) => !grantable.has(r.menuId))) throw badRequest(ROLE_MESSAGES.scopeOutside);
}

interface GrantBody {
  roleIds: string[];
  menuIds: string[];
  dataScopeIds: string[];
  apiScopeIds: string[];
}

/** Replaces the roles' menus and scopes in one transaction, after checking every id against the caller's rights. */
async function grant(platform: Platform, ctx: CallContext, body: GrantBody): Promise<void> {
  const { db } = platform;
  const caller = ctx.principal;
  if (body.roleIds.length === 0) throw badRequest('请选择角色');
  const roles = await platform.repo(role).all(ctx, {}, [(eb) => eb('id', 'in', body.roleIds)]);
  if (roles.length !== body.roleIds.length) throw badRequest(ROLE_MESSAGES.noRole);
  if (!caller.roleNames.includes(ADMINISTRATOR) && roles.some((r) => r.roleAlias === ADMINISTRATOR)) throw badRequest(ROLE_MESSAGES.noAdministratorGrant);
  const guard = new EscalationGuard(platform);
  await guard.assertCoversRoles(caller, roles);

  const menus = await MenuSet.load(db);
  if (body.menuIds.some((id) => !menus.byId.has(id))) throw badRequest(ROLE_MESSAGES.noMenu);
  const dataScopeIds = scopesOnly(body.dataScopeIds, menus);
  const apiScopeIds = scopesOnly(body.apiScopeIds, menus);
  // the platform administrator may grant roles of several tenants at once: each tenant's package applies
  for (const tenantId of new Set(roles.map((r) => r.tenantId))) {
    const grantable = await grantableMenuIds(db, menus, caller, tenantId);
    if (body.menuIds.some((id) => !grantable.ids.has(id))) throw badRequest(grantable.refusal);
    await checkScopes(db, 'blade_scope_data', dataScopeIds, grantable.ids);
    await checkScopes(db, 'blade_scope_api', apiScopeIds, grantable.ids);
    await guard.assertScopesHeld(caller, tenantId, dataScopeIds, apiScopeIds);
  }

  const roleIds = roles.map((r) => r.id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('blade_role_menu').where('roleId', 'in', roleIds).execute();
    await trx.deleteFrom('blade_role_scope').where('roleId', 'in', roleIds).where('scopeCategory', 'in', [SCOPE_DATA, SCOPE_API]).execute();
    const menuLinks = roleIds.flatMap((roleId) => body.menuIds.map((menuId) => ({ id: nextId(), roleId, menuId })));
    const scopeLinks = roleIds.flatMap((roleId) => [
      ...dataScopeIds.map((scopeId) => ({ id: nextId(), roleId, scopeId, scopeCategory: SCOPE_DATA })),
      ...apiScopeIds.map((scopeId) => ({ id: nextId(), roleId, scopeId, scopeCategory: SCOPE_API })),
    ]);
    await insertChunked(trx, 'blade_role_menu', menuLinks);
    await insertChunked(trx, 'blade_role_scope', scopeLinks);
  });
  platform.events.emit('changed', 'blade_role_menu');
  platform.events.emit('changed', 'blade_role_scope');
}

export function registerRole(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, role, roleHooks(platform));

  app.get(`${BASE}/tree`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(await roleTree(platform, ctx, tenantOf(ctx.principal, text(paramsOf(request), 'tenantId'))));
  });

  app.get(`${BASE}/tree-by-id`, needs('role'), async (request) => {
    const ctx = contextOf(request);
    const roleId = requiredText(paramsOf(request), 'roleId');
    const target = await platform.repo(role).byId(ctx, roleId);
    if (!target) throw badRequest(ROLE_MESSAGES.noRole);
    return ok(await roleTree(platform, ctx, target.tenantId, roleId));
  });

  app.get(`${BASE}/select`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const userId = text(paramsOf(request), 'userId');
    if (!userId) return ok(await platform.repo(role).all(ctx, {}, [(eb) => eb('tenantId', '=', ctx.principal.tenantId)]));
    const user = await (await platform.repo(userResource).select(ctx)).select('roleId').where('id', '=', userId).executeTakeFirst();
    if (!user) throw badRequest('用户不存在或无权操作');
    const roleIds = idArray(user.roleId);
    return ok(roleIds.length ? await platform.repo(role).all(ctx, {}, [(eb) => eb('id', 'in', roleIds)]) : []);
  });

  app.post(`${BASE}/grant`, needs('role_setting'), async (request) => {
    const ctx = contextOf(request);
    const body = { ...paramsOf(request), ...bodyOf(request) };
    if (body.roleIds === undefined) throw badRequest('请选择角色');
    await grant(platform, ctx, {
      roleIds: idArray(body.roleIds),
      menuIds: idArray(body.menuIds),
      dataScopeIds: idArray(body.dataScopeIds),
      apiScopeIds: idArray(body.apiScopeIds),
    });
    return ok(true);
  });
}
