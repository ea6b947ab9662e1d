import type { Reference, Resource } from '../../resources/define';
import { RESOURCES } from '../../resources';
import { isPlatformAdmin } from '../auth/principal';
import type { Condition } from '../http/conditions';
import { badRequest } from '../http/envelope';
import type { Platform } from '../platform';
import type { Row } from './database';
import type { CallContext } from './repository';
import { loose } from './tables';
import { slices } from './slices';

/**
 * The references a resource declares (resources/define.ts `references`, `inUse`), applied for every resource: a
 * write naming a row the caller may not see is refused, listed rows get the names of the rows they reference, and a
 * row still named by live rows is not removed (docs/resources.md "References").
 */

type Platformish = Pick<Platform, 'db' | 'repo' | 'resources'>;

/** A declared reference with the field it is declared on. */
export interface FieldReference extends Reference {
  field: string;
}

export function referencesOf(resource: Resource): FieldReference[] {
  const declared: Readonly<Record<string, Reference | undefined>> = resource.references ?? {};
  return Object.entries(declared).flatMap(([field, ref]) => (ref ? [{ ...ref, field }] : []));
}

/** Values that name no row: absent, empty, or the `0` of "none" (a tree's root). */
const names = (value: unknown): boolean => !(value === undefined || value === null || value === '' || value === '0');

/**
 * The tenant a saved row belongs to once saved: the one the platform administrator names (Repository.insert and
 * update let it move rows), else the row's own when it exists, else the caller's.
 */
export function tenantOfRow(ctx: CallContext, values: Row, existing: Row | undefined): string {
  const p = ctx.principal;
  if (isPlatformAdmin(p) && typeof values.tenantId === 'string') return values.tenantId;
  return existing ? String(existing.tenantId) : p.tenantId;
}

/**
 * The rows the values' declared references name, by field. Each must be a row the caller sees through the scoped
 * repository and, between tenant resources, of the saved row's tenant; else a 400 with the reference's `missing`.
 */
export async function referencedRows(platform: Platformish, ctx: CallContext, resource: Resource, values: Row, existing?: Row): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  const tenantId = resource.tenancy === 'tenant' ? tenantOfRow(ctx, values, existing) : undefined;
  // A row moved to another tenant must not keep naming its old tenant's rows: its kept references are checked too.
  const moved = existing !== undefined && tenantId !== undefined && tenantId !== String(existing.tenantId);
  const saved = moved ? { ...existing, ...values } : values;
  const refs = referencesOf(resource).filter((ref) => names(saved[ref.field]));
  if (refs.length === 0) return found;
  for (const ref of refs) {
    const target = ref.to();
    const conditions: Condition[] = [(eb) => eb('id', '=', String(saved[ref.field]))];
    if (tenantId !== undefined && target.tenancy === 'tenant') conditions.push((eb) => eb('tenantId', '=', tenantId));
    const [row] = await platform.repo(target).all(ctx, {}, conditions, 1);
    if (!row) throw badRequest(ref.missing);
    found.set(ref.field, row);
  }
  return found;
}

/** `shows` of the rows of `table` with the given ids, by id; removed rows keep their names (a log names them). */
async function namesOf(platform: Platformish, table: string, column: string, ids: string[]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const slice of slices(ids)) {
    // Tables and columns come from the declarations at run time: the untyped view.
    const rows = await loose(platform.db).selectFrom(table).select(['id', column]).where('id', 'in', slice).execute();
    for (const row of rows) out.set(String(row.id), row[column]);
  }
  return out;
}

/**
 * Adds to each row, for each declared reference with an `as` (only those on `fields` when given), the referenced
 * row's `shows` column: one query per reference for all the rows; null when the row names none or a row that is gone.
 */
export async function withReferenceNames(platform: Platformish, resource: Resource, rows: Row[], fields?: readonly string[]): Promise<Row[]> {
  const refs = referencesOf(resource).filter((ref) => ref.as && (!fields || fields.includes(ref.field)));
  if (rows.length === 0 || refs.length === 0) return rows;
  const out = rows.map((r) => ({ ...r }));
  for (const ref of refs) {
    const ids = [...new Set(rows.map((r) => r[ref.field]).filter((v): v is string => typeof v === 'string' && names(v)))];
    const found = await namesOf(platform, ref.to().table, ref.shows ?? 'name', ids);
    for (const row of out) {
      const id = row[ref.field];
      row[ref.as as string] = typeof id === 'string' ? (found.get(id) ?? null) : null;
    }
  }
  return out;
}

/** Where rows of `target` are named so that they hold it: [table, column] of the declared resources' references. */
export function usesOf(resources: readonly Resource[], target: Resource): Array<readonly [table: string, column: string]> {
  const uses = new Map<string, readonly [string, string]>();
  for (const resource of resources) {
    for (const ref of referencesOf(resource)) {
      if (ref.holds === false || ref.to().table !== target.table) continue;
      uses.set(`${resource.table}.${ref.field}`, [resource.table, ref.field]);
    }
  }
  return [...uses.values()];
}

/** Remove refuses, with the resource's `inUse`, visible rows among `ids` that a live row still names. */
export async function assertNotInUse(platform: Platformish, ctx: CallContext, resource: Resource, ids: readonly string[]): Promise<void> {
  if (!resource.inUse || ids.length === 0) return;
  // Every declaration, also those served only by their module's own calls (device groups).
  const uses = usesOf(RESOURCES, resource);
  if (uses.length === 0) return;
  const visible = (await platform.repo(resource).all(ctx, {}, [(eb) => eb('id', 'in', [...ids])])).map((r) => r.id);
  if (visible.length === 0) return;
  for (const [table, column] of uses) {
    const used = await loose(platform.db).selectFrom(table).select('id').where(column, 'in', visible).where('isDeleted', '=', 0).executeTakeFirst();
    if (used) throw badRequest(resource.inUse);
  }
}
