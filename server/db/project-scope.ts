import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { ADMINISTRATOR, isPlatformAdmin, type Principal } from '../auth/principal';
import type { Condition } from '../http/conditions';

/**
 * The project data scope of the monitoring domain. Rows of a project in the recycle bin disappear with it; a user
 * who has rows in wit_user_project sees only those projects and what belongs to them. Administrators (role alias
 * administrator) and users without assignments see every live project of their tenant; the tenant filter itself
 * stays the repository's.
 */

/** The caller's assigned projects, or undefined when the caller is not limited to some. */
export function assignedProjects(p: Principal): RawBuilder<unknown> | undefined {
  if (isPlatformAdmin(p) || p.roleNames.includes(ADMINISTRATOR)) return undefined;
  return sql`select project_id from wit_user_project where user_id = ${p.userId} and is_deleted = 0`;
}

/** Live projects the caller may see; with `binned`, projects in the recycle bin too; with `only`, of those ids. */
function visibleProjects(p: Principal, binned: boolean, only?: readonly string[]): RawBuilder<unknown> {
  const live = binned ? sql`1 = 1` : sql`is_deleted = 0`;
  if (only) return only.length ? sql`select id from wit_project where ${live} and id in (${sql.join(only)})` : sql`select id from wit_project where 1 = 0`;
  const assigned = assignedProjects(p);
  if (!assigned) return sql`select id from wit_project where ${live}`;
  return sql`select id from wit_project where ${live} and (id in (${assigned}) or not exists (${assigned}))`;
}

/** A hop of `projectThrough`: `table.column`, both plain identifiers (they go into the SQL as they are). */
const HOP = /^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)$/;

/**
 * `field` (or the chain of live rows of `table.column` hops from it) leads to a visible project; rows of no project
 * only for the unlimited. A point of a removed device thus goes with it. With `binned` (rows of the recycle bin) the
 * chain and the project may be removed too: only the caller's assignments limit it. `only` limits to those projects
 * instead of the caller's assignments (a display link's, server/auth/display.ts).
 */
export function projectScope(p: Principal, field: string, through: readonly string[] = [], binned = false, only?: readonly string[]): Condition {
  const limited = only !== undefined || assignedProjects(p) !== undefined;
  const visible = visibleProjects(p, binned, only);
  const live = binned ? sql`1 = 1` : sql`is_deleted = 0`;
  const last = (column: RawBuilder<unknown>) =>
    limited ? sql<SqlBool>`${column} in (${visible})` : sql<SqlBool>`(${column} is null or ${column} in (${visible}))`;
  if (through.length === 0) return () => last(sql.ref(field));
  // Innermost first: the last hop holds the project id; each earlier hop selects ids of its table.
  let inner: RawBuilder<unknown> | undefined;
  for (const hop of [...through].reverse()) {
    const match = HOP.exec(hop);
    if (!match) throw new Error(`bad projectThrough hop ${hop}`);
    const [, table, column] = match;
    const test = inner ? sql`${sql.raw(column)} in (${inner})` : last(sql.raw(column));
    inner = sql`select id from ${sql.raw(table)} where ${live} and ${test}`;
  }
  return () => sql<SqlBool>`${sql.ref(field)} in (${inner})`;
}

/** The tables a project scope reads, whose changes alter what a scoped list counts. */
export const projectScopeTables = (through: readonly string[] = []): string[] => ['wit_project', 'wit_user_project', ...through.map((hop) => hop.split('.')[0])];
