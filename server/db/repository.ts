import type { DeleteQueryBuilder, DeleteResult, SelectQueryBuilder, Transaction, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { z } from 'zod';
import { type Resource, SECRET_MASK, type UniqueRule } from '../../resources/define';
import type { PresentedRowOf, RowOf } from '../../resources/rows';
import { isPlatformAdmin, type Principal } from '../auth/principal';
import type { ScopeService } from '../auth/scopes';
import { isSealed, type Secrets } from '../auth/secrets';
import { affects, type EventBus } from '../events';
import { filtersOf, type Condition, pagingOf, type Query, sortsOf } from '../http/conditions';
import { badRequest, forbidden, invalidParam, pageOf, type Page } from '../http/envelope';
import { nextId } from '../ids';
import { formatDateTime } from '../time';
import { CountCache } from './count-cache';
import { projectScope, projectScopeTables } from './project-scope';
import type { Db, DialectName, Row, Schema } from './database';
import { type LooseDb, type LooseSchema, loose, type Tables } from './tables';
import { slices } from './slices';

/**
 * The one place where tenant isolation, soft delete, audit columns and data scope are applied. Every list, read
 * and write of a declared resource goes through here, from the generic routes and from hand-written modules.
 *
 * Module code that needs more than the row calls uses the same gate:
 * - `select(ctx)`: a Kysely select with the scope already applied (its columns named by table, so joins stay
 *   unambiguous), typed by the resource's table; the module adds its own where, joins and aggregates, checked by the
 *   compiler.
 * - `updateWhere` / `removeWhere` / `purgeWhere`: bulk updates and soft deletes (with the audit columns) and hard
 *   deletes by conditions.
 * - `build` / `insertMany`: rows with their base columns (id, tenant, audit), for batch inserts.
 * - `within(trx)`: the same repository bound to a transaction; `transact` runs one and tells the caches of what its
 *   views wrote once it has committed.
 * - `{ deleted: true }`: the recycle bin (is_deleted = 1) instead of live rows, for restore and purge;
 *   `{ deleted: 'either' }`: live and binned rows, for the names and codes of rows other rows still name.
 * - `{ wholeTenant: true }`: tenant and soft delete only, not the caller's data or project scope, for upkeep that
 *   must reach every row of a family or none (a moved dept's subtree, a renamed dictionary code).
 *
 * Every write seals the declaration's `secrets` (and its `secretRows` on their rows) before it reaches the table;
 * reads answer without them, `reveal` opens a stored row's for the server's own use (docs/security.md).
 */

/**
 * The table of a resource as the schema names it. A resource whose table is not known literally (code generic over
 * any resource: the generic routes, exports, shared helpers) gets the loose builders (`LooseSchema`), as before.
 */
type TableOf<R extends Resource> = R['table'] & keyof Schema;
type Generic<R extends Resource> = string extends R['table'] ? true : false;

/** A scoped select of the resource's table: the module's columns, joins and where clauses are checked (docs/resources.md "Typed rows"). */
export type Select<R extends Resource = Resource> = Generic<R> extends true
  ? LooseSelect
  : // biome-ignore lint/complexity/noBannedTypes: Kysely's own type of a select with nothing selected yet
    SelectQueryBuilder<Schema, TableOf<R>, {}>;
/** Columns a module sets or writes: any value (the zod schema or the module checks it), but only the table's columns. */
export type Values<R extends Resource = Resource> = { [C in ColumnOf<R>]?: unknown };
type ColumnOf<R extends Resource> = Generic<R> extends true ? string : Extract<keyof Tables[TableOf<R>], string>;
export type Trx = Transaction<Schema>;

// Inside, the builders name the resource's table and columns at run time, so they see the database untyped.
type LooseSelect = SelectQueryBuilder<LooseSchema, string, Row>;
type LooseUpdate = UpdateQueryBuilder<LooseSchema, string, string, UpdateResult>;
type LooseDelete = DeleteQueryBuilder<LooseSchema, string, DeleteResult>;

/**
 * The one cast between the two views: a select made on the loose view of `this.resource.table` is handed out typed
 * by that same table (`Select<R>`), which the compiler cannot see through a run-time name.
 */
function typed<Typed>(builder: LooseSelect): Typed {
  return builder as unknown as Typed;
}

export interface ScopeOptions {
  /** Rows in the recycle bin instead of live ones; `either`: both (a binding still shows its removed device's code). */
  deleted?: boolean | 'either';
  /** Only the tenant (and soft delete), not the caller's data scope and project scope. */
  wholeTenant?: boolean;
}

/** Tables written through views of a transaction `transact` runs: their `changed` events wait for the commit. */
const pendingChanges = new WeakMap<Db, Set<string>>();

/**
 * Runs `work` in one transaction. Writes through `repo.within(trx)` emit `changed` after the commit, so no cache
 * counts rows that a rollback takes back, or keeps a count taken before the commit.
 */
export async function transact<T>(deps: Pick<RepositoryDeps, 'db' | 'events' | 'scopes'>, work: (trx: Trx) => Promise<T>): Promise<T> {
  // Read now: inside, SQLite's one connection belongs to the transaction (server/auth/scopes.ts `load`).
  await deps.scopes.ready();
  const changed = new Set<string>();
  const result = await deps.db.transaction().execute((trx) => {
    pendingChanges.set(trx, changed);
    return work(trx);
  });
  for (const table of changed) deps.events.emit('changed', table);
  return result;
}

export interface CallContext {
  principal: Principal;
  /**
   * A wall screen's display link (server/auth/display.ts): it reads only tenant rows, only live ones, only of the
   * link's projects (rows of no project not at all), whatever the options ask, and writes nothing.
   */
  display?: DisplayScope;
}

export interface DisplayScope {
  linkId: string;
  projectIds: readonly string[];
}

export interface RepositoryDeps {
  db: Db;
  dialect: DialectName;
  scopes: ScopeService;
  events: EventBus;
  /** Seals the resource's declared secrets on every write (server/auth/secrets.ts). */
  secrets: Secrets;
}

/** `status` is a base column that forms may set; everything else comes from the resource's fields. */
const BASE_WRITABLE = z.object({ status: z.coerce.number<unknown>().int().optional() });

export function zodMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export class Repository<R extends Resource = Resource> {
  private readonly insertSchema: z.ZodType<Row>;
  private readonly updateSchema: z.ZodType<Row>;
  private readonly counts = new CountCache();
  /** The transaction of a view (`within`); the database otherwise. */
  private executor?: Db;

  constructor(
    readonly resource: R,
    private readonly deps: RepositoryDeps,
  ) {
    const tenantField = resource.tenancy === 'tenant' ? { tenantId: z.string().regex(/^\d{6}$/, '租户编号应为6位数字').optional() } : {};
    const full = resource.fields.extend(BASE_WRITABLE.shape).extend(tenantField);
    this.insertSchema = full as unknown as z.ZodType<Row>;
    this.updateSchema = full.partial() as unknown as z.ZodType<Row>;
    // Counts also depend on the tables the project scope reads (server/db/project-scope.ts).
    const watched = new Set([resource.table, ...(resource.projectField ? projectScopeTables(resource.projectThrough) : [])]);
    deps.events.on('changed', (table) => {
      if (affects(table, watched)) this.counts.clear();
    });
  }

  /** The database, or the transaction of a view. */
  get db(): Db {
    return this.executor ?? this.deps.db;
  }

  /** The database untyped: the table and its columns are named at run time. */
  private get loose(): LooseDb {
    return loose(this.db);
  }

  private get table(): string {
    return this.resource.table;
  }

  /** This repository bound to a transaction: every read and write of the view runs in it. */
  within(trx: Db): Repository<R> {
    const view = Object.create(this) as Repository<R>;
    view.executor = trx;
    return view;
  }

  /** Tells the caches the table changed: now, or when the transaction of the view commits. */
  private changed(): void {
    const pending = this.executor && pendingChanges.get(this.executor);
    if (pending) pending.add(this.table);
    else this.deps.events.emit('changed', this.table);
  }

  /**
   * Rows the caller may read: live (or binned), in its tenant (the platform administrator sees all), within its data
   * scope and project scope. Columns are named by table, so the conditions hold in joins.
   */
  private async scope(ctx: CallContext, options: ScopeOptions = {}): Promise<Condition[]> {
    if (ctx.display) return this.displayScope(ctx.principal, ctx.display);
    const { resource, table } = this;
    const p = ctx.principal;
    if (resource.tenancy === 'platform' && !isPlatformAdmin(p)) throw forbidden();
    const out: Condition[] = options.deleted === 'either' ? [] : [(eb) => eb(`${table}.isDeleted`, '=', options.deleted ? 1 : 0)];
    if (resource.tenancy === 'tenant' && !isPlatformAdmin(p)) out.push((eb) => eb(`${table}.tenantId`, '=', p.tenantId));
    if (options.wholeTenant) return out;
    if (resource.projectField) out.push(projectScope(p, `${table}.${resource.projectField}`, resource.projectThrough, Boolean(options.deleted)));
    const codes = [resource.key, resource.name, table];
    const dataScope = await this.deps.scopes.dataFilter(p, codes, resource.columns, { db: this.db, table });
    if (dataScope) out.push(dataScope);
    return out;
  }

  /** What a display link reads: its tenant's live rows of its projects; shared and platform rows not at all. */
  private displayScope(p: Principal, display: DisplayScope): Condition[] {
    const { resource, table } = this;
    if (resource.tenancy !== 'tenant') throw forbidden();
    const out: Condition[] = [(eb) => eb(`${table}.isDeleted`, '=', 0), (eb) => eb(`${table}.tenantId`, '=', p.tenantId)];
    if (resource.projectField) out.push(projectScope(p, `${table}.${resource.projectField}`, resource.projectThrough, false, display.projectIds));
    return out;
  }

  /**
   * Whether the caller's data scope hides rows of this resource (beyond tenant and projects): figures kept per project
   * (docs/statistics.md) then have to be counted from the rows the caller sees.
   */
  async dataScoped(ctx: CallContext): Promise<boolean> {
    const { resource, table } = this;
    return (await this.deps.scopes.dataFilter(ctx.principal, [resource.key, resource.name, table], resource.columns, { db: this.db, table })) !== undefined;
  }

  /** A scoped select: what the caller may read, for the module to add its own conditions, joins and aggregates. */
  async select(ctx: CallContext, options?: ScopeOptions): Promise<Select<R>> {
    return typed(await this.scopedSelect(ctx, options));
  }

  private async scopedSelect(ctx: CallContext, options?: ScopeOptions): Promise<LooseSelect> {
    let qb = this.loose.selectFrom(this.table);
    for (const condition of await this.scope(ctx, options)) qb = qb.where(condition);
    return qb;
  }

  private async scopedUpdate(ctx: CallContext, changes: Row, options?: ScopeOptions): Promise<LooseUpdate> {
    if (ctx.display) throw forbidden();
    let qb = this.loose.updateTable(this.table).set(changes);
    for (const condition of await this.scope(ctx, options)) qb = qb.where(condition);
    return qb;
  }

  private async scopedDelete(ctx: CallContext, options?: ScopeOptions): Promise<LooseDelete> {
    this.assertTenantWritable(ctx);
    let qb = this.loose.deleteFrom(this.table);
    for (const condition of await this.scope(ctx, options)) qb = qb.where(condition);
    return qb;
  }


  private assertWritable(ctx: CallContext): void {
    if (this.resource.readOnly) throw forbidden();
    this.assertTenantWritable(ctx);
  }

  /** Shared and platform rows are the platform administrator's to write; `readOnly` guards only the generic routes. */
  private assertTenantWritable(ctx: CallContext): void {
    if (ctx.display) throw forbidden(); // a display link reads, never writes
    if (this.resource.tenancy !== 'tenant' && !isPlatformAdmin(ctx.principal)) throw forbidden();
  }

  /** Strips fields that never leave the server, and masks a secret shown on its row (`secretRows`). */
  present<T extends Row>(row: T): T {
    const hidden: readonly string[] | undefined = this.resource.hidden;
    const rows = this.resource.secretRows;
    if (!hidden?.length && !rows) return row;
    const out: Row = { ...row };
    for (const field of hidden ?? []) delete out[field];
    if (rows && out[rows.field] != null && (rows.keys.includes(String(out[rows.keyField] ?? '').trim()) || isSealed(out[rows.field]))) out[rows.field] = SECRET_MASK;
    return out as T;
  }

  /** A row read from the table with its declared secrets opened: for the server's own use, never to answer. */
  reveal<T extends Row>(row: T): T {
    return this.deps.secrets.reveal(this.resource, row);
  }

  /** Values of a write with the declared secrets sealed; `existing`: the stored row an update changes. */
  private sealed(values: Row, existing?: Row): Row {
    return this.deps.secrets.sealed(this.resource, values, existing);
  }

  /** Values of a write by conditions: no row to tell whether a `secretRows` field is a secret on it, so it is refused. */
  private sealedByConditions(values: Row): Row {
    const rows = this.resource.secretRows;
    if (rows && values[rows.field] !== undefined) throw new Error(`${this.resource.key}.${rows.field} is written row by row (update), not by conditions`);
    return this.sealed(values);
  }

  /** A row read from the table, presented: typed without the hidden fields it no longer has. */
  private shown(row: Row): PresentedRowOf<R> {
    return this.present(row) as PresentedRowOf<R>;
  }

  /** A scoped select with the query's filters and sorting, plus any conditions the caller adds. */
  async query(ctx: CallContext, query: Query, extra: Condition[], skip?: ReadonlySet<string>): Promise<Select<R>> {
    return typed(await this.filtered(ctx, query, extra, skip));
  }

  private async filtered(ctx: CallContext, query: Query, extra: Condition[], skip?: ReadonlySet<string>): Promise<LooseSelect> {
    let qb = await this.scopedSelect(ctx);
    for (const condition of [...filtersOf(this.resource, this.deps.dialect, query, skip), ...extra]) qb = qb.where(condition);
    return qb;
  }

  private sorted(qb: LooseSelect, query: Query): LooseSelect {
    for (const sort of sortsOf(this.resource, query)) qb = qb.orderBy(sort.column, sort.desc ? 'desc' : 'asc');
    return qb.orderBy('id', 'desc');
  }

  async page(ctx: CallContext, query: Query, extra: Condition[]): Promise<Page<PresentedRowOf<R>>> {
    const { current, size } = pagingOf(query);
    const qb = await this.filtered(ctx, query, extra);
    const counting = qb.select((eb) => eb.fn.countAll<number>().as('total'));
    const compiled = counting.compile();
    const [total, records] = await Promise.all([
      this.counts.get(`${compiled.sql}|${JSON.stringify(compiled.parameters)}`, async () => {
        const [row] = (await counting.execute()) as Array<{ total: number }>;
        return Number(row.total);
      }),
      this.sorted(qb.selectAll(), query).limit(size).offset((current - 1) * size).execute(),
    ]);
    return pageOf(records.map((r) => this.shown(r)), total, current, size);
  }

  /** The ids of the rows a list query names, in its order, at most `limit` (a list export reads the rows by id after). */
  async ids(ctx: CallContext, query: Query, extra: Condition[], limit = 10_000): Promise<string[]> {
    const qb = await this.filtered(ctx, query, extra);
    const rows = await this.sorted(qb.select(`${this.table}.id as id`), query).limit(limit).execute();
    return rows.map((row) => String(row.id));
  }

  /** Unpaged list (nopage/select variants), capped so a careless call cannot read a whole table. */
  async all(ctx: CallContext, query: Query, extra: Condition[] = [], limit = 10_000): Promise<PresentedRowOf<R>[]> {
    const qb = await this.filtered(ctx, query, extra);
    const rows = await this.sorted(qb.selectAll(), query).limit(limit).execute();
    return rows.map((r) => this.shown(r));
  }

  async detail(ctx: CallContext, query: Query, extra: Condition[] = []): Promise<PresentedRowOf<R> | undefined> {
    const conditions = filtersOf(this.resource, this.deps.dialect, equalityQuery(query));
    if (conditions.length === 0) return undefined;
    let qb = await this.scopedSelect(ctx);
    for (const condition of [...conditions, ...extra]) qb = qb.where(condition);
    const row = await qb.selectAll().limit(1).executeTakeFirst();
    return row ? this.shown(row) : undefined;
  }

  async byId(ctx: CallContext, id: string): Promise<PresentedRowOf<R> | undefined> {
    return this.detail(ctx, { id });
  }

  /** Validates a submit body: full rules on insert, only the given fields on update. */
  parse(body: unknown, update: boolean): Row {
    const parsed = (update ? this.updateSchema : this.insertSchema).safeParse(body ?? {});
    if (!parsed.success) throw invalidParam(zodMessage(parsed.error));
    return parsed.data;
  }

  /**
   * A new row with its base columns: an id (kept when `values` has one, for a module that plans writes by id), the
   * caller as author, and the tenant — the caller's, or the one the platform administrator names. A createTime
   * module code gives is kept (a log row's event time); submit bodies never carry one (`parse` strips base columns).
   */
  build(ctx: CallContext, values: Values<R>, now = formatDateTime()): Row {
    return this.withBase(ctx, this.sealed(values), now);
  }

  private withBase(ctx: CallContext, values: Row, now = formatDateTime()): Row {
    const p = ctx.principal;
    const createTime = typeof values.createTime === 'string' ? values.createTime : now;
    const row: Row = { ...values, id: typeof values.id === 'string' ? values.id : nextId(), createUser: p.userId, createDept: p.deptId, createTime };
    Object.assign(row, { updateUser: p.userId, updateTime: now, status: values.status ?? 1, isDeleted: 0 });
    if (this.resource.tenancy === 'tenant') {
      row.tenantId = isPlatformAdmin(p) && typeof values.tenantId === 'string' ? values.tenantId : p.tenantId;
    }
    return row;
  }

  async insert(ctx: CallContext, values: Row): Promise<Row> {
    this.assertWritable(ctx);
    const row = this.withBase(ctx, { ...this.sealed(values), id: undefined });
    await this.checkUnique(row);
    await this.loose.insertInto(this.table).values(row).execute();
    this.changed();
    return this.present(row);
  }

  /** Inserts rows a module wrote (`build` adds their base columns), checked against the unique rules; returns them. */
  async insertMany(ctx: CallContext, values: readonly Values<R>[], now = formatDateTime()): Promise<Row[]> {
    this.assertTenantWritable(ctx);
    const rows = values.map((v) => this.withBase(ctx, this.sealed(v), now));
    if (rows.length === 0) return rows;
    for (const row of rows) await this.checkUnique(row);
    // Bounded statements: SQLite takes at most 32,766 values (no table has a thousand columns).
    for (const slice of slices(rows, Math.floor(30_000 / Object.keys(rows[0]).length))) await this.loose.insertInto(this.table).values(slice).execute();
    this.changed();
    return rows;
  }

  /**
   * Updates the rows the caller may write among those the conditions name, setting the audit columns; a tenant
   * moves only by the platform administrator. Returns how many changed.
   */
  updateWhere(ctx: CallContext, changes: Values<R>, conditions: readonly Condition[], options?: ScopeOptions): Promise<number> {
    return this.updateRows(ctx, this.sealedByConditions(changes), conditions, options);
  }

  private async updateRows(ctx: CallContext, changes: Row, conditions: readonly Condition[], options?: ScopeOptions): Promise<number> {
    this.assertTenantWritable(ctx);
    const set: Row = { ...changes, updateUser: ctx.principal.userId, updateTime: formatDateTime() };
    delete set.id;
    if (!isPlatformAdmin(ctx.principal)) delete set.tenantId;
    let qb = await this.scopedUpdate(ctx, set, options);
    for (const condition of conditions) qb = qb.where(condition);
    const result = await qb.executeTakeFirst();
    this.changed();
    return Number(result.numUpdatedRows);
  }

  /** Soft-deletes the rows the caller may write among those the conditions name; returns how many. */
  removeWhere(ctx: CallContext, conditions: readonly Condition[]): Promise<number> {
    return this.updateRows(ctx, { isDeleted: 1 }, conditions);
  }

  /** Deletes for good the rows the caller may write among those the conditions name; returns how many. */
  async purgeWhere(ctx: CallContext, conditions: readonly Condition[], options?: ScopeOptions): Promise<number> {
    let qb = await this.scopedDelete(ctx, options);
    for (const condition of conditions) qb = qb.where(condition);
    const result = await qb.executeTakeFirst();
    this.changed();
    return Number(result.numDeletedRows);
  }

  async update(ctx: CallContext, id: string, values: Row): Promise<Row> {
    this.assertWritable(ctx);
    const existing = await this.byIdUnpresented(ctx, id);
    if (!existing) throw badRequest('数据不存在或无权操作');
    const changes: Row = { ...this.sealed(values, existing), updateUser: ctx.principal.userId, updateTime: formatDateTime() };
    delete changes.id;
    if (!isPlatformAdmin(ctx.principal)) delete changes.tenantId;
    await this.checkUnique({ ...existing, ...changes });
    await (await this.scopedUpdate(ctx, changes)).where('id', '=', id).execute();
    this.changed();
    return this.present({ ...existing, ...changes });
  }

  private async byIdUnpresented(ctx: CallContext, id: string): Promise<RowOf<R> | undefined> {
    return (await (await this.scopedSelect(ctx)).selectAll().where('id', '=', id).executeTakeFirst()) as RowOf<R> | undefined;
  }

  /** Soft-deletes the visible rows among ids; returns how many were removed. */
  async remove(ctx: CallContext, ids: readonly string[]): Promise<number> {
    this.assertWritable(ctx);
    if (ids.length === 0) return 0;
    const parentField = this.resource.parentField;
    if (parentField) {
      const child = await this.loose
        .selectFrom(this.table)
        .select('id')
        .where('isDeleted', '=', 0)
        .where(parentField, 'in', ids as string[])
        .where('id', 'not in', ids as string[])
        .executeTakeFirst();
      if (child) throw badRequest('请先删除子节点');
    }
    const qb = await this.scopedUpdate(ctx, { isDeleted: 1, updateUser: ctx.principal.userId, updateTime: formatDateTime() });
    const result = await qb.where('id', 'in', ids as string[]).executeTakeFirst();
    this.changed();
    return Number(result.numUpdatedRows);
  }

  /**
   * The unique rule a live row other than `row` already holds its values for, if any: within the row's tenant, or
   * on the whole platform for rules `acrossTenants` (device codes are client ids of the one broker).
   */
  async clash(row: Row): Promise<UniqueRule | undefined> {
    for (const rule of this.resource.unique ?? []) {
      let qb = this.loose.selectFrom(this.table).select('id').where('isDeleted', '=', 0);
      if (this.resource.tenancy === 'tenant' && !rule.acrossTenants) qb = qb.where('tenantId', '=', row.tenantId as string);
      for (const field of rule.fields) qb = row[field] == null ? qb.where(field, 'is', null) : qb.where(field, '=', row[field]);
      if (row.id) qb = qb.where('id', '<>', row.id as string);
      if (await qb.executeTakeFirst()) return rule;
    }
    return undefined;
  }

  private async checkUnique(row: Row): Promise<void> {
    const rule = await this.clash(row);
    if (rule) throw badRequest(rule.message);
  }
}

/** Detail calls name the row by equality on whitelisted fields (`id`, or e.g. `tenantId`). */
function equalityQuery(query: Query): Query {
  const out: Query = {};
  for (const [key, value] of Object.entries(query)) if (!key.includes('_')) out[`${key}_equal`] = value;
  return out;
}
