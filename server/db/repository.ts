import type { SelectQueryBuilder, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { z } from 'zod';
import type { Resource } from '../../resources/define';
import { isPlatformAdmin, type Principal } from '../auth/principal';
import type { ScopeService } from '../auth/scopes';
import type { EventBus } from '../events';
import { filtersOf, type Condition, pagingOf, type Query, sortsOf } from '../http/conditions';
import { badRequest, forbidden, invalidParam, pageOf, type Page } from '../http/envelope';
import { nextId } from '../ids';
import { formatDateTime } from '../time';
import { CountCache } from './count-cache';
import { projectScope, projectScopeTables } from './project-scope';
import type { Db, DialectName, Row, Schema } from './database';

/**
 * The one place where tenant isolation, soft delete, audit columns and data scope are applied. Every list, read
 * and write of a declared resource goes through here, from the generic routes and from hand-written modules.
 */

type Select = SelectQueryBuilder<Schema, string, Row>;
type Update = UpdateQueryBuilder<Schema, string, string, UpdateResult>;

export interface CallContext {
  principal: Principal;
}

export interface RepositoryDeps {
  db: Db;
  dialect: DialectName;
  scopes: ScopeService;
  events: EventBus;
}

/** `status` is a base column that forms may set; everything else comes from the resource's fields. */
const BASE_WRITABLE = z.object({ status: z.coerce.number<unknown>().int().optional() });

export function zodMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export class Repository {
  private readonly insertSchema: z.ZodType<Row>;
  private readonly updateSchema: z.ZodType<Row>;
  private readonly counts = new CountCache();

  constructor(
    readonly resource: Resource,
    private readonly deps: RepositoryDeps,
  ) {
    const tenantField = resource.tenancy === 'tenant' ? { tenantId: z.string().regex(/^\d{6}$/).optional() } : {};
    const full = resource.fields.extend(BASE_WRITABLE.shape).extend(tenantField);
    this.insertSchema = full as unknown as z.ZodType<Row>;
    this.updateSchema = full.partial() as unknown as z.ZodType<Row>;
    // Counts also depend on the tables the project scope reads (server/db/project-scope.ts).
    const watched = new Set([resource.table, ...(resource.projectField ? projectScopeTables(resource.projectThrough) : [])]);
    deps.events.on('changed', (table) => {
      if (watched.has(table)) this.counts.clear();
    });
  }

  get db(): Db {
    return this.deps.db;
  }

  private get table(): string {
    return this.resource.table;
  }

  /** Rows the caller may read: live, in its tenant (the platform administrator sees all), within its data scope. */
  private async scope(ctx: CallContext): Promise<Condition[]> {
    const { resource } = this;
    const p = ctx.principal;
    if (resource.tenancy === 'platform' && !isPlatformAdmin(p)) throw forbidden();
    const out: Condition[] = [(eb) => eb('isDeleted', '=', 0)];
    if (resource.tenancy === 'tenant' && !isPlatformAdmin(p)) out.push((eb) => eb('tenantId', '=', p.tenantId));
    if (resource.projectField) out.push(projectScope(p, resource.projectField, resource.projectThrough));
    const dataScope = await this.deps.scopes.dataFilter(p, [resource.key, resource.name, resource.table], resource.columns);
    if (dataScope) out.push(dataScope);
    return out;
  }

  private async selecting(ctx: CallContext): Promise<Select> {
    let qb = this.db.selectFrom(this.table) as Select;
    for (const condition of await this.scope(ctx)) qb = qb.where(condition);
    return qb;
  }

  private async updating(ctx: CallContext, changes: Row): Promise<Update> {
    let qb = this.db.updateTable(this.table).set(changes);
    for (const condition of await this.scope(ctx)) qb = qb.where(condition);
    return qb;
  }

  private assertWritable(ctx: CallContext): void {
    if (this.resource.readOnly) throw forbidden();
    if (this.resource.tenancy !== 'tenant' && !isPlatformAdmin(ctx.principal)) throw forbidden();
  }

  /** Strips fields that never leave the server. */
  present(row: Row): Row {
    const hidden = this.resource.hidden;
    if (!hidden?.length) return row;
    const out = { ...row };
    for (const field of hidden) delete out[field];
    return out;
  }

  /** A scoped select with the query's filters and sorting, plus any conditions the caller adds. */
  async query(ctx: CallContext, query: Query, extra: Condition[] = [], skip?: ReadonlySet<string>): Promise<Select> {
    let qb = await this.selecting(ctx);
    for (const condition of [...filtersOf(this.resource, this.deps.dialect, query, skip), ...extra]) qb = qb.where(condition);
    return qb;
  }

  private sorted(qb: Select, query: Query): Select {
    for (const sort of sortsOf(this.resource, query)) qb = qb.orderBy(sort.column, sort.desc ? 'desc' : 'asc');
    return qb.orderBy('id', 'desc');
  }

  async page(ctx: CallContext, query: Query, extra: Condition[] = []): Promise<Page<Row>> {
    const { current, size } = pagingOf(query);
    const qb = await this.query(ctx, query, extra);
    const counting = qb.select((eb) => eb.fn.countAll<number>().as('total'));
    const compiled = counting.compile();
    const [total, records] = await Promise.all([
      this.counts.get(`${compiled.sql}|${JSON.stringify(compiled.parameters)}`, async () => {
        const [row] = (await counting.execute()) as Array<{ total: number }>;
        return Number(row.total);
      }),
      this.sorted(qb.selectAll(), query).limit(size).offset((current - 1) * size).execute(),
    ]);
    return pageOf(records.map((r) => this.present(r)), total, current, size);
  }

  /** Unpaged list (nopage/select variants), capped so a careless call cannot read a whole table. */
  async all(ctx: CallContext, query: Query, extra: Condition[] = [], limit = 10_000): Promise<Row[]> {
    const qb = await this.query(ctx, query, extra);
    const rows = await this.sorted(qb.selectAll(), query).limit(limit).execute();
    return rows.map((r) => this.present(r));
  }

  async detail(ctx: CallContext, query: Query, extra: Condition[] = []): Promise<Row | undefined> {
    const conditions = filtersOf(this.resource, this.deps.dialect, equalityQuery(query));
    if (conditions.length === 0) return undefined;
    let qb = await this.selecting(ctx);
    for (const condition of [...conditions, ...extra]) qb = qb.where(condition);
    const row = await qb.selectAll().limit(1).executeTakeFirst();
    return row ? this.present(row) : undefined;
  }

  async byId(ctx: CallContext, id: string): Promise<Row | undefined> {
    return this.detail(ctx, { id });
  }

  /** Validates a submit body: full rules on insert, only the given fields on update. */
  parse(body: unknown, update: boolean): Row {
    const parsed = (update ? this.updateSchema : this.insertSchema).safeParse(body ?? {});
    if (!parsed.success) throw invalidParam(zodMessage(parsed.error));
    return parsed.data;
  }

  async insert(ctx: CallContext, values: Row): Promise<Row> {
    this.assertWritable(ctx);
    const p = ctx.principal;
    const now = formatDateTime();
    const row: Row = { ...values, id: nextId(), createUser: p.userId, createDept: p.deptId, createTime: now };
    Object.assign(row, { updateUser: p.userId, updateTime: now, status: values.status ?? 1, isDeleted: 0 });
    if (this.resource.tenancy === 'tenant') {
      row.tenantId = isPlatformAdmin(p) && typeof values.tenantId === 'string' ? values.tenantId : p.tenantId;
    }
    await this.checkUnique(row);
    await this.db.insertInto(this.table).values(row).execute();
    this.deps.events.emit('changed', this.table);
    return this.present(row);
  }

  async update(ctx: CallContext, id: string, values: Row): Promise<Row> {
    this.assertWritable(ctx);
    const existing = await this.byIdUnpresented(ctx, id);
    if (!existing) throw badRequest('数据不存在或无权操作');
    const changes: Row = { ...values, updateUser: ctx.principal.userId, updateTime: formatDateTime() };
    delete changes.id;
    if (!isPlatformAdmin(ctx.principal)) delete changes.tenantId;
    await this.checkUnique({ ...existing, ...changes });
    await (await this.updating(ctx, changes)).where('id', '=', id).execute();
    this.deps.events.emit('changed', this.table);
    return this.present({ ...existing, ...changes });
  }

  private async byIdUnpresented(ctx: CallContext, id: string): Promise<Row | undefined> {
    return (await this.selecting(ctx)).selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Soft-deletes the visible rows among ids; returns how many were removed. */
  async remove(ctx: CallContext, ids: readonly string[]): Promise<number> {
    this.assertWritable(ctx);
    if (ids.length === 0) return 0;
    const parentField = this.resource.parentField;
    if (parentField) {
      const child = await this.db
        .selectFrom(this.table)
        .select('id')
        .where('isDeleted', '=', 0)
        .where(parentField, 'in', ids as string[])
        .where('id', 'not in', ids as string[])
        .executeTakeFirst();
      if (child) throw badRequest('请先删除子节点');
    }
    const qb = await this.updating(ctx, { isDeleted: 1, updateUser: ctx.principal.userId, updateTime: formatDateTime() });
    const result = await qb.where('id', 'in', ids as string[]).executeTakeFirst();
    this.deps.events.emit('changed', this.table);
    return Number(result.numUpdatedRows);
  }

  private async checkUnique(row: Row): Promise<void> {
    for (const rule of this.resource.unique ?? []) {
      let qb = this.db.selectFrom(this.table).select('id').where('isDeleted', '=', 0) as Select;
      if (this.resource.tenancy === 'tenant' && !rule.acrossTenants) qb = qb.where('tenantId', '=', row.tenantId as string);
      for (const field of rule.fields) qb = row[field] == null ? qb.where(field, 'is', null) : qb.where(field, '=', row[field]);
      if (row.id) qb = qb.where('id', '<>', row.id as string);
      if (await qb.executeTakeFirst()) throw badRequest(rule.message);
    }
  }
}

/** Detail calls name the row by equality on whitelisted fields (`id`, or e.g. `tenantId`). */
function equalityQuery(query: Query): Query {
  const out: Query = {};
  for (const [key, value] of Object.entries(query)) if (!key.includes('_')) out[`${key}_equal`] = value;
  return out;
}
