import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { deviceType } from '../../../resources/iot/catalogue';
import { device } from '../../../resources/iot/device';
import { project, projectCategory, projectCustomer, userProject } from '../../../resources/iot/project';
import { isPlatformAdmin } from '../../auth/principal';
import type { Db, Row } from '../../db/database';
import { assignedProjects } from '../../db/project-scope';
import { withReferenceNames } from '../../db/references';
import type { CallContext } from '../../db/repository';
import { pagingOf } from '../../http/conditions';
import { contextOf, idsOf, paramsOf, requiredText } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, forbidden, ok, pageOf, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { dictLabels } from '../blade-user/names';
import { assertTenantExists, tenantAsked } from '../blade-user/tenancy';
import { attach, forest } from '../../http/trees';
import { argsOf, assertNoCycle, distinct, eq, idArg, newRow, nodeOf, within } from './common';
import { assertNoScopeWidened } from './project-move';
import { type Detached, deleteOwned, movedTables, moveOwned, ownedIds, purgeHistory } from './project-rows';
import { needs } from '../../auth/rights';

/** What a move did: projects moved and bindings removed with them. */
export interface MoveSummary {
  projects: number;
  removed: Detached;
}

class Projects {
  constructor(private readonly platform: Platform) {}

  private get db(): Db {
    return this.platform.db;
  }

  private changed(tables: string[]): void {
    for (const table of new Set([...tables, 'wit_user_project', 'wit_project'])) this.platform.events.emit('changed', table);
  }

  /** Adds the declared names (category, customer), then what `counted` adds: for the calls outside the CRUD routes. */
  async decorate(rows: Row[]): Promise<Row[]> {
    return this.counted(await withReferenceNames(this.platform, project, rows));
  }

  /** Adds the structure-type name and the device count. */
  async counted(rows: Row[]): Promise<Row[]> {
    if (rows.length === 0) return rows;
    const types = await dictLabels(this.db, 'structure_type');
    const counts = await this.db
      .selectFrom('wit_device')
      .select(['projectId', (eb) => eb.fn.countAll<number>().as('count')])
      .where('isDeleted', '=', 0)
      .where('projectId', 'in', rows.map((r) => String(r.id)))
      .groupBy('projectId')
      .execute();
    const byProject = new Map(counts.map((c) => [String(c.projectId), Number(c.count)]));
    return rows.map((r) => ({ ...r, structureTypeName: types.get(String(r.structureType)) ?? null, deviceCount: byProject.get(String(r.id)) ?? 0 }));
  }

  /** Deleted projects of the caller's tenant (and, for a user limited to projects, only theirs). */
  private async binQuery(ctx: CallContext) {
    let qb = this.db.selectFrom('wit_project').where('isDeleted', '=', 1);
    if (!isPlatformAdmin(ctx.principal)) qb = qb.where('tenantId', '=', ctx.principal.tenantId);
    const assigned = assignedProjects(ctx.principal);
    if (assigned) qb = qb.where((eb) => eb.or([eb('id', 'in', sql<string>`(${assigned})`), sql<boolean>`not exists (${assigned})`]));
    return qb;
  }

  async recycleBin(ctx: CallContext, params: Record<string, unknown>) {
    const { current, size } = pagingOf(params);
    const qb = await this.binQuery(ctx);
    const [{ total }] = (await qb.select((eb) => eb.fn.countAll<number>().as('total')).execute()) as Array<{ total: number }>;
    const rows = await qb.selectAll().orderBy('updateTime', 'desc').orderBy('id', 'desc').limit(size).offset((current - 1) * size).execute();
    return pageOf(await this.decorate(rows), Number(total), current, size);
  }

  private async binned(ctx: CallContext, id: string) {
    if (!/^\d{1,20}$/.test(id)) throw paramType('projectId');
    const row = await (await this.binQuery(ctx)).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw badRequest('回收站中没有该项目');
    return row;
  }

  async recover(ctx: CallContext, id: string): Promise<void> {
    const row = await this.binned(ctx, id);
    if (row.code) {
      const clash = await this.db.selectFrom('wit_project').select('id').where('tenantId', '=', row.tenantId).where('code', '=', row.code).where('isDeleted', '=', 0).executeTakeFirst();
      if (clash) throw badRequest('已存在相同编号的项目,无法恢复');
    }
    await this.db.updateTable('wit_project').set({ isDeleted: 0, updateUser: ctx.principal.userId, updateTime: formatDateTime() }).where('id', '=', id).execute();
    this.platform.events.emit('changed', 'wit_project');
  }

  /**
   * Removes a project from the recycle bin for good, with every row that belongs to it (project-rows.ts): its large
   * history first, in bounded chunks, then everything else in one transaction.
   */
  async purge(ctx: CallContext, id: string): Promise<void> {
    await this.binned(ctx, id);
    const owned = await ownedIds(this.db, [id]);
    await purgeHistory(this.db, owned);
    const tables = await this.db.transaction().execute(async (trx) => {
      const touched = await deleteOwned(trx, owned);
      await trx.deleteFrom('wit_project').where('id', '=', id).execute();
      return touched;
    });
    this.changed(tables);
  }

  /**
   * Moves projects with everything they own to another tenant (platform administrator only), in one transaction, as
   * project-rows.ts describes. Category, customer and user assignments belong to the old tenant and are dropped; so
   * are the bindings to the old tenant's push targets and third-party connections, which the new tenant cannot see.
   * Projects already in the tenant are left as they are.
   */
  async adjustTenant(ctx: CallContext, ids: string[], tenantId: string): Promise<MoveSummary> {
    if (!isPlatformAdmin(ctx.principal)) throw forbidden();
    if (!/^\d{6}$/.test(tenantId)) throw paramType('tenantId');
    await assertTenantExists(this.db, tenantId);
    const rows = await this.platform.repo(project).all(ctx, {}, [within('id', ids)]);
    if (rows.length !== new Set(ids).size) throw badRequest('数据不存在或无权操作');
    const moving = rows.filter((r) => r.tenantId !== tenantId);
    const movingIds = moving.map((r) => String(r.id));
    const summary: MoveSummary = { projects: moving.length, removed: { pushBindings: 0, pushMappings: 0, thirdProjects: 0, thirdDevices: 0, thirdPoints: 0, userProjects: 0 } };
    if (moving.length === 0) return summary;
    await this.assertNoCodeClash(moving, tenantId);
    await assertNoScopeWidened(this.db, movingIds);
    const owned = await ownedIds(this.db, movingIds);
    // ptProjectId is the remote id of a third-party binding (docs/third-party.md): it goes with the binding.
    const bound = distinct(await this.db.selectFrom('wit_third_project').select('projectId').where('projectId', 'in', movingIds).where('isDeleted', '=', 0).execute(), 'projectId');
    const by = { updateTime: formatDateTime(), updateUser: ctx.principal.userId };
    await this.db.transaction().execute(async (trx) => {
      summary.removed = await moveOwned(trx, owned, distinct(moving, 'tenantId'), { tenantId, ...by }, { isDeleted: 1, ...by });
      await trx.updateTable('wit_project').set({ tenantId, categoryId: null, customerId: null, ...by }).where('id', 'in', movingIds).execute();
      if (bound.length) await trx.updateTable('wit_project').set({ ptProjectId: null }).where('id', 'in', bound).execute();
    });
    this.changed(movedTables());
    return summary;
  }

  private async assertNoCodeClash(moving: Row[], tenantId: string): Promise<void> {
    const codes = moving.map((r) => String(r.code));
    const twice = codes.find((code, i) => codes.indexOf(code) !== i);
    if (twice) throw badRequest(`所选项目中有多个编号为 ${twice} 的项目`);
    const clash = await this.db
      .selectFrom('wit_project')
      .select('code')
      .where('tenantId', '=', tenantId)
      .where('isDeleted', '=', 0)
      .where(within('code', moving.map((r) => r.code)))
      .executeTakeFirst();
    if (clash) throw badRequest(`目标租户已存在编号为 ${String(clash.code)} 的项目`);
  }

  /** Device types of the project's devices, with how many devices of each. */
  async deviceTypesOf(ctx: CallContext, projectId: string): Promise<Row[]> {
    const devices = await this.platform.repo(device).all(ctx, {}, [eq('projectId', projectId)]);
    const types = await this.platform.repo(deviceType).all(ctx, {}, [within('id', distinct(devices, 'deviceTypeId'))]);
    return types.map((t) => ({ ...t, deviceCount: devices.filter((d) => d.deviceTypeId === t.id).length }));
  }
}

/** Customers with their projects below them. */
async function customerTree(platform: Platform, ctx: CallContext, tenantId: string) {
  const customers = await platform.repo(projectCustomer).all(ctx, {}, [eq('tenantId', tenantId)]);
  const projects = await platform.repo(project).all(ctx, {}, [eq('tenantId', tenantId), within('customerId', customers.map((c) => c.id))]);
  return attach(
    customers.map((c) => nodeOf('customer', c, '0')),
    projects.map((p) => nodeOf('project', p, String(p.customerId))),
  );
}

/** A customer's projects become exactly the given ones. */
async function setCustomerProjects(platform: Platform, ctx: CallContext, customerId: string, projectIds: string[]): Promise<void> {
  const [customer] = await platform.repo(projectCustomer).all(ctx, {}, [eq('id', customerId)], 1);
  if (!customer) throw badRequest('客户不存在');
  const projects = await platform.repo(project).all(ctx, {}, [within('id', projectIds), eq('tenantId', customer.tenantId)]);
  if (projects.length !== new Set(projectIds).size) throw badRequest('项目不存在或无权操作');
  const now = formatDateTime();
  const by = { updateTime: now, updateUser: ctx.principal.userId };
  await platform.db.transaction().execute(async (trx) => {
    let clear = trx.updateTable('wit_project').set({ customerId: null, ...by }).where('customerId', '=', customerId);
    if (projectIds.length) clear = clear.where('id', 'not in', projectIds);
    await clear.execute();
    if (projectIds.length) await trx.updateTable('wit_project').set({ customerId, ...by }).where('id', 'in', projectIds).execute();
  });
  platform.events.emit('changed', 'wit_project');
}

/** Only callers who are not themselves limited to projects may hand projects out. */
async function assertMayAssign(platform: Platform, ctx: CallContext): Promise<void> {
  if (!assignedProjects(ctx.principal)) return;
  const mine = await platform.db.selectFrom('wit_user_project').select('id').where('userId', '=', ctx.principal.userId).where('isDeleted', '=', 0).executeTakeFirst();
  if (mine) throw forbidden('无权分配项目');
}

async function assertUserOfTenant(db: Db, userId: string, tenantId: string): Promise<void> {
  const user = await db.selectFrom('blade_user').select('id').where('id', '=', userId).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst();
  if (!user) throw badRequest('用户不存在');
}

/** The user's projects become exactly the given ones (none: the user sees every project again). */
async function setUserProjects(platform: Platform, ctx: CallContext, userId: string, projectIds: string[]): Promise<void> {
  await assertMayAssign(platform, ctx);
  const user = await platform.db.selectFrom('blade_user').select(['id', 'tenantId']).where('id', '=', userId).where('isDeleted', '=', 0).executeTakeFirst();
  if (!user || (!isPlatformAdmin(ctx.principal) && user.tenantId !== ctx.principal.tenantId)) throw badRequest('用户不存在');
  const tenantId = String(user.tenantId);
  const projects = await platform.repo(project).all(ctx, {}, [within('id', projectIds), eq('tenantId', tenantId)]);
  if (projects.length !== new Set(projectIds).size) throw badRequest('项目不存在或无权操作');
  const now = formatDateTime();
  await platform.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('wit_user_project').where('userId', '=', userId).execute();
    const rows = [...new Set(projectIds)].map((projectId) => newRow(ctx, tenantId, { userId, projectId }, now));
    if (rows.length) await trx.insertInto('wit_user_project').values(rows).execute();
  });
  platform.events.emit('changed', 'wit_user_project');
}

/** Projects, their categories and customers, and which users see which projects. */
export function registerProjects(app: FastifyInstance, platform: Platform): void {
  const projects = new Projects(platform);
  const base = '/wit-xinde/project';
  const repo = platform.repo(project);

  registerCrud(app, platform, project, {
    beforeSave: (_ctx, values, existing) => {
      const start = (values.startDate ?? existing?.startDate) as string | null | undefined;
      const end = (values.endDate ?? existing?.endDate) as string | null | undefined;
      if (start && end && start > end) throw badRequest('结束日期不能早于开始日期');
      return values;
    },
    decorate: (_ctx, rows) => projects.counted(rows),
  });
  app.get(`${base}/SelectList`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(await projects.decorate(await repo.all(ctx, paramsOf(request))));
  });
  app.post(`${base}/adjustTenant`, needs('project_list_adjust'), async (request) => {
    const args = argsOf(request);
    return ok(await projects.adjustTenant(contextOf(request), idsOf(args), requiredText(args, 'tenantId')));
  });
  app.post(`${base}/selectDeviceTypeByPid`, needs.lookup, async (request) => {
    const args = argsOf(request);
    return ok(await projects.deviceTypesOf(contextOf(request), idArg(args, 'projectId') ?? requiredText(args, 'projectId')));
  });
  app.get(`${base}/recycle`, needs('project_list_recovery'), async (request) => ok(await projects.recycleBin(contextOf(request), paramsOf(request))));
  app.get(`${base}/recovery`, needs('project_list_recovery'), async (request) => {
    await projects.recover(contextOf(request), requiredText(paramsOf(request), 'projectId'));
    return ok(true);
  });
  app.get(`${base}/deleteProjectById`, needs('project_list_recovery'), async (request) => {
    await projects.purge(contextOf(request), requiredText(paramsOf(request), 'id'));
    return ok(true);
  });

  registerCrud(app, platform, projectCategory, {
    beforeSave: async (ctx, values, existing) => {
      await assertNoCycle(platform, ctx, projectCategory, existing?.id as string | undefined, values.parentId, '上级分类不能是自身或其下级');
      return values;
    },
  });
  app.get('/wit-xinde/projectcategory/tree', needs.lookup, async (request) => {
    const rows = await platform.repo(projectCategory).all(contextOf(request), {});
    return ok(forest(rows.map((r) => nodeOf('category', r, String(r.parentId)))));
  });

  app.get('/wit-xinde/projectcustomer/httpTreeList', needs('project_customer'), async (request) => {
    const ctx = contextOf(request);
    return ok(await customerTree(platform, ctx, tenantAsked(ctx, paramsOf(request))));
  });
  app.post('/wit-xinde/projectcustomer/setProject', needs('project_customer_edit'), async (request) => {
    const args = argsOf(request);
    const projectIds = args.projectIds === undefined || args.projectIds === '' ? [] : idsOf(args, 'projectIds');
    await setCustomerProjects(platform, contextOf(request), requiredText(args, 'customerId'), projectIds);
    return ok(true);
  });

  registerCrud(app, platform, userProject, {
    beforeSave: async (ctx, values, existing) => {
      await assertMayAssign(platform, ctx);
      const tenantId = existing ? String(existing.tenantId) : isPlatformAdmin(ctx.principal) && typeof values.tenantId === 'string' ? values.tenantId : ctx.principal.tenantId;
      if (values.userId) await assertUserOfTenant(platform.db, String(values.userId), tenantId);
      return values;
    },
    beforeRemove: (ctx) => assertMayAssign(platform, ctx),
    // The user's real name and account are not the declared `name`: joined here.
    decorate: async (_ctx, rows) => {
      const users = await platform.db.selectFrom('blade_user').select(['id', 'realName', 'account']).where(within('id', distinct(rows, 'userId'))).execute();
      const byId = new Map(users.map((u) => [String(u.id), u]));
      return rows.map((r) => ({ ...r, userName: byId.get(String(r.userId))?.realName ?? null, account: byId.get(String(r.userId))?.account ?? null }));
    },
  });
  app.post('/wit-xinde/userproject/setUserProject', needs('user_project_add', 'user_project_edit'), async (request) => {
    const args = argsOf(request);
    const projectIds = args.projectIds === undefined || args.projectIds === '' || (Array.isArray(args.projectIds) && args.projectIds.length === 0) ? [] : idsOf(args, 'projectIds');
    await setUserProjects(platform, contextOf(request), requiredText(args, 'userId'), projectIds);
    return ok(true);
  });
  app.get('/wit-xinde/userproject/selectUserProject', needs('user_project'), async (request) => {
    const ctx = contextOf(request);
    const userId = requiredText(paramsOf(request), 'userId');
    const links = await platform.repo(userProject).all(ctx, {}, [eq('userId', userId)]);
    const rows = await repo.all(ctx, {}, [within('id', distinct(links, 'projectId'))]);
    return ok({ projectIds: rows.map((r) => r.id), projects: await projects.decorate(rows) });
  });
}
