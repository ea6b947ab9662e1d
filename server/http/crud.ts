import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ListVariant, Resource } from '../../resources/define';
import { needs } from '../auth/rights';
import type { Row } from '../db/database';
import { assertNotInUse, referencedRows, referencesOf, withReferenceNames } from '../db/references';
import type { CallContext } from '../db/repository';
import type { Condition, Query } from './conditions';
import type { Platform } from '../platform';
import { assertRight } from './auth-hook';
import { bodyOf, contextOf, idsOf, paramsOf } from './context';
import { badRequest, ok } from './envelope';
import { exportRequest, repositoryRows, sendExport } from './export';
import { limited } from './limits';

/** A list query after a resource's own parameters were turned into conditions. */
export interface ListQuery {
  query: Query;
  extra: Condition[];
}

/** Per-resource additions to the generic behaviour, for the few resources whose writes do more than store a row. */
export interface CrudHooks {
  /** Resolves list parameters that are not plain column filters (e.g. a dept and its descendants). */
  listQuery?(ctx: CallContext, query: Query): Promise<ListQuery> | ListQuery;
  /**
   * Runs before insert or update with the validated values, once the declared references they name were found
   * (`referenced`, by field); may change the values or throw an ApiError.
   */
  beforeSave?(ctx: CallContext, values: Row, existing: Row | undefined, referenced: ReadonlyMap<string, Row>): Promise<Row> | Row;
  /** Runs after a successful insert or update with the stored row. */
  afterSave?(ctx: CallContext, row: Row): Promise<void> | void;
  /** Runs before a soft delete with the ids about to go, after the declared `inUse` refusal. */
  beforeRemove?(ctx: CallContext, ids: string[]): Promise<void> | void;
  /** Runs after a soft delete with the ids named (those the caller could not see were left alone). */
  afterRemove?(ctx: CallContext, ids: string[]): Promise<void> | void;
  /**
   * The button a write needs when it is not `<menu>_add` / `<menu>_edit` (a start/stop sent as an update); the
   * buttons it may name are listed in writeButtons.
   */
  writeRight?(body: Record<string, unknown>, editing: boolean): string | undefined;
  writeButtons?: readonly string[];
  /** Rights other than the menu's, per kind of route: the notice dialog reads as `self`. */
  rights?: Partial<Record<'read' | 'write' | 'remove', RouteRight>>;
  /** More conditions on detail calls (the rows the caller may open). */
  detailConditions?(ctx: CallContext): Condition[];
  /** Runs after a detail read with its parameters (opening a notice marks it read). */
  afterDetail?(ctx: CallContext, row: Row, params: Query): Promise<void> | void;
  /** Inserts a new row when that is more than storing it (a tenant is provisioned with its administrator). */
  insert?(ctx: CallContext, body: Record<string, unknown>): Promise<Row>;
  /** The ids a remove names, when not `ids` (a region is named by its id or its code). */
  removeIds?(ctx: CallContext, params: Query): Promise<string[]>;
  /** Shapes each listed row (adds flags, counts, names beyond the declared references'), after the declared names. */
  decorate?(ctx: CallContext, rows: Row[]): Promise<Row[]> | Row[];
}

const hasId = (body: Record<string, unknown>) => !(body.id === undefined || body.id === null || body.id === '');

/**
 * Saves through the hooks: the one write path of generic submit/save/update and of modules reusing it. The declared
 * references the values name are checked first (server/db/references.ts).
 */
export async function saveWithHooks(platform: Platform, resource: Resource, ctx: CallContext, body: Record<string, unknown>, hooks: CrudHooks = {}): Promise<Row> {
  const repo = platform.repo(resource);
  const id = hasId(body) ? String(body.id) : undefined;
  const existing = id ? await repo.byId(ctx, id) : undefined;
  if (id && !existing) throw badRequest('数据不存在或无权操作');
  let values = repo.parse(body, !!id);
  const referenced = await referencedRows(platform, ctx, resource, values, existing);
  if (hooks.beforeSave) values = await hooks.beforeSave(ctx, values, existing, referenced);
  const row = id ? await repo.update(ctx, id, values) : await repo.insert(ctx, values);
  await hooks.afterSave?.(ctx, row);
  return row;
}

type SaveMode = 'submit' | 'save' | 'update';

/**
 * `submit` adds without an id and edits with one, `save` only adds, `update` only edits; each checks the button the
 * write needs (`<menu>_add`, `<menu>_edit`, or the resource's own, see CrudHooks.writeRight).
 */
function saveHandler(platform: Platform, resource: Resource, hooks: CrudHooks = {}, mode: SaveMode = 'submit') {
  return async (request: FastifyRequest) => {
    const body = bodyOf(request);
    const editing = hasId(body);
    if (mode === 'save' && editing) throw badRequest('新增数据不能带编号');
    if (mode === 'update' && !editing) throw badRequest('修改数据必须带编号');
    const ctx = contextOf(request);
    const own = hooks.writeRight?.(body, editing);
    await assertRight(platform, ctx.principal, own ?? `${resource.menu}_${editing ? 'edit' : 'add'}`);
    if (!editing && hooks.insert) return ok(await hooks.insert(ctx, body));
    return ok(await saveWithHooks(platform, resource, ctx, body, hooks));
  };
}

const UNPAGED: readonly ListVariant[] = ['nopage', 'nopageList', 'select', 'selectList', 'selectlist'];
/** Variants that feed other screens' pickers: any staff member may read them (docs/authorisation.md). */
const PICKERS: ReadonlySet<ListVariant> = new Set(['select', 'selectList', 'selectlist']);

/**
 * The rights of a resource's routes: its menu to read, the menu's buttons to write (the writes check the exact
 * button once the body is read).
 */
function crudRights(resource: Resource, hooks: CrudHooks = {}) {
  const { menu } = resource;
  return {
    read: needs(menu),
    write: needs(`${menu}_add`, `${menu}_edit`, ...(hooks.writeButtons ?? [])),
    remove: needs(`${menu}_delete`),
    ...hooks.rights,
    pick: needs.lookup,
  };
}

type RouteRight = ReturnType<typeof needs>;

/** What an export may name: the columns the list shows (not the hidden ones) and the declared references' names. */
function exportableOf(resource: Resource): Set<string> {
  const names = referencesOf(resource).flatMap((ref) => (ref.as ? [ref.as] : []));
  return new Set([...resource.columns.filter((c) => !resource.hidden?.includes(c)), ...names]);
}

/**
 * The generic routes of a declared resource (spec §7 "Generic resource pattern"): list, detail, submit, save,
 * update, remove, and the nopage/select variants the resource declares; each needs the right its resource declares.
 * The resource's declared references are checked on writes, named on reads, and hold rows back on remove.
 */
export function registerCrud(app: FastifyInstance, platform: Platform, resource: Resource, hooks: CrudHooks = {}): void {
  const repo = platform.repo(resource);
  const rights = crudRights(resource, hooks);
  platform.resources.push(resource);
  const base = resource.path ?? `/${resource.service}/${resource.name}`;
  const decorate = async (ctx: CallContext, rows: Row[]) => {
    const named = await withReferenceNames(platform, resource, rows);
    return hooks.decorate ? hooks.decorate(ctx, named) : named;
  };
  const listQuery = async (ctx: CallContext, query: Query): Promise<ListQuery> =>
    hooks.listQuery ? hooks.listQuery(ctx, query) : { query, extra: [] };

  const page = async (request: FastifyRequest) => {
    const ctx = contextOf(request);
    const { query, extra } = await listQuery(ctx, paramsOf(request));
    const result = await repo.page(ctx, query, extra);
    return ok({ ...result, records: await decorate(ctx, result.records) });
  };
  app.get(`${base}/list`, rights.read, page);
  app.get(`${base}/export`, limited('export', rights.read), async (request, reply) => {
    const ctx = contextOf(request);
    const { spec, query: params } = exportRequest(paramsOf(request), exportableOf(resource), resource.hidden, resource.name);
    const { query, extra } = await listQuery(ctx, params);
    return sendExport(request, reply, spec, await repositoryRows(repo, ctx, query, extra, (rows) => decorate(ctx, rows), platform.config.exports));
  });
  if (resource.variants?.includes('page')) app.get(`${base}/page`, rights.read, page);

  for (const variant of UNPAGED.filter((v) => resource.variants?.includes(v))) {
    app.get(`${base}/${variant}`, PICKERS.has(variant) ? rights.pick : rights.read, async (request) => {
      const ctx = contextOf(request);
      const { query, extra } = await listQuery(ctx, paramsOf(request));
      return ok(await decorate(ctx, await repo.all(ctx, query, extra)));
    });
  }

  app.get(`${base}/detail`, rights.read, async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const row = await repo.detail(ctx, params, hooks.detailConditions?.(ctx));
    if (row) await hooks.afterDetail?.(ctx, row, params);
    return ok(row ? (await decorate(ctx, [row]))[0] : null);
  });

  if (resource.readOnly) return;

  for (const mode of ['submit', 'save', 'update'] as const) app.post(`${base}/${mode}`, rights.write, saveHandler(platform, resource, hooks, mode));
  app.post(`${base}/remove`, rights.remove, async (request) => {
    const ctx = contextOf(request);
    const ids = hooks.removeIds ? await hooks.removeIds(ctx, paramsOf(request)) : idsOf(paramsOf(request));
    await assertNotInUse(platform, ctx, resource, ids);
    await hooks.beforeRemove?.(ctx, ids);
    const removed = await repo.remove(ctx, ids);
    if (removed === 0) throw badRequest('数据不存在或无权操作');
    await hooks.afterRemove?.(ctx, ids);
    return ok(true);
  });
}
