import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ListVariant, Resource } from '../../resources/define';
import type { Row } from '../db/database';
import type { CallContext, Repository } from '../db/repository';
import type { Condition, Query } from './conditions';
import type { Platform } from '../platform';
import { bodyOf, contextOf, idsOf, paramsOf } from './context';
import { badRequest, ok } from './envelope';

/** A list query after a resource's own parameters were turned into conditions. */
export interface ListQuery {
  query: Query;
  extra: Condition[];
}

/** Per-resource additions to the generic behaviour, for the few resources whose writes do more than store a row. */
export interface CrudHooks {
  /** Resolves list parameters that are not plain column filters (e.g. a dept and its descendants). */
  listQuery?(ctx: CallContext, query: Query): Promise<ListQuery> | ListQuery;
  /** Runs before insert or update with the validated values; may change them or throw an ApiError. */
  beforeSave?(ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> | Row;
  /** Runs after a successful insert or update with the stored row. */
  afterSave?(ctx: CallContext, row: Row): Promise<void> | void;
  /** Runs before a soft delete with the ids about to go. */
  beforeRemove?(ctx: CallContext, ids: string[]): Promise<void> | void;
  /** Shapes each listed row (adds names, flags). */
  decorate?(ctx: CallContext, rows: Row[]): Promise<Row[]> | Row[];
}

/** Saves through the hooks: the one write path of generic submit/save/update and of modules reusing it. */
export async function saveWithHooks(repo: Repository, ctx: CallContext, body: Record<string, unknown>, hooks: CrudHooks = {}): Promise<Row> {
  const id = body.id === undefined || body.id === null || body.id === '' ? undefined : String(body.id);
  const existing = id ? await repo.byId(ctx, id) : undefined;
  if (id && !existing) throw badRequest('数据不存在或无权操作');
  let values = repo.parse(body, !!id);
  if (hooks.beforeSave) values = await hooks.beforeSave(ctx, values, existing);
  const row = id ? await repo.update(ctx, id, values) : await repo.insert(ctx, values);
  await hooks.afterSave?.(ctx, row);
  return row;
}

const UNPAGED: readonly ListVariant[] = ['nopage', 'nopageList', 'select', 'selectList', 'selectlist'];

/**
 * The generic routes of a declared resource (spec §7 "Generic resource pattern"): list, detail, submit, save,
 * update, remove, and the nopage/select variants the resource declares.
 */
export function registerCrud(app: FastifyInstance, platform: Platform, resource: Resource, hooks: CrudHooks = {}): void {
  const repo = platform.repo(resource);
  platform.resources.push(resource);
  const base = resource.path ?? `/${resource.service}/${resource.name}`;
  const decorate = async (ctx: CallContext, rows: Row[]) => (hooks.decorate ? hooks.decorate(ctx, rows) : rows);
  const listQuery = async (ctx: CallContext, query: Query): Promise<ListQuery> =>
    hooks.listQuery ? hooks.listQuery(ctx, query) : { query, extra: [] };

  const page = async (request: FastifyRequest) => {
    const ctx = contextOf(request);
    const { query, extra } = await listQuery(ctx, paramsOf(request));
    const result = await repo.page(ctx, query, extra);
    return ok({ ...result, records: await decorate(ctx, result.records) });
  };
  app.get(`${base}/list`, page);
  if (resource.variants?.includes('page')) app.get(`${base}/page`, page);

  for (const variant of UNPAGED.filter((v) => resource.variants?.includes(v))) {
    app.get(`${base}/${variant}`, async (request) => {
      const ctx = contextOf(request);
      const { query, extra } = await listQuery(ctx, paramsOf(request));
      return ok(await decorate(ctx, await repo.all(ctx, query, extra)));
    });
  }

  app.get(`${base}/detail`, async (request) => {
    const ctx = contextOf(request);
    const row = await repo.detail(ctx, paramsOf(request));
    return ok(row ? (await decorate(ctx, [row]))[0] : null);
  });

  if (resource.readOnly) return;

  app.post(`${base}/submit`, async (request) => ok(await saveWithHooks(repo, contextOf(request), bodyOf(request), hooks)));
  app.post(`${base}/save`, async (request) => {
    const body = bodyOf(request);
    if (body.id) throw badRequest('新增数据不能带编号');
    return ok(await saveWithHooks(repo, contextOf(request), body, hooks));
  });
  app.post(`${base}/update`, async (request) => {
    const body = bodyOf(request);
    if (!body.id) throw badRequest('修改数据必须带编号');
    return ok(await saveWithHooks(repo, contextOf(request), body, hooks));
  });
  app.post(`${base}/remove`, async (request) => {
    const ctx = contextOf(request);
    const ids = idsOf(paramsOf(request));
    await hooks.beforeRemove?.(ctx, ids);
    const removed = await repo.remove(ctx, ids);
    if (removed === 0) throw badRequest('数据不存在或无权操作');
    return ok(true);
  });
}
