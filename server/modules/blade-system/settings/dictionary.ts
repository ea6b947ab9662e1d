import type { FastifyInstance } from 'fastify';
import type { Resource } from '../../../../resources/define';
import { PARENT_DICT_KEY, TOP_PARENT_ID } from '../../../../resources/system/dict';
import { isPlatformAdmin } from '../../../auth/principal';
import type { Row } from '../../../db/database';
import type { CallContext, Repository } from '../../../db/repository';
import type { Condition, Query } from '../../../http/conditions';
import { contextOf, paramsOf, requiredText, text } from '../../../http/context';
import { type CrudHooks, registerCrud } from '../../../http/crud';
import { badRequest, invalidParam, ok } from '../../../http/envelope';
import { needs } from '../../../auth/rights';
import type { Platform } from '../../../platform';
import { forest, type TreeNode, treeNode } from '../../../http/trees';

/**
 * Dictionaries (spec §2 "Dictionary management", §7 "Dictionaries"): parents (parentId 0, dictKey -1) name a
 * code; entries below them inherit the code and are unique by key within it. Sealed rows (isSealed 1) are
 * frozen: they cannot be changed or removed, and nothing can be added below them; the only change accepted is
 * unsealing with every other field left as it is.
 */

const SEALED = 1;
const MAX_DEPTH = 32;

const isTop = (parentId: unknown) => parentId === undefined || parentId === null || String(parentId) === TOP_PARENT_ID;

/** Fields a sealed row keeps; a submit that changes any of them is refused. */
const FROZEN_FIELDS = ['parentId', 'code', 'dictKey', 'dictValue', 'sort', 'remark', 'status'] as const;

function changesFrozenField(existing: Row, values: Row): boolean {
  return FROZEN_FIELDS.some((field) => field in values && values[field] !== undefined && String(values[field] ?? '') !== String(existing[field] ?? ''));
}

function dictionaryHooks(repo: Repository): CrudHooks {
  const tenantOf = (row: Row) => (repo.resource.tenancy === 'tenant' ? (row.tenantId as string) : undefined);

  /** Refuses a parent that is the row itself or one of its descendants. */
  async function assertNoCycle(ctx: CallContext, id: string, parentId: string): Promise<void> {
    let cursor: string | undefined = parentId;
    for (let depth = 0; cursor && !isTop(cursor) && depth < MAX_DEPTH; depth++) {
      if (cursor === id) throw badRequest('上级字典不能是自己或下级');
      cursor = (await repo.byId(ctx, cursor))?.parentId as string | undefined;
    }
  }

  /** Parent codes are unique (per tenant for business dictionaries). */
  async function assertParentCodeFree(ctx: CallContext, code: string, row: Row): Promise<void> {
    const conditions: Condition[] = [(eb) => eb('parentId', '=', TOP_PARENT_ID), (eb) => eb('code', '=', code)];
    if (row.id) conditions.push((eb) => eb('id', '<>', String(row.id)));
    if (repo.resource.tenancy === 'tenant') {
      const tenant = typeof row.tenantId === 'string' && isPlatformAdmin(ctx.principal) ? row.tenantId : ctx.principal.tenantId;
      conditions.push((eb) => eb('tenantId', '=', tenant));
    }
    const [clash] = await repo.all(ctx, {}, conditions, 1);
    if (clash) throw badRequest('当前字典编号已存在!');
  }

  return {
    async beforeSave(ctx, values, existing) {
      if (existing && Number(existing.isSealed) === SEALED) {
        if (Number(values.isSealed) !== 0 || changesFrozenField(existing, values)) throw badRequest('封存的字典不可修改');
      }
      const merged: Row = { ...existing, ...values };
      if (isTop(merged.parentId)) {
        const code = typeof merged.code === 'string' ? merged.code.trim() : '';
        if (!code) throw invalidParam('code: 请输入字典编号');
        await assertParentCodeFree(ctx, code, merged);
        return { ...values, parentId: TOP_PARENT_ID, code, dictKey: PARENT_DICT_KEY };
      }
      const parentId = String(merged.parentId);
      const parent = await repo.byId(ctx, parentId);
      if (!parent) throw badRequest('上级字典不存在');
      if (Number(parent.isSealed) === SEALED && !existing) throw badRequest('封存的字典不可修改');
      if (existing) await assertNoCycle(ctx, String(existing.id), parentId);
      const dictKey = typeof merged.dictKey === 'string' ? merged.dictKey.trim() : '';
      if (!dictKey) throw invalidParam('dictKey: 请输入字典键值');
      // An entry lives in its parent's tenant (the platform administrator may edit any tenant's dictionaries).
      const tenant = repo.resource.tenancy === 'tenant' ? { tenantId: parent.tenantId } : {};
      return { ...values, ...tenant, parentId, code: parent.code, dictKey };
    },

    /** Entries carry their family's code: a renamed code reaches every descendant, also those the caller's scope hides. */
    async afterSave(ctx, row) {
      const family = { wholeTenant: true } as const;
      const tenant = tenantOf(row);
      let parents = [String(row.id)];
      for (let depth = 0; parents.length && depth < MAX_DEPTH; depth++) {
        let children = (await repo.select(ctx, family)).select('id').where('parentId', 'in', parents);
        if (tenant) children = children.where('tenantId', '=', tenant);
        const found = (await children.execute()).map((r) => String(r.id));
        if (found.length) await repo.updateWhere(ctx, { code: row.code }, [(eb) => eb('id', 'in', found), (eb) => eb('code', '<>', row.code as string)], family);
        parents = found;
      }
    },

    async beforeRemove(ctx, ids) {
      const rows = await repo.all(ctx, {}, [(eb) => eb('id', 'in', ids)]);
      if (rows.some((row) => Number(row.isSealed) === SEALED)) throw badRequest('封存的字典不可删除');
    },

    async decorate(ctx, rows) {
      const parentIds = [...new Set(rows.map((r) => String(r.parentId ?? TOP_PARENT_ID)).filter((id) => !isTop(id)))];
      const parents = parentIds.length ? await repo.all(ctx, {}, [(eb) => eb('id', 'in', parentIds)]) : [];
      const names = new Map(parents.map((p) => [p.id, p.dictValue]));
      return rows.map((row) => ({ ...row, parentName: isTop(row.parentId) ? '顶级' : (names.get(String(row.parentId)) ?? '') }));
    },
  };
}

/** The caller's own dictionary rows: lookups of a tenant dictionary stay in the caller's tenant, even for the platform administrator. */
function ownTenant(repo: Repository, ctx: CallContext): Condition[] {
  if (repo.resource.tenancy !== 'tenant') return [];
  return [(eb) => eb('tenantId', '=', ctx.principal.tenantId)];
}

/** The entries of a code (parents excluded), in sort order. */
async function entriesOf(repo: Repository, ctx: CallContext, code: string): Promise<Row[]> {
  const query: Query = { ascs: 'sort' };
  return repo.all(ctx, query, [(eb) => eb('code', '=', code), (eb) => eb('parentId', '<>', TOP_PARENT_ID), ...ownTenant(repo, ctx)]);
}

/** A dictionary row as a tree node, keeping what the console's selects read. */
const dictNode = (row: Row): TreeNode =>
  treeNode(String(row.id), String(row.parentId), String(row.dictValue), { code: row.code, dictKey: row.dictKey, dictValue: row.dictValue, sort: row.sort });

export function registerDictionary(app: FastifyInstance, platform: Platform, resource: Resource): void {
  const repo = platform.repo(resource);
  const hooks = dictionaryHooks(repo);
  const base = `/${resource.service}/${resource.name}`;
  const decorate = (ctx: CallContext, rows: Row[]) => hooks.decorate!(ctx, rows);
  const read = needs(resource.menu);
  const topLevel: Condition = (eb) => eb('parentId', '=', TOP_PARENT_ID);

  app.get(`${base}/parent-list`, read, async (request) => {
    const ctx = contextOf(request);
    const page = await repo.page(ctx, withoutKeys(paramsOf(request), ['parentId']), [topLevel]);
    return ok({ ...page, records: await decorate(ctx, page.records) });
  });

  app.get(`${base}/child-list`, read, async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const parentId = requiredText(params, 'parentId');
    const page = await repo.page(ctx, withoutKeys(params, ['parentId']), [(eb) => eb('parentId', '=', parentId)]);
    return ok({ ...page, records: await decorate(ctx, page.records) });
  });

  /** Without a code: every dictionary as a forest. With one: that code's entries as a tree. */
  app.get(`${base}/tree`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const code = text(paramsOf(request), 'code');
    const rows = code ? await entriesOf(repo, ctx, code) : await repo.all(ctx, { ascs: 'sort' }, ownTenant(repo, ctx));
    return ok(forest(rows.map(dictNode)));
  });

  app.get(`${base}/parent-tree`, read, async (request) => {
    const ctx = contextOf(request);
    return ok(forest((await repo.all(ctx, { ascs: 'sort' }, [topLevel, ...ownTenant(repo, ctx)])).map(dictNode)));
  });

  /** The console's dictionary call: the entries of a code, in sort order. */
  app.get(`${base}/dictionary`, needs.self, async (request) => {
    const ctx = contextOf(request);
    return ok(await entriesOf(repo, ctx, requiredText(paramsOf(request), 'code')));
  });

  app.get(`${base}/dictionary-tree`, needs.self, async (request) => {
    const ctx = contextOf(request);
    return ok(forest((await entriesOf(repo, ctx, requiredText(paramsOf(request), 'code'))).map((row) => ({ ...row, id: String(row.id), parentId: String(row.parentId) }))));
  });

  registerCrud(app, platform, resource, hooks);
}

function withoutKeys(query: Query, keys: readonly string[]): Query {
  const out = { ...query };
  for (const key of keys) delete out[key];
  return out;
}
