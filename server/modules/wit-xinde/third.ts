import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deviceCustomer, PULL_OUTCOME_FIELDS, PULL_STATE, pointCustomer, thirdMonitorParam, thirdMonitorProject } from '../../../resources/iot/third';
import type { Resource } from '../../../resources/define';
import { device } from '../../../resources/iot/device';
import { monitorPoint } from '../../../resources/iot/monitoring';
import { project } from '../../../resources/iot/project';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, idsOf, paramsOf, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, invalidParam, ok } from '../../http/envelope';
import { refuseLocalUrl } from '../../net/check';
import type { Platform } from '../../platform';
import type { Third } from '../../third';
import { MAX_RANGE_MS, type PullScope } from '../../third/puller';
import { formatDateTime, parseDateTime } from '../../time';
import { tenantAsked } from '../blade-user/tenancy';
import { argsOf, distinct, eq, idArg, namedRows, WHOLE_TENANT, within } from './common';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/**
 * Third-party platforms (docs/third-party.md): connections (thirdmonitorparam), project, device and monitor-point
 * bindings (thirdmonitorproject, devicecustomer, pointcustomer), the calls that bind and sync them, and pulling
 * data now. The binding tables are written only by these calls; their `remove` unbinds.
 */

const SECRETS: ReadonlyArray<readonly [field: string, message: string]> = [
  ['password', '请输入登录密码'],
  ['clientSecret', '请输入客户端密钥'],
];

/**
 * A connection as it is stored: the pull's outcome is the server's to write; a blank secret keeps the stored one on
 * edit; an edit resumes a connection paused by a refused sign-in.
 */
function prepareParam(values: Row, existing: Row | undefined): Row {
  const out = { ...values };
  for (const field of PULL_OUTCOME_FIELDS) delete out[field];
  if (typeof out.baseUrl === 'string') out.baseUrl = out.baseUrl.replace(/\/+$/, '');
  for (const [field, message] of SECRETS) {
    if (out[field] !== undefined && out[field] !== null && out[field] !== '') continue;
    if (!existing) throw invalidParam(`${field}: ${message}`);
    delete out[field];
  }
  if (existing && Number(existing.lastPullState) === PULL_STATE.refused) out.lastPullState = PULL_STATE.never;
  return out;
}

/** A platform on the server's own network is refused when its address is written (and at every request). */
const checkOutbound = (platform: Platform, values: Row): Promise<void> => refuseLocalUrl(platform, values.baseUrl);

/** An epoch (ms, or seconds below 10^11) or `yyyy-MM-dd HH:mm:ss` argument. */
function instantArg(args: Record<string, unknown>, name: string): number | undefined {
  const value = text(args, name);
  if (value === undefined) return undefined;
  if (/^\d{1,16}$/.test(value)) return Number(value) < 1e11 ? Number(value) * 1000 : Number(value);
  const date = parseDateTime(value);
  if (!date) throw badRequest(`${name} 格式应为 yyyy-MM-dd HH:mm:ss 或毫秒时间戳`);
  return date.getTime();
}

/** What `getThirdData` pulls: a project binding (`bindingId`), a bound project, or a whole connection. */
async function pullRequest(platform: Platform, third: Third, ctx: CallContext, args: Record<string, unknown>): Promise<{ paramId: string; scope: PullScope }> {
  const bindingId = idArg(args, 'bindingId');
  let paramId = idArg(args, 'thirdParamId');
  let projectId = idArg(args, 'projectId');
  if (bindingId) {
    const binding = await platform.repo(thirdMonitorProject).byId(ctx, bindingId);
    if (!binding) throw badRequest('第三方项目绑定不存在或无权操作');
    paramId = binding.thirdParamId;
    projectId = binding.projectId;
  } else if (projectId) {
    paramId = String((await third.bindings.bound(ctx, projectId, undefined, paramId)).param.id);
  }
  if (!paramId) throw badRequest('请选择第三方参数或项目');
  await third.bindings.param(ctx, paramId);
  const scope: PullScope = { projectId };
  // A whole connection: the projects the caller sees (a user limited to projects pulls only theirs).
  if (!projectId) scope.projectIds = distinct(await platform.repo(thirdMonitorProject).all(ctx, {}, [eq('thirdParamId', paramId)]), 'projectId');
  if (text(args, 'deviceIds')) {
    scope.deviceIds = idsOf(args, 'deviceIds');
    if (scope.deviceIds.some((id) => !/^\d{1,20}$/.test(id))) throw badRequest('设备编号不正确');
  }
  const from = instantArg(args, 'startTime');
  const to = instantArg(args, 'endTime');
  if (to !== undefined && from === undefined) throw badRequest('请选择开始时间');
  if (from !== undefined) {
    const end = to ?? Date.now();
    if (from >= end) throw badRequest('开始时间应早于结束时间');
    if (end - from > MAX_RANGE_MS) throw badRequest('拉取时间范围不能超过31天');
    Object.assign(scope, { from, to: end });
  }
  return { paramId, scope };
}

/**
 * Adds the local rows' codes to binding rows (`<prefix>Code`): a second column of the referenced row, beside the
 * names the declarations add.
 */
async function withLocalCodes(platform: Platform, ctx: CallContext, rows: Row[], local: readonly [field: string, resource: Resource, prefix: string]): Promise<Row[]> {
  const [field, resource, prefix] = local;
  const codes = await namedRows(platform, ctx, resource, distinct(rows, field), ['code']);
  return rows.map((r) => ({ ...r, [`${prefix}Code`]: codes.get(String(r[field]))?.code ?? null }));
}

/** Bound devices and monitor points per project binding (all of the tenant's, as the bindings' checks count them). */
async function decorateProjects(platform: Platform, ctx: CallContext, rows: Row[]): Promise<Row[]> {
  const out = await withLocalCodes(platform, ctx, rows, ['projectId', project, 'project']);
  const count = async (resource: Resource) =>
    (await (await platform.repo(resource).select(ctx, WHOLE_TENANT))
      .select(['thirdParamId', 'projectId', (eb) => eb.fn.countAll<number>().as('count')])
      .where(within('projectId', distinct(rows, 'projectId')))
      .groupBy(['thirdParamId', 'projectId'])
      .execute()) as Array<{ thirdParamId: string; projectId: string; count: number }>;
  const devices = await count(deviceCustomer);
  const points = await count(pointCustomer);
  const of = (list: typeof devices, r: Row) => Number(list.find((c) => c.thirdParamId === r.thirdParamId && c.projectId === r.projectId)?.count ?? 0);
  return out.map((r) => ({ ...r, deviceCount: of(devices, r), pointCount: of(points, r) }));
}

export function registerThird(app: FastifyInstance, platform: Platform, third: Third): void {
  const { bindings, sync, puller } = third;
  const X = '/wit-xinde';
  type RouteRight = ReturnType<typeof needs>;
  type Handler<T> = (ctx: CallContext, args: Record<string, unknown>, request: FastifyRequest) => Promise<T>;
  // Calls that reach the remote platform now count against the `thirdParty` limit (docs/security.md "Rate limits").
  const remote = (right: string): RouteRight => limited('thirdParty', needs(right));
  const get = <T>(path: string, options: RouteRight, handler: Handler<T>) =>
    app.get(path, options, async (request) => ok(await handler(contextOf(request), paramsOf(request), request)));
  const post = <T>(path: string, options: RouteRight, handler: Handler<T>) =>
    app.post(path, options, async (request) => ok(await handler(contextOf(request), argsOf(request), request)));
  // The sync calls are GETs in the spec; they change rows, so POST is answered too. Each reaches the remote platform.
  const getOrPost = <T>(path: string, right: string, handler: (ctx: CallContext, args: Record<string, unknown>) => Promise<T>) =>
    app.route({ method: ['GET', 'POST'], url: path, ...remote(right), handler: async (request) => ok(await handler(contextOf(request), argsOf(request))) });

  // ---- connections ----
  registerCrud(app, platform, thirdMonitorParam, {
    beforeSave: async (_ctx, values, existing) => {
      const out = prepareParam(values, existing);
      await checkOutbound(platform, out);
      return out;
    },
    // The timers follow the write before the call answers.
    afterSave: () => puller.sync(),
    decorate: (_ctx, rows) => rows.map((r) => ({ ...r, running: puller.isScheduled(String(r.id)) ? 1 : 0 })),
  });
  get(`${X}/thirdmonitorparam/treeList`, needs('third_param'), (ctx, args) => bindings.paramTree(ctx, tenantAsked(ctx, args)));
  get(`${X}/thirdmonitorparam/getThirdProject`, remote('third_project'), (ctx, args) => bindings.remoteProjects(ctx, idArg(args, 'thirdParamId')));
  post(`${X}/thirdmonitorparam/bingProject`, remote('third_project_bind'), (ctx, args) => bindings.bindProject(ctx, idArg(args, 'thirdParamId'), idArg(args, 'projectId'), text(args, 'thirdProjectId')));
  get(`${X}/thirdmonitorparam/deviceTreeList`, needs('third_project'), (ctx, args) => bindings.deviceTree(ctx, idArg(args, 'projectId')));
  post(`${X}/thirdmonitorparam/getThirdData`, remote('third_project_bind'), async (ctx, args) => {
    const { paramId, scope } = await pullRequest(platform, third, ctx, args);
    return { thirdParamId: paramId, projectId: scope.projectId ?? null, ...(await puller.pull(paramId, scope)) };
  });

  // ---- bindings ----
  registerCrud(app, platform, thirdMonitorProject, { decorate: (ctx, rows) => decorateProjects(platform, ctx, rows) });
  post(`${X}/thirdmonitorproject/remove`, needs('third_project_bind'), (ctx, args) => bindings.unbindProjects(ctx, idsOf(args)).then(() => true));
  get(`${X}/thirdmonitorproject/getThirdDevice`, remote('third_project'), (ctx, args) =>
    sync.remoteDevices(ctx, { thirdParamId: idArg(args, 'thirdParamId'), projectId: idArg(args, 'projectId'), thirdProjectId: text(args, 'thirdProjectId') }),
  );
  app.post(`${X}/thirdmonitorproject/bingDevice`, remote('third_project_bind'), async (request) => {
    // A JSON object {projectId, devices: [...]}, or the list itself with the project in the query.
    const body = request.body;
    const args = Array.isArray(body) ? paramsOf(request) : argsOf(request);
    const items = Array.isArray(body) ? body : (args.devices ?? args.list);
    const where = { projectId: idArg(args, 'projectId'), thirdProjectId: text(args, 'thirdProjectId'), thirdParamId: idArg(args, 'thirdParamId') };
    return ok(await sync.bindDevices(contextOf(request), where, items));
  });

  registerCrud(app, platform, deviceCustomer, {
    decorate: async (ctx, rows) =>
      (await withLocalCodes(platform, ctx, rows, ['deviceId', device, 'device'])).map((r) => ({ ...r, pulledTime: r.pulledTs ? formatDateTime(new Date(Number(r.pulledTs))) : null })),
  });
  post(`${X}/devicecustomer/remove`, needs('third_project_bind'), (ctx, args) => bindings.unbind(ctx, 'device', idsOf(args)).then(() => true));
  getOrPost(`${X}/devicecustomer/syncDeviceInfo`, 'third_project_bind', (ctx, args) => sync.syncDevices(ctx, idArg(args, 'projectId'), text(args, 'ptProjectId')));

  registerCrud(app, platform, pointCustomer, { decorate: (ctx, rows) => withLocalCodes(platform, ctx, rows, ['monitorPointId', monitorPoint, 'monitorPoint']) });
  post(`${X}/pointcustomer/remove`, needs('third_project_bind'), (ctx, args) => bindings.unbind(ctx, 'point', idsOf(args)).then(() => true));
  getOrPost(`${X}/pointcustomer/syncPointInfo`, 'third_project_bind', (ctx, args) => sync.syncPoints(ctx, idArg(args, 'projectId'), text(args, 'ptProjectId')));

  // projectcustomer's third-party call (its other calls are in projects.ts).
  getOrPost(`${X}/projectcustomer/syncProject`, 'project_customer_sync', (ctx, args) =>
    bindings.syncProject(ctx, { thirdParamId: idArg(args, 'thirdParamId'), projectId: idArg(args, 'projectId'), ptProjectId: text(args, 'ptProjectId'), projectName: text(args, 'projectName') }),
  );
}
