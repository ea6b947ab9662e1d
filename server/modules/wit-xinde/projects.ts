import type { FastifyInstance } from 'fastify';
import { deviceType } from '../../../resources/iot/catalogue';
import { device } from '../../../resources/iot/device';
import { project, projectCategory, projectCustomer, userProject } from '../../../resources/iot/project';
import { thirdMonitorProject } from '../../../resources/iot/third';
import { user } from '../../../resources/system/user';
import { isPlatformAdmin } from '../../auth/principal';
import type { Db, Row } from '../../db/database';
import { assignedProjects } from '../../db/project-scope';
import { tenantOfRow, withReferenceNames } from '../../db/references';
import { type CallContext, type ScopeOptions, transact } from '../../db/repository';
import { type Condition, pagingOf } from '../../http/conditions';
import { contextOf, idsOf, paramsOf, requiredText } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, forbidden, ok, pageOf, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { dictLabels } from '../blade-user/names';
import { assertTenantExists, tenantAsked } from '../blade-user/tenancy';
import { attach, forest } from '../../http/trees';
import { argsOf, assertNoCycle, distinct, eq, idArg, namedRows, nodeOf, WHOLE_TENANT, within } from './common';
import { assertNoScopeWidened } from './project-move';
import { type Detached, deleteOwned, movedTables, moveOwned, ownedIds, purgeHistory } from './project-rows';
import { needs } from '../../auth/rights';
import { assertScreenImage } from './screen/image';

/** What a move did: projects moved and bindings removed with them. */
export interface MoveSummary {
  projects: number;
  removed: Detached;
}

/** Projects in the recycle bin, as the caller may see them. */
const IN_BIN: ScopeOptions = { deleted: true };

class Projects {
  constructor(private readonly platform: Platform) {}

  private get db(): Db {
    return this.platform.db;
  }

  private changed(tables: string[]): void {
    for (const table of new Set([...tables, 'wit_user_project', 'wit_project'])) this.platform.events.emit('changed', table);
  }

  /** Adds the declared names (category, customer), then what `counted` adds: for the calls outside the CRUD routes. */
  async decorate(ctx: CallContext, rows: Row[]): Promise<Row[]> {
    return this.counted(ctx, await withReferenceNames(this.platform, project, rows));
  }

  /** Adds the structure-type name and the device count (every live device of the project, as before its scopes). */
  async counted(ctx: CallContext, rows: Row[]): Promise<Row[]> {
    if (rows.length === 0) return rows;
    const types = await dictLabels(this.db, 'structure_type');
    const counts = await (await this.platform.repo(device).select(ctx, WHOLE_TENANT))
      .select(['projectId', (eb) => eb.fn.countAll<number>().as('count')])
      .where('projectId', 'in', rows.map((r) => String(r.id)))
      .groupBy('projectId')
      .execute();
    const byProject = new Map(counts.map((c) => [String(c.projectId), Number(c.count)]));
    return rows.map((r) => ({ ...r, structureTypeName: types.get(String(r.structureType)) ?? null, deviceCount: byProject.get(String(r.id)) ?? 0 }));
  }

  /** Deleted projects the caller may see: of its tenant, its assigned projects if it has some, within its data scope. */
  private binQuery(ctx: CallContext) {
    return this.platform.repo(project).select(ctx, IN_BIN);
  }

  async recycleBin(ctx: CallContext, params: Record<string, unknown>) {
    const { current, size } = pagingOf(params);
    const qb = await this.binQuery(ctx);
    const [{ total }] = (await qb.select((eb) => eb.fn.countAll<number>().as('total')).execute()) as Array<{ total: number }>;
    const rows = await qb.selectAll().orderBy('updateTime', 'desc').orderBy('id', 'desc').limit(size).offset((current - 1) * size).execute();
    return pageOf(await this.decorate(ctx, rows), Number(total), current, size);
  }

  private async binned(ctx: CallContext, id: string): Promise<Row> {
    if (!/^\d{1,20}$/.test(id)) throw paramType('projectId');
    const row = await (await this.binQuery(ctx)).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw badRequest('回收站中没有该项目');
    return row;
  }

  async recover(ctx: CallContext, id: string): Promise<void> {
    const row = await this.binned(ctx, id);
    const repo = this.platform.repo(project);
    if (row.code && (await repo.clash(row))) throw badRequest('已存在相同编号的项目,无法恢复');
    await repo.updateWhere(ctx, { isDeleted: 0 }, [eq('id', id)], IN_BIN);
  }

  /**
   * Removes a project from the recycle bin for good, with every row that belongs to it (project-rows.ts): its large
   * history first, in bounded chunks, then everything else in one transaction.
   */
  async purge(ctx: CallContext, id: string): Promise<void> {
    await this.binned(ctx, id);
    const owned = await ownedIds(this.db, [id]);
    await purgeHistory(this.db, owned);
    const tables = await transact(this.platform, async (trx) => {
      // The project first: its scope reads the caller's assignments, which deleteOwned removes with the project's rows.
      await this.platform.repo(project).within(trx).purgeWhere(ctx, [eq('id', id)], IN_BIN);
      return deleteOwned(trx, owned);
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
    const movingIds = moving.map((r) => r.id);
    const summary: MoveSummary = { projects: moving.length, removed: { pushBindings: 0, pushMappings: 0, thirdProjects: 0, thirdDevices: 0, thirdPoints: 0, userProjects: 0 } };
    if (moving.length === 0) return summary;
    await this.assertNoCodeClash(ctx, moving, tenantId);
    await assertNoScopeWidened(this.db, movingIds);
    const owned = await ownedIds(this.db, movingIds);
    // ptProjectId is the remote id of a third-party binding (docs/third-party.md): it goes with the binding.
    const bindings = await (await this.platform.repo(thirdMonitorProject).select(ctx)).select('projectId').where('projectId', 'in', movingIds).execute();
    const bound = distinct(bindings, 'projectId');
    const by = { updateTime: formatDateTime(), updateUser: ctx.principal.userId };
    await transact(this.platform, async (trx) => {
      summary.removed = await moveOwned(trx, owned, distinct(moving, 'tenantId'), { tenantId, ...by }, { isDeleted: 1, ...by });
      const projects = this.platform.repo(project).within(trx);
      await projects.updateWhere(ctx, { tenantId, categoryId: null, customerId: null }, [within('id', movingIds)]);
      if (bound.length) await projects.updateWhere(ctx, { ptProjectId: null }, [within('id', bound)]);
    });
    this.changed(movedTables());
    return summary;
  }

  /** The platform administrator's view of the target tenant: every live project of it. */
  private async assertNoCodeClash(ctx: CallContext, moving: Row[], tenantId: string): Promise<void> {
    const codes = moving.map((r) => String(r.code));
    const twice = codes.find((code, i) => codes.indexOf(code) !== i);
    if (twice) throw badRequest(`所选项目中有多个编号为 ${twice} 的项目`);
    const clash = await (await this.platform.repo(project).select(ctx))
      .select('code')
      .where('tenantId', '=', tenantId)
      .where(within('code', moving.map((r) => r.code)))
      .executeTakeFirst();
    if (clash) throw badRequest(`目标租户已存在编号为 ${clash.code} 的项目`);
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
  // Among the projects the caller may write: one it cannot see keeps its customer.
  const others: Condition[] = projectIds.length ? [(eb) => eb('id', 'not in', projectIds)] : [];
  await transact(platform, async (trx) => {
    const projects = platform.repo(project).within(trx);
    await projects.updateWhere(ctx, { customerId: null }, [eq('customerId', customerId), ...others]);
    if (projectIds.length) await projects.updateWhere(ctx, { customerId }, [within('id', projectIds)]);
  });
}

/** Only callers who are not themselves limited to projects may hand projects out. */
async function assertMayAssign(platform: Platform, ctx: CallContext): Promise<void> {
  if (!assignedProjects(ctx.principal)) return;
  const mine = await (await platform.repo(userProject).select(ctx, WHOLE_TENANT)).select('id').where('userId', '=', ctx.principal.userId).executeTakeFirst();
  if (mine) throw forbidden('无权分配项目');
}

/** A user of the tenant, whether or not the caller's data scope shows it. */
async function userOfTenant(platform: Platform, ctx: CallContext, userId: string, tenantId?: string): Promise<Row | undefined> {
  let qb = (await platform.repo(user).select(ctx, WHOLE_TENANT)).select(['id', 'tenantId']).where('id', '=', userId);
  if (tenantId) qb = qb.where('tenantId', '=', tenantId);
  return qb.executeTakeFirst();
}

/** The user's projects become exactly the given ones (none: the user sees every project again). */
async function setUserProjects(platform: Platform, ctx: CallContext, userId: string, projectIds: string[]): Promise<void> {
  await assertMayAssign(platform, ctx);
  const found = await userOfTenant(platform, ctx, userId);
  if (!found || (!isPlatformAdmin(ctx.principal) && found.tenantId !== ctx.principal.tenantId)) throw badRequest('用户不存在');
  const tenantId = String(found.tenantId);
  const projects = await platform.repo(project).all(ctx, {}, [within('id', projectIds), eq('tenantId', tenantId)]);
  if (projects.length !== new Set(projectIds).size) throw badRequest('项目不存在或无权操作');
  await transact(platform, async (trx) => {
    const links = platform.repo(userProject).within(trx);
    // Replaced whole: every row of the user's, live or removed, seen by the caller or not.
    await links.purgeWhere(ctx, [eq('userId', userId)], { wholeTenant: true, deleted: 'either' });
    await links.insertMany(ctx, [...new Set(projectIds)].map((projectId) => ({ tenantId, userId, projectId })));
  });
}

/** Projects, their categories and customers, and which users see which projects. */
export function registerProjects(app: FastifyInstance, platform: Platform): void {
  const projects = new Projects(platform);
  const base = '/wit-xinde/project';
  const repo = platform.repo(project);

  registerCrud(app, platform, project, {
    beforeSave: async (ctx, values, existing) => {
      const start = (values.startDate ?? existing?.startDate) as string | null | undefined;
      const end = (values.endDate ?? existing?.endDate) as string | null | undefined;
      if (start && end && start > end) throw badRequest('结束日期不能早于开始日期');
      // The wall screen reads the image on the screen's behalf: only an image the tenant uploaded (docs/wall-screen.md).
      if (typeof values.screenImage === 'string' && values.screenImage !== '') await assertScreenImage(platform, ctx, tenantOfRow(ctx, values, existing), values.screenImage);
      return values;
    },
    decorate: (ctx, rows) => projects.counted(ctx, rows),
  });
  app.get(`${base}/SelectList`, needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(await projects.decorate(ctx, await repo.all(ctx, paramsOf(request))));
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
      if (values.userId && !(await userOfTenant(platform, ctx, String(values.userId), tenantId))) throw badRequest('用户不存在');
      return values;
    },
    beforeRemove: (ctx) => assertMayAssign(platform, ctx),
    // The user's real name and account are not the declared `name`: joined here.
    decorate: async (ctx, rows) => {
      const byId = await namedRows(platform, ctx, user, distinct(rows, 'userId'), ['realName', 'account']);
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
    return ok({ projectIds: rows.map((r) => r.id), projects: await projects.decorate(ctx, rows) });
  });
}
