import type { FastifyInstance } from 'fastify';
import { REGION_ROOT, region } from '../../../../resources/system/region';
import type { Row } from '../../../db/database';
import type { CallContext, Repository } from '../../../db/repository';
import type { Condition } from '../../../http/conditions';
import { contextOf, idsOf, paramsOf, text } from '../../../http/context';
import { type CrudHooks, registerCrud } from '../../../http/crud';
import { isPlatformAdmin } from '../../../auth/principal';
import { badRequest, forbidden, ok } from '../../../http/envelope';
import type { Platform } from '../../../platform';
import { needs } from '../../../auth/rights';

/**
 * Regions (spec §7 "SMS, OSS and regions"): a code tree under parent code 00. Each row repeats the codes and names
 * of its province…village, derived on save from the parent, so lists can filter by any level without joins.
 */

const LEVELS = ['province', 'city', 'district', 'town', 'village'] as const;

async function byCode(repo: Repository, ctx: CallContext, code: string): Promise<Row | undefined> {
  return repo.detail(ctx, { code });
}

async function hasChildren(repo: Repository, ctx: CallContext, codes: string[], except: string[] = []): Promise<boolean> {
  const conditions: Condition[] = [(eb) => eb('parentCode', 'in', codes)];
  if (except.length) conditions.push((eb) => eb('id', 'not in', except));
  return (await repo.all(ctx, {}, conditions, 1)).length > 0;
}

/** Ancestors, level and the per-level codes and names of a region placed below `parent`. */
function placedBelow(parent: Row | undefined, code: string, name: string): Row {
  const level = parent ? Number(parent.regionLevel) + 1 : 1;
  if (level > LEVELS.length) throw badRequest(`区划层级不能超过${LEVELS.length}级`);
  const out: Row = { regionLevel: level, ancestors: parent ? `${parent.ancestors},${parent.code}` : REGION_ROOT };
  LEVELS.forEach((prefix, index) => {
    const own = index === level - 1;
    const inherited = index < level - 1;
    out[`${prefix}Code`] = own ? code : inherited ? parent?.[`${prefix}Code`] : null;
    out[`${prefix}Name`] = own ? name : inherited ? parent?.[`${prefix}Name`] : null;
  });
  return out;
}

function regionHooks(repo: Repository): CrudHooks {
  return {
    async beforeSave(ctx, values, existing) {
      if (!isPlatformAdmin(ctx.principal)) throw forbidden();
      const merged: Row = { ...existing, ...values };
      const code = String(merged.code);
      const parentCode = String(merged.parentCode || REGION_ROOT);
      if (parentCode === code) throw badRequest('上级区划不能是自己');
      const moved = existing && (existing.code !== code || existing.parentCode !== parentCode);
      if (moved && (await hasChildren(repo, ctx, [String(existing.code)]))) throw badRequest('该区划有下级区划,不可修改编号或上级');
      const parent = parentCode === REGION_ROOT ? undefined : await byCode(repo, ctx, parentCode);
      if (parentCode !== REGION_ROOT && !parent) throw badRequest('上级区划不存在');
      // The code index is unique over all rows: a removed region must give its code back before it is reused.
      await repo.db.deleteFrom('blade_region').where('code', '=', code).where('isDeleted', '=', 1).execute();
      return { ...values, code, parentCode, ...placedBelow(parent, code, String(merged.name)) };
    },

    /** `id` (BladeX sends the region code there) or `ids`; each may be a row id or a region code. */
    async removeIds(ctx, params) {
      const keys = idsOf(params, params.id !== undefined ? 'id' : 'ids');
      const rows = await repo.all(ctx, {}, [(eb) => eb.or([eb('id', 'in', keys), eb('code', 'in', keys)])]);
      return rows.map((r) => r.id);
    },
    async beforeRemove(ctx, ids) {
      const rows = ids.length ? await repo.all(ctx, {}, [(eb) => eb('id', 'in', ids)]) : [];
      if (await hasChildren(repo, ctx, rows.map((r) => String(r.code)), ids)) throw badRequest('请先删除子节点');
    },
    /** A renamed region's name reaches the rows below it. */
    async afterSave(_ctx, row) {
      const prefix = LEVELS[Number(row.regionLevel) - 1];
      await repo.db
        .updateTable('blade_region')
        .set({ [`${prefix}Name`]: row.name })
        .where(`${prefix}Code`, '=', row.code as string)
        .where('id', '<>', row.id as string)
        .execute();
    },
  };
}

/** Lazy tree nodes as BladeX sends them: the code is the node's id, key and value. */
const lazyNode = (row: Row, children: boolean): Row => ({
  id: row.code,
  parentId: row.parentCode,
  title: row.name,
  key: row.code,
  value: row.code,
  regionLevel: row.regionLevel,
  hasChildren: children,
});

export function registerRegion(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(region);
  registerCrud(app, platform, region, regionHooks(repo));
  const base = '/blade-system/region';

  /** The rows under one parent code, each told whether it has children of its own. */
  async function level(ctx: CallContext, parentCode: string): Promise<Array<{ row: Row; children: boolean }>> {
    const rows = await repo.all(ctx, { ascs: 'sort,code' }, [(eb) => eb('parentCode', '=', parentCode)], 5000);
    const codes = rows.map((r) => r.code);
    const withChildren = codes.length
      ? await (await repo.query(ctx, {}, [(eb) => eb('parentCode', 'in', codes)])).select('parentCode').distinct().execute()
      : [];
    const parents = new Set(withChildren.map((r) => String(r.parentCode)));
    return rows.map((row) => ({ row, children: parents.has(row.code) }));
  }

  app.get(`${base}/lazy-list`, needs('region'), async (request) => {
    const items = await level(contextOf(request), text(paramsOf(request), 'parentCode') ?? REGION_ROOT);
    return ok(items.map(({ row, children }) => ({ ...row, hasChildren: children })));
  });

  app.get(`${base}/lazy-tree`, needs.lookup, async (request) => {
    const items = await level(contextOf(request), text(paramsOf(request), 'parentCode') ?? REGION_ROOT);
    return ok(items.map(({ row, children }) => lazyNode(row, children)));
  });
}
