import type { FastifyInstance } from 'fastify';
import { menu, MENU_CATEGORY } from '../../../../resources/system/menu';
import { role } from '../../../../resources/system/role';
import { topmenu } from '../../../../resources/system/topmenu';
import type { Principal } from '../../../auth/principal';
import { SCOPE_API, SCOPE_DATA } from '../../../auth/scopes';
import type { Db, Row } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import type { Condition } from '../../../http/conditions';
import { type CrudHooks, registerCrud } from '../../../http/crud';
import { contextOf, idsOf, paramsOf, text } from '../../../http/context';
import { badRequest, ok } from '../../../http/envelope';
import type { Platform } from '../../../platform';
import { grantableMenuIds, MenuSet, roleMenuIds, roleScopeIds, type MenuRow, usableMenuIds } from './grants';
import { forest, subtree, type TreeNode, treeNode } from '../../../http/trees';
import { needs } from '../../../auth/rights';

const BASE = '/blade-system/menu';

/** Menu writes keep the tree sound: the parent exists, is a menu (not a button) and is not the node itself or below it. */
function menuHooks(db: Db): CrudHooks {
  return {
    async beforeSave(_ctx, values, existing) {
      const out: Row = existing ? { ...values } : { parentId: '0', sort: 0, action: 0, isOpen: 1, ...values };
      if (out.parentId === null || out.parentId === '') out.parentId = '0';
      const menus = await MenuSet.load(db);
      const parentId = (out.parentId ?? existing?.parentId ?? '0') as string;
      if (parentId !== '0') {
        const parent = menus.byId.get(parentId);
        if (!parent) throw badRequest('上级菜单不存在');
        if (parent.category !== MENU_CATEGORY.menu) throw badRequest('上级节点只能选择菜单类型');
        if (existing && subtree(String(existing.id), menus.rows).has(parentId)) throw badRequest('上级菜单不能是自己或自己的下级');
      }
      const category = Number(out.category ?? existing?.category);
      if (existing && category === MENU_CATEGORY.button && menus.rows.some((m) => m.parentId === String(existing.id))) {
        throw badRequest('存在下级菜单的节点不能改为按钮');
      }
      return out;
    },
  };
}

/** Ids of live menus among `ids` that have children (of the given category when set). */
async function parentsAmong(db: Db, ids: readonly string[], category?: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  let qb = db.selectFrom('blade_menu').select('parentId').where('parentId', 'in', ids as string[]).where('isDeleted', '=', 0);
  if (category !== undefined) qb = qb.where('category', '=', category);
  const rows = await qb.groupBy('parentId').execute();
  return new Set(rows.map((r) => String(r.parentId)));
}

/** One level of the menu table for lazy trees, with hasChildren; without parentId, every row matching the filters. */
async function lazyList(platform: Platform, ctx: CallContext, params: Record<string, unknown>, category?: number): Promise<Row[]> {
  const { parentId: _ignored, ...filters } = params;
  const parentId = text(params, 'parentId');
  const extra: Condition[] = [];
  if (parentId !== undefined) extra.push((eb) => eb('parentId', '=', parentId));
  if (category !== undefined) extra.push((eb) => eb('category', '=', category));
  const rows = await platform.repo(menu).all(ctx, filters, extra);
  const parents = await parentsAmong(platform.db, rows.map((r) => r.id), category);
  return rows.map((r) => ({ ...r, hasChildren: parents.has(r.id) }));
}

/** The menus a top menu was granted, when the top menu belongs to the caller's tenant. */
async function topMenuMenuIds(platform: Platform, ctx: CallContext, topMenuIds: readonly string[]): Promise<string[]> {
  const visible = await platform.repo(topmenu).all(ctx, {}, [(eb) => eb('id', 'in', topMenuIds as string[])]);
  if (visible.length === 0) return [];
  const rows = await platform.db
    .selectFrom('blade_top_menu_setting')
    .select('menuId')
    .where('topMenuId', 'in', visible.map((t) => t.id))
    .execute();
  return [...new Set(rows.map((r) => r.menuId))];
}

/**
 * Live scopes of a category, each under its menu, limited to the menus the caller may grant (BladeX grant-tree).
 * Rights: the scope rows are shared by every tenant, the grantable menus decide (raw-queries.ts, IDENTITY).
 */
async function scopeTree(db: Db, menus: MenuSet, table: 'blade_scope_data' | 'blade_scope_api', allowed: ReadonlySet<string>) {
  const scopes = await db.selectFrom(table).select(['id', 'menuId', 'scopeName']).where('isDeleted', '=', 0).orderBy('id').execute();
  const granted = scopes.filter((s) => allowed.has(s.menuId));
  const menuIds = new Set(granted.map((s) => s.menuId));
  const nodes: TreeNode[] = [
    ...menus.pick(menuIds).map((m) => treeNode(m.id, m.parentId, m.name)),
    ...granted.map((s) => treeNode(s.id, s.menuId, s.scopeName)),
  ];
  return forest(nodes);
}

/** Menu nodes with what the console needs to translate them and to keep only the screens it has. */
const nodesOf = (rows: readonly MenuRow[]) => forest(rows.map((m) => treeNode(m.id, m.parentId, m.name, { code: m.code, path: m.path, category: m.category })));

/** Ids of the roles among `ids` the caller may see (its tenant's, or any for the platform administrator). */
async function visibleRoleIds(platform: Platform, ctx: CallContext, ids: readonly string[]): Promise<string[]> {
  const rows = await platform.repo(role).all(ctx, {}, [(eb) => eb('id', 'in', ids as string[])]);
  return rows.map((r) => r.id);
}

/**
 * The caller's menus (category 1) with their ancestors, in display order, among every live menu: what `routes` shows
 * as a tree and the home's quick entries list (wit-xinde/statistics.ts).
 */
export async function routeMenus(platform: Platform, ctx: CallContext, topMenuId?: string): Promise<{ menus: MenuSet; rows: MenuRow[] }> {
  const menus = await MenuSet.load(platform.db);
  let ids = menus.withAncestors(await usableMenuIds(platform.db, menus, ctx.principal));
  if (topMenuId) {
    const topIds = new Set(await topMenuMenuIds(platform, ctx, [topMenuId]));
    ids = menus.withAncestors([...ids].filter((id) => topIds.has(id)));
  }
  return { menus, rows: menus.pick(ids).filter((m) => m.category === MENU_CATEGORY.menu) };
}

async function routes(platform: Platform, ctx: CallContext, topMenuId: string | undefined) {
  return forest((await routeMenus(platform, ctx, topMenuId)).rows);
}

/** Granted buttons under the menus they belong to; the console flattens the leaves' codes. */
async function buttons(platform: Platform, principal: Principal) {
  const menus = await MenuSet.load(platform.db);
  const usable = await usableMenuIds(platform.db, menus, principal);
  const granted = menus.pick(usable).filter((m) => m.category === MENU_CATEGORY.button);
  const owners = new Set(granted.map((b) => b.parentId));
  return forest(menus.rows.filter((m) => owners.has(m.id) || (usable.has(m.id) && m.category === MENU_CATEGORY.button)));
}

export function registerMenu(app: FastifyInstance, platform: Platform): void {
  const { db } = platform;
  registerCrud(app, platform, menu, menuHooks(db));

  app.get(`${BASE}/routes`, needs.self, async (request) => {
    const ctx = contextOf(request);
    return ok(await routes(platform, ctx, text(paramsOf(request), 'topMenuId')));
  });

  app.get(`${BASE}/buttons`, needs.self, async (request) => ok(await buttons(platform, contextOf(request).principal)));

  app.get(`${BASE}/top-menu`, needs.self, async (request) => {
    const ctx = contextOf(request);
    return ok(await platform.repo(topmenu).all(ctx, {}, [(eb) => eb('tenantId', '=', ctx.principal.tenantId)]));
  });

  app.get(`${BASE}/tree`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const menus = await MenuSet.load(db);
    const tenantId = text(paramsOf(request), 'tenantId');
    const { ids } = tenantId ? await grantableMenuIds(db, menus, ctx.principal, tenantId) : { ids: menus.allIds };
    return ok(nodesOf(menus.pick(ids).filter((m) => m.category === MENU_CATEGORY.menu)));
  });

  app.get(`${BASE}/grant-tree`, needs('role_setting'), async (request) => {
    const { principal } = contextOf(request);
    const menus = await MenuSet.load(db);
    const { ids } = await grantableMenuIds(db, menus, principal, principal.tenantId);
    return ok({
      menu: nodesOf(menus.pick(ids)),
      dataScope: await scopeTree(db, menus, 'blade_scope_data', ids),
      apiScope: await scopeTree(db, menus, 'blade_scope_api', ids),
    });
  });

  app.get(`${BASE}/role-tree-keys`, needs('role_setting'), async (request) => {
    const ctx = contextOf(request);
    const roleIds = await visibleRoleIds(platform, ctx, idsOf(paramsOf(request), 'roleIds'));
    const menus = await MenuSet.load(db);
    return ok({
      menu: [...(await roleMenuIds(db, roleIds))].filter((id) => menus.byId.has(id)),
      dataScope: await roleScopeIds(db, roleIds, SCOPE_DATA),
      apiScope: await roleScopeIds(db, roleIds, SCOPE_API),
    });
  });

  app.get(`${BASE}/grant-top-tree`, needs('topmenu_setting'), async (request) => {
    const { principal } = contextOf(request);
    const menus = await MenuSet.load(db);
    const ids = menus.withAncestors(await usableMenuIds(db, menus, principal));
    return ok({ menu: nodesOf(menus.pick(ids).filter((m) => m.category === MENU_CATEGORY.menu)) });
  });

  app.get(`${BASE}/top-tree-keys`, needs('topmenu_setting'), async (request) => {
    const ctx = contextOf(request);
    return ok({ menu: await topMenuMenuIds(platform, ctx, idsOf(paramsOf(request), 'topMenuIds')) });
  });

  app.get(`${BASE}/lazy-list`, needs('menu'), async (request) => ok(await lazyList(platform, contextOf(request), paramsOf(request))));
  app.get(`${BASE}/lazy-menu-list`, needs('menu'), async (request) =>
    ok(await lazyList(platform, contextOf(request), paramsOf(request), MENU_CATEGORY.menu)),
  );

  app.get(`${BASE}/menu-list`, needs('menu'), async (request) => {
    const ctx = contextOf(request);
    const rows = await platform.repo(menu).all(ctx, paramsOf(request), [(eb) => eb('category', '=', MENU_CATEGORY.menu)]);
    return ok(forest(rows.map((r) => ({ ...r, id: r.id, parentId: String(r.parentId) }))));
  });
}
