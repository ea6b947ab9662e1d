import { ADMINISTRATOR, isPlatformAdmin, type Principal } from '../../../auth/principal';
import { packageMenuIds } from '../../../auth/rights';
import type { SCOPE_API, SCOPE_DATA } from '../../../auth/scopes';
import type { Db, Row } from '../../../db/database';
import { withAncestors } from '../../../http/trees';
import { loose, type TableName } from '../../../db/tables';
import { slices } from '../../../db/slices';

/**
 * Who may see and grant which menus. Menus are global; roles are granted menus (blade_role_menu); a tenant's
 * package limits what its roles may use and be granted. The platform administrator has every menu.
 */

export interface MenuRow {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string | null;
  path: string | null;
  source: string | null;
  sort: number | null;
  category: number;
  action: number;
  isOpen: number;
  remark: string | null;
  [column: string]: unknown;
}

/** Every live menu and button, in display order. */
export class MenuSet {
  readonly byId: ReadonlyMap<string, MenuRow>;
  readonly parentOf: ReadonlyMap<string, string>;

  constructor(readonly rows: readonly MenuRow[]) {
    this.byId = new Map(rows.map((row) => [row.id, row]));
    this.parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  }

  static async load(db: Db): Promise<MenuSet> {
    const rows = (await db.selectFrom('blade_menu').selectAll().where('isDeleted', '=', 0).orderBy('sort').orderBy('id').execute()) as MenuRow[];
    return new MenuSet(rows.map((row) => ({ ...row, id: row.id, parentId: String(row.parentId ?? '0') })));
  }

  /** The rows among ids, in display order. */
  pick(ids: ReadonlySet<string>): MenuRow[] {
    return this.rows.filter((row) => ids.has(row.id));
  }

  withAncestors(ids: Iterable<string>): Set<string> {
    return new Set([...withAncestors(ids, this.parentOf)].filter((id) => this.byId.has(id)));
  }

  get allIds(): Set<string> {
    return new Set(this.byId.keys());
  }
}

/** Inserts link rows in chunks that stay below every driver's parameter limit. */
export async function insertChunked(db: Db, table: TableName, rows: readonly Row[]): Promise<void> {
  // Rows of any link table, built at run time: the untyped view.
  for (const slice of slices(rows, 200)) await loose(db).insertInto(table).values(slice).execute();
}

/** Ids given as a JSON array or comma-joined (as BladeX stores and sends them), deduplicated. */
export function idArray(value: unknown): string[] {
  const list = Array.isArray(value) ? value : String(value ?? '').split(',');
  return [...new Set(list.map((v) => String(v).trim()).filter(Boolean))];
}

export async function roleMenuIds(db: Db, roleIds: readonly string[]): Promise<Set<string>> {
  if (roleIds.length === 0) return new Set();
  const rows = await db.selectFrom('blade_role_menu').select('menuId').where('roleId', 'in', roleIds as string[]).execute();
  return new Set(rows.map((r) => r.menuId));
}

export async function roleScopeIds(db: Db, roleIds: readonly string[], category: typeof SCOPE_DATA | typeof SCOPE_API): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('blade_role_scope')
    .select('scopeId')
    .where('roleId', 'in', roleIds as string[])
    .where('scopeCategory', '=', category)
    .execute();
  return [...new Set(rows.map((r) => r.scopeId))];
}

/** The menus and buttons a caller may use: all for the platform administrator, else its roles' grants within its package. */
export async function usableMenuIds(db: Db, menus: MenuSet, principal: Principal): Promise<Set<string>> {
  if (isPlatformAdmin(principal)) return menus.allIds;
  const granted = await roleMenuIds(db, principal.roleIds);
  const pkg = await packageMenuIds(db, principal.tenantId);
  const allowed = pkg ? menus.withAncestors(pkg) : undefined;
  return new Set([...granted].filter((id) => menus.byId.has(id) && (!allowed || allowed.has(id))));
}

export interface Grantable {
  ids: Set<string>;
  /** Why an id outside `ids` is refused. */
  refusal: string;
}

export const GRANT_MESSAGES = {
  outsidePackage: '所选菜单不在租户产品包内',
  notOwned: '无权分配本人未拥有的菜单',
} as const;

/**
 * The menus a caller may grant to roles of a tenant. A tenant with a package may be granted the package's menus
 * (and their ancestors, so the tree stays whole); the platform administrator may grant anything else; everyone else
 * only what it holds itself, and only a tenant administrator may hand out the whole package — so nobody can grant
 * themselves more than their administrator gave them.
 */
export async function grantableMenuIds(db: Db, menus: MenuSet, caller: Principal, tenantId: string): Promise<Grantable> {
  const pkg = await packageMenuIds(db, tenantId);
  const packaged = pkg ? menus.withAncestors(pkg) : undefined;
  if (isPlatformAdmin(caller)) return { ids: packaged ?? menus.allIds, refusal: GRANT_MESSAGES.outsidePackage };
  if (packaged && caller.roleNames.includes(ADMINISTRATOR) && caller.tenantId === tenantId) {
    return { ids: packaged, refusal: GRANT_MESSAGES.outsidePackage };
  }
  const own = menus.withAncestors(await usableMenuIds(db, menus, caller));
  return { ids: own, refusal: GRANT_MESSAGES.notOwned };
}
