import type { Db } from '../db/database';
import type { EventBus } from '../events';
import { ADMINISTRATOR, PLATFORM_TENANT, type Principal } from './principal';
import { SCOPE_API, SCOPE_DATA } from './scopes';

/**
 * The right a route needs (docs/authorisation.md). Every API route declares one; a route without one does not
 * register.
 * - public: no token needed (sign-in, captcha, the tenant's login page settings);
 * - session: any valid token, a registering third-party guest's included (logout, user-info);
 * - guest: only a registering third-party guest (register-guest);
 * - self: any signed-in user; the call reads or changes only the caller's own things (profile, password, notices,
 *   menus) or the reference data every screen shows (dictionaries);
 * - lookup: a signed-in user holding at least one menu: the pickers (select lists and trees of names) that the
 *   forms of many screens share; rows stay limited by tenant, data scope and projects;
 * - menu: one of the menu or button codes of the menu tree (`user`, `user_reset`), granted to one of the caller's
 *   roles;
 * - display: only a wall screen's display link (the `Vigil-Display` header, server/auth/display.ts), never a user's
 *   token; a display link is no credential on any other route (docs/wall-screen.md).
 */
export type Right = { kind: 'public' | 'session' | 'guest' | 'self' | 'lookup' | 'display' } | { kind: 'menu'; codes: readonly string[] };

/** A menu right: any of these menu or button codes. */
export const menuRight = (...codes: string[]): Right => ({ kind: 'menu', codes });

export const PUBLIC: Right = { kind: 'public' };
const SESSION: Right = { kind: 'session' };
const GUEST: Right = { kind: 'guest' };
const SELF: Right = { kind: 'self' };
const LOOKUP: Right = { kind: 'lookup' };
const DISPLAY: Right = { kind: 'display' };

/** Route options declaring a right: `app.get(path, needs('user_reset'), handler)`. */
export function needs(...codes: string[]): { config: { right: Right } } {
  if (codes.length === 0) throw new Error('needs() takes at least one menu or button code');
  return { config: { right: menuRight(...codes) } };
}
needs.public = { config: { right: PUBLIC } };
needs.session = { config: { right: SESSION } };
needs.guest = { config: { right: GUEST } };
needs.self = { config: { right: SELF } };
needs.lookup = { config: { right: LOOKUP } };
needs.display = { config: { right: DISPLAY } };

/** What a set of roles of one tenant may do: menu and button codes (within the tenant's package), API scopes. */
export interface Holdings {
  codes: ReadonlySet<string>;
  dataScopes: ReadonlySet<string>;
  apiScopes: ReadonlySet<string>;
  /** One of the roles is the tenant's administrator role. */
  administrator: boolean;
  /** The platform administrator: every right everywhere. */
  platform: boolean;
}

interface MenuEntry {
  id: string;
  code: string;
  parentId: string;
}

/** Tables whose changes alter somebody's holdings. */
const GRANT_TABLES = new Set(['blade_role_menu', 'blade_role_scope', 'blade_menu', 'blade_role', 'blade_tenant', 'blade_tenant_package']);

/**
 * The caller's rights, computed once per role set and kept until a grant, menu, role, tenant or package changes;
 * and the caller's current roles, kept until a user changes — so a role taken away or an account disabled takes
 * effect on the next call, not at the token's expiry.
 */
export class RightsService {
  private holdings = new Map<string, Promise<Holdings>>();
  private users = new Map<string, Promise<readonly string[] | undefined>>();

  constructor(
    private readonly db: Db,
    events: EventBus,
  ) {
    events.whenChanged(GRANT_TABLES, () => this.holdings.clear());
    // A user's roles are read from its own row alone: a role it holds cannot be removed, nor its alias changed to or
    // from the administrator's (server/modules/blade-system/access/role.ts).
    events.whenChanged(['blade_user'], () => this.users.clear());
  }

  /** The token's roles that the user still holds, or undefined when the account is gone or not enabled. */
  currentRoles(principal: Principal): Promise<readonly string[] | undefined> {
    let roles = this.users.get(principal.userId);
    if (!roles) {
      roles = this.loadUserRoles(principal.tenantId, principal.userId);
      this.users.set(principal.userId, roles);
    }
    return roles.then((held) => held && principal.roleIds.filter((id) => held.includes(id)));
  }

  private async loadUserRoles(tenantId: string, userId: string): Promise<readonly string[] | undefined> {
    const row = await this.db
      .selectFrom('blade_user')
      .select(['roleId', 'status'])
      .where('id', '=', userId)
      .where('tenantId', '=', tenantId)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (row?.status !== 1) return undefined;
    return String(row.roleId ?? '').split(',').filter(Boolean);
  }

  /** The principal with its token's roles narrowed to those it still holds, or undefined when its account is not enabled. */
  async current(principal: Principal): Promise<Principal | undefined> {
    const roles = await this.currentRoles(principal);
    if (!roles) return undefined;
    if (roles.length === principal.roleIds.length) return principal;
    // Names follow their ids, as the token pairs them.
    const keep = principal.roleIds.map((id) => roles.includes(id));
    return { ...principal, roleIds: principal.roleIds.filter((_, i) => keep[i]), roleNames: principal.roleNames.filter((_, i) => keep[i]) };
  }

  /** What these roles of this tenant hold. */
  of(tenantId: string, roleIds: readonly string[]): Promise<Holdings> {
    const key = `${tenantId}|${[...roleIds].sort().join(',')}`;
    let found = this.holdings.get(key);
    if (!found) {
      found = this.load(tenantId, roleIds);
      found.catch(() => this.holdings.delete(key));
      this.holdings.set(key, found);
    }
    return found;
  }

  ofPrincipal(principal: Principal): Promise<Holdings> {
    return this.of(principal.tenantId, principal.roleIds);
  }

  /** Whether the signed-in principal (roles already narrowed to its current ones) has the right. */
  async allows(principal: Principal, right: Right): Promise<boolean> {
    if (right.kind === 'guest' || right.kind === 'display') return false; // a guest's token, a display link: never a signed-in user's
    if (right.kind === 'public' || right.kind === 'session' || right.kind === 'self') return true;
    const held = await this.ofPrincipal(principal);
    if (held.platform) return true;
    if (right.kind !== 'menu') return held.codes.size > 0; // lookup
    return right.codes.some((code) => held.codes.has(code));
  }

  private async load(tenantId: string, roleIds: readonly string[]): Promise<Holdings> {
    const roles = roleIds.length
      ? await this.db.selectFrom('blade_role').select(['id', 'roleAlias']).where('id', 'in', [...roleIds]).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).execute()
      : [];
    const live = roles.map((r) => r.id);
    const administrator = roles.some((r) => r.roleAlias === ADMINISTRATOR);
    const platform = administrator && tenantId === PLATFORM_TENANT;
    const menus = await this.menus();
    const granted = live.length ? await this.db.selectFrom('blade_role_menu').select('menuId').where('roleId', 'in', live).execute() : [];
    const pkg = platform ? undefined : await this.packageMenus(tenantId, menus);
    const menuIds = new Set(
      platform ? menus.map((m) => m.id) : granted.map((g) => g.menuId).filter((id) => !pkg || pkg.has(id)),
    );
    const codes = new Set(menus.filter((m) => menuIds.has(m.id)).map((m) => m.code));
    const scopes = live.length ? await this.db.selectFrom('blade_role_scope').select(['scopeId', 'scopeCategory']).where('roleId', 'in', live).execute() : [];
    const scopeIds = (category: number) => new Set(scopes.filter((s) => s.scopeCategory === category).map((s) => s.scopeId));
    return { codes, dataScopes: scopeIds(SCOPE_DATA), apiScopes: scopeIds(SCOPE_API), administrator, platform };
  }

  private async menus(): Promise<MenuEntry[]> {
    const rows = await this.db.selectFrom('blade_menu').select(['id', 'code', 'parentId']).where('isDeleted', '=', 0).execute();
    return rows.map((r) => ({ id: r.id, code: r.code, parentId: String(r.parentId ?? '0') }));
  }

  /** The package's menus with their ancestors, or undefined when the tenant has no package. */
  private async packageMenus(tenantId: string, menus: readonly MenuEntry[]): Promise<Set<string> | undefined> {
    const ids = await packageMenuIds(this.db, tenantId);
    if (!ids) return undefined;
    const parentOf = new Map(menus.map((m) => [m.id, m.parentId]));
    const out = new Set<string>();
    for (const id of ids) {
      for (let at: string | undefined = id; at && at !== '0' && !out.has(at); at = parentOf.get(at)) out.add(at);
    }
    return out;
  }
}

/** The menu ids of a tenant's package, or undefined when the tenant has none (the platform tenant never has one). */
export async function packageMenuIds(db: Db, tenantId: string): Promise<Set<string> | undefined> {
  if (tenantId === PLATFORM_TENANT) return undefined;
  const row = await db
    .selectFrom('blade_tenant as t')
    .innerJoin('blade_tenant_package as p', 'p.id', 't.packageId')
    .select('p.menuId')
    .where('t.tenantId', '=', tenantId)
    .where('t.isDeleted', '=', 0)
    .where('p.isDeleted', '=', 0)
    .executeTakeFirst();
  return row ? new Set(String(row.menuId ?? '').split(',').map((s) => s.trim()).filter(Boolean)) : undefined;
}

/**
 * Whether `caller` may act on somebody holding `target` (edit, reset, remove, assign), both of one tenant: the
 * target's menus, buttons and API scopes are all the caller's too, an administrator is managed only by administrators,
 * and the platform tenant's administrators only by the platform administrator.
 */
export function covers(caller: Holdings, target: Holdings): boolean {
  if (caller.platform) return true;
  if (target.platform) return false;
  // A tenant's administrator may grant its whole package and any scope: it manages everyone of its tenant.
  if (caller.administrator) return true;
  if (target.administrator) return false;
  for (const code of target.codes) if (!caller.codes.has(code)) return false;
  for (const scope of target.apiScopes) if (!caller.apiScopes.has(scope)) return false;
  return true;
}

