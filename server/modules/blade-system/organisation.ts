import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { DEPT_ROOT, dept } from '../../../resources/system/dept';
import { post } from '../../../resources/system/post';
import { user } from '../../../resources/system/user';
import type { Db, Row } from '../../db/database';
import type { CallContext, Repository } from '../../db/repository';
import { type Condition, PAGING_KEYS, type Query } from '../../http/conditions';
import { contextOf, paramsOf, text } from '../../http/context';
import { type CrudHooks, registerCrud } from '../../http/crud';
import { badRequest, ok, paramType } from '../../http/envelope';
import { forest, treeNode } from '../../http/trees';
import type { Platform } from '../../platform';
import { visibleRows } from '../blade-user/args';
import { dictLabels } from '../blade-user/names';
import { splitIds, tenantAsked, tenantOfWrite } from '../blade-user/tenancy';
import { needs } from '../../auth/rights';

const deptNode = (row: Row, hasChildren = false) => ({ ...treeNode(String(row.id), String(row.parentId), String(row.deptName)), hasChildren });

const eq = (column: string, value: unknown): Condition => (eb) => eb(column, '=', value);
const within = (column: string, values: string[]): Condition => (eb) => eb(column, 'in', values);

/**
 * Refuses to remove depts or posts that live users still hold (users keep them as comma-joined ids). Rights, beside
 * the caller's scope: a dept held by a user the caller's data scope hides is still held (raw-queries.ts, IDENTITY).
 */
async function assertNotHeld(db: Db, column: 'deptId' | 'postId', ids: string[], message: string): Promise<void> {
  const held = await db
    .selectFrom('blade_user')
    .select('id')
    .where('isDeleted', '=', 0)
    .where((eb) => eb.or(ids.map((id) => sql<boolean>`',' || ${sql.ref(column)} || ',' like ${`%,${id},%`}`)))
    .executeTakeFirst();
  if (held) throw badRequest(message);
}

/** The dept tree of one tenant: ancestors derived on save, subtrees moved whole, names and child flags on reads. */
class Departments {
  readonly repo: Repository;

  constructor(private readonly platform: Platform) {
    this.repo = platform.repo(dept);
  }

  /** '0' under the root; else the parent's ancestors and the parent. A dept may not move below itself. */
  private async ancestorsUnder(ctx: CallContext, parentId: string, tenantId: string, selfId?: string): Promise<string> {
    if (parentId === DEPT_ROOT) return DEPT_ROOT;
    const parent = await this.repo.byId(ctx, parentId);
    if (!parent || parent.tenantId !== tenantId) throw badRequest('上级机构不存在');
    const ancestors = `${parent.ancestors ?? DEPT_ROOT},${parent.id}`;
    if (selfId && `,${ancestors},`.includes(`,${selfId},`)) throw badRequest('上级机构不能是自身或其下级机构');
    return ancestors;
  }

  /**
   * Moves a dept and rewrites its descendants' ancestors in one statement, so the tree is never half-moved;
   * the rest of the submit is stored afterwards by the generic update.
   */
  private async moveSubtree(ctx: CallContext, existing: Row, parentId: string, ancestors: string): Promise<void> {
    const id = String(existing.id);
    const oldPrefix = `${existing.ancestors ?? DEPT_ROOT},${id}`;
    const newPrefix = `${ancestors},${id}`;
    const changes = {
      parentId: sql`case when id = ${id} then cast(${parentId} as varchar(20)) else parent_id end`,
      ancestors: sql`case when id = ${id} then cast(${ancestors} as text)
        else cast(${newPrefix} as text) || substr(ancestors, cast(${oldPrefix.length + 1} as integer)) end`,
    };
    const subtree: Condition[] = [eq('tenantId', existing.tenantId), (eb) => eb.or([eb('id', '=', id), eb('ancestors', '=', oldPrefix), eb('ancestors', 'like', `${oldPrefix},%`)])];
    // The whole subtree moves, also depts the caller's data scope hides: a tree is never half-moved.
    await this.repo.updateWhere(ctx, changes, subtree, { wholeTenant: true });
  }

  async beforeSave(ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> {
    if (!existing) {
      const parentId = String(values.parentId ?? DEPT_ROOT);
      const ancestors = await this.ancestorsUnder(ctx, parentId, tenantOfWrite(ctx, values));
      return { ...values, parentId, ancestors, fullName: values.fullName || values.deptName, deptCategory: values.deptCategory ?? 1 };
    }
    const { tenantId: _tenantId, ...changes } = values; // a dept stays in its tenant
    const parentId = String(changes.parentId ?? existing.parentId);
    const ancestors = await this.ancestorsUnder(ctx, parentId, String(existing.tenantId), String(existing.id));
    if (parentId !== String(existing.parentId) || ancestors !== existing.ancestors) await this.moveSubtree(ctx, existing, parentId, ancestors);
    return { ...changes, parentId, ancestors };
  }

  /** Adds parentName, deptCategoryName and hasChildren (of the depts the caller sees). */
  async decorate(ctx: CallContext, rows: Row[]): Promise<Row[]> {
    if (rows.length === 0) return rows;
    const ids = rows.map((r) => String(r.id));
    const parentIds = [...new Set(rows.map((r) => String(r.parentId)))].filter((id) => id !== DEPT_ROOT);
    const [children, parents, categories] = await Promise.all([
      this.repo.select(ctx).then((qb) => qb.select('parentId').distinct().where('parentId', 'in', ids).execute()),
      parentIds.length ? this.repo.select(ctx).then((qb) => qb.select(['id', 'deptName']).where('id', 'in', parentIds).execute()) : [],
      dictLabels(this.platform.db, 'org_category'),
    ]);
    const withChildren = new Set(children.map((r) => String(r.parentId)));
    const parentNames = new Map(parents.map((r) => [String(r.id), String(r.deptName)]));
    return rows.map((r) => ({
      ...r,
      parentName: parentNames.get(String(r.parentId)) ?? '',
      deptCategoryName: categories.get(String(r.deptCategory)) ?? '',
      hasChildren: withChildren.has(String(r.id)),
    }));
  }

  hooks(): CrudHooks {
    return {
      beforeSave: (ctx, values, existing) => this.beforeSave(ctx, values, existing),
      beforeRemove: (_ctx, ids) => assertNotHeld(this.platform.db, 'deptId', ids, '该机构下仍有用户,不能删除'),
      decorate: (ctx, rows) => this.decorate(ctx, rows),
    };
  }

  /** The children of `parentId` in the tenant asked about ('0': the top level). */
  async children(ctx: CallContext, params: Query): Promise<Row[]> {
    const parentId = text(params, 'parentId') ?? DEPT_ROOT;
    if (!/^\d{1,20}$/.test(parentId)) throw paramType('parentId');
    return this.repo.all(ctx, {}, [eq('parentId', parentId), eq('tenantId', tenantAsked(ctx, params))]);
  }
}

/** blade-system dept and post (spec §7 "Departments", "post: GET select with tenantId", "GET dept/select"). */
export function registerOrganisation(app: FastifyInstance, platform: Platform): void {
  const depts = new Departments(platform);
  registerCrud(app, platform, dept, depts.hooks());
  const posts = platform.repo(post);
  registerCrud(app, platform, post, {
    beforeRemove: (_ctx, ids) => assertNotHeld(platform.db, 'postId', ids, '该岗位下仍有用户,不能删除'),
    decorate: async (_ctx, rows) => {
      const categories = await dictLabels(platform.db, 'post_category');
      return rows.map((r) => ({ ...r, categoryName: categories.get(String(r.category)) ?? '' }));
    },
  });
  const users = platform.repo(user);

  /**
   * One level of the dept table (parentId, default the top level), with hasChildren for lazy loading. A search
   * (any filter but tenantId) without parentId spans the whole tree. The platform administrator sees every tenant
   * unless it names one (tenantId); other callers always see their own.
   */
  app.get('/blade-system/dept/lazy-list', needs('dept'), async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const { parentId: _parentId, tenantId: _tenantId, ...filters } = params;
    const parentId = text(params, 'parentId');
    if (parentId && !/^\d{1,20}$/.test(parentId)) throw paramType('parentId');
    const searching = Object.keys(filters).some((key) => !PAGING_KEYS.has(key) && text(filters, key) !== undefined);
    const level = parentId || !searching ? [eq('parentId', parentId ?? DEPT_ROOT)] : [];
    const tenant = text(params, 'tenantId') ? [eq('tenantId', tenantAsked(ctx, params))] : [];
    return ok(await depts.decorate(ctx, await depts.repo.all(ctx, filters, [...level, ...tenant])));
  });

  app.get('/blade-system/dept/tree', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const rows = await depts.repo.all(ctx, {}, [eq('tenantId', tenantAsked(ctx, paramsOf(request)))]);
    return ok(forest(rows.map((row) => deptNode(row))));
  });

  app.get('/blade-system/dept/lazy-tree', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const rows = await depts.decorate(ctx, await depts.children(ctx, paramsOf(request)));
    return ok(rows.map((row) => deptNode(row, row.hasChildren === true)));
  });

  /** The depts of a user (userId), or those named (deptId, comma-joined), or all of the tenant asked about. */
  app.get('/blade-system/dept/select', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const userId = text(params, 'userId');
    const ids = userId ? splitIds((await visibleRows(users, ctx, [userId]))[0].deptId) : splitIds(text(params, 'deptId'));
    const named = userId !== undefined || text(params, 'deptId') !== undefined;
    if (named && ids.length === 0) return ok([]);
    return ok(await depts.repo.all(ctx, {}, [named ? within('id', ids) : eq('tenantId', tenantAsked(ctx, params))]));
  });

  app.get('/blade-system/post/select', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(await posts.all(ctx, {}, [eq('tenantId', tenantAsked(ctx, paramsOf(request)))]));
  });
}
