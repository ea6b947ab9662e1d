import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database';
import type { LooseSchema } from '../db/tables';
import type { EventBus } from '../events';
import { isPlatformAdmin, type Principal } from './principal';

/**
 * Data scope and API scope (CONTRACT.md): scopes are declared per menu and resource, granted to roles through
 * blade_role_scope (category 1 data, 2 api). A resource or path that no scope names is unrestricted; once a scope
 * names it, only roles granted such a scope may go there, and the grant decides which rows they see.
 */

export const SCOPE_DATA = 1;
export const SCOPE_API = 2;

export const DATA_SCOPE = { all: 1, own: 2, ownDept: 3, ownDeptAndChildren: 4, custom: 5 } as const;

interface DataScopeRow {
  id: string;
  resourceCode: string;
  scopeType: number;
  scopeColumn: string | null;
  scopeValue: string | null;
}

interface ApiScopeRow {
  id: string;
  scopePath: string;
}

interface Snapshot {
  data: DataScopeRow[];
  api: Array<ApiScopeRow & { pattern: RegExp }>;
  /** role id -> granted scope ids, per category */
  grants: Map<string, Set<string>>;
}

// Data scopes name columns from their rules at run time: they see the database untyped.
type Filter = (eb: ExpressionBuilder<LooseSchema, string>) => Expression<SqlBool>;

/** Where a data filter runs: the executor to read the scopes with (a transaction), and the table to name columns by. */
export interface DataFilterOn {
  db?: Db;
  table: string;
}

/** `/blade-user/**`, `/blade-user/page` or a prefix; matched against paths without the /api prefix. */
function patternOf(path: string): RegExp {
  const clean = path.trim().replace(/^\/api(?=\/)/, '');
  const escaped = clean.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replaceAll('\u0000', '.*');
  return new RegExp(`^${escaped}$`);
}

export class ScopeService {
  private snapshot?: Promise<Snapshot>;

  constructor(
    private readonly db: Db,
    events: EventBus,
  ) {
    events.whenChanged(['blade_scope_data', 'blade_scope_api', 'blade_role_scope'], () => {
      this.snapshot = undefined;
    });
  }

  /**
   * Reads the scopes once (until they change). `db` is the executor to read with: inside a transaction on SQLite
   * the one connection is the transaction's, so a read on the database itself would wait for it forever.
   */
  private load(db: Db = this.db): Promise<Snapshot> {
    this.snapshot ??= (async () => {
      const data = (await db
        .selectFrom('blade_scope_data')
        .select(['id', 'resourceCode', 'scopeType', 'scopeColumn', 'scopeValue'])
        .where('isDeleted', '=', 0)
        .execute()) as unknown as DataScopeRow[];
      const api = (await db
        .selectFrom('blade_scope_api')
        .select(['id', 'scopePath'])
        .where('isDeleted', '=', 0)
        .execute()) as unknown as ApiScopeRow[];
      const links = (await db.selectFrom('blade_role_scope').select(['roleId', 'scopeId']).execute()) as Array<{
        roleId: string;
        scopeId: string;
      }>;
      const grants = new Map<string, Set<string>>();
      for (const link of links) {
        const set = grants.get(link.roleId) ?? new Set<string>();
        set.add(link.scopeId);
        grants.set(link.roleId, set);
      }
      return { data, api: api.map((row) => ({ ...row, pattern: patternOf(row.scopePath) })), grants };
    })();
    return this.snapshot;
  }

  private granted(snapshot: Snapshot, principal: Principal, scopeId: string): boolean {
    return principal.roleIds.some((role) => snapshot.grants.get(role)?.has(scopeId));
  }

  /** May this caller call this path? Paths that no API scope names are open to every signed-in user. */
  async apiAllowed(principal: Principal, path: string): Promise<boolean> {
    if (isPlatformAdmin(principal)) return true;
    const snapshot = await this.load();
    const covering = snapshot.api.filter((scope) => scope.pattern.test(path));
    return covering.length === 0 || covering.some((scope) => this.granted(snapshot, principal, scope.id));
  }

  /**
   * The row filter of the caller's data scopes for a resource (`service/name` or its table), or undefined when
   * the caller sees all its tenant's rows. Several granted scopes widen each other.
   */
  async dataFilter(principal: Principal, codes: readonly string[], columns: readonly string[], on: DataFilterOn): Promise<Filter | undefined> {
    if (isPlatformAdmin(principal)) return undefined;
    const snapshot = await this.load(on.db);
    const scopes = snapshot.data.filter((s) => codes.includes(s.resourceCode) && this.granted(snapshot, principal, s.id));
    if (scopes.length === 0 || scopes.some((s) => s.scopeType === DATA_SCOPE.all)) return undefined;
    const filters = scopes.map((scope) => this.filterOf(scope, principal, columns, on.table));
    return (eb) => eb.or(filters.map((f) => f(eb)));
  }

  /** Loads the scopes now, so a transaction that starts next finds them read (server/db/repository.ts `transact`). */
  async ready(): Promise<void> {
    await this.load();
  }

  private filterOf(scope: DataScopeRow, principal: Principal, columns: readonly string[], table: string): Filter {
    const wanted = scope.scopeColumn ? scope.scopeColumn.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : undefined;
    const column = (fallback: string) => `${table}.${wanted && columns.includes(wanted) ? wanted : fallback}`;
    switch (scope.scopeType) {
      case DATA_SCOPE.own:
        return (eb) => eb(column('createUser'), '=', principal.userId);
      case DATA_SCOPE.ownDept:
        return (eb) => eb(column('createDept'), '=', principal.deptId);
      case DATA_SCOPE.ownDeptAndChildren:
        return (eb) =>
          eb(
            column('createDept'),
            'in',
            // Whole ids in the comma-joined path: dept 17002 below 17001 is not below 7001.
            sql<string>`(select id from blade_dept where id = ${principal.deptId} or ',' || ancestors || ',' like ${`%,${principal.deptId},%`})`,
          );
      default: {
        const depts = (scope.scopeValue ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        return (eb) => (depts.length ? eb(column('createDept'), 'in', depts) : sql<SqlBool>`1 = 0`);
      }
    }
  }
}
