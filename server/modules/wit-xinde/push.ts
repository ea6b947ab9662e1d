import type { FastifyInstance } from 'fastify';
import { device, devicePoint } from '../../../resources/iot/device';
import { DEFAULT_TOPIC, mqttParam, PUSH_TYPE, subTable, tenantProject } from '../../../resources/iot/push';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, idsOf, paramsOf } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, ok } from '../../http/envelope';
import { refuseLocalUrl } from '../../net/check';
import { UnreadableSecret } from '../../auth/secrets';
import type { Platform } from '../../platform';
import { pushOf } from '../../push';
import { targetOf } from '../../push/target';
import { tenantAsked } from '../blade-user/tenancy';
import { argsOf, distinct, eq, idArg, namedRows, WHOLE_TENANT, within } from './common';
import { decorateBindings, PushCalls } from './push-calls';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/**
 * Onward data (docs/push.md): push targets (mqttparam), the projects bound to them (tenantproject), the renaming of
 * devices and channels per target (subtable), the push log (apisendlog), and the calls of spec §7 "Tenant projects
 * (MQTT and HTTP push)". The forwarder itself lives in server/push.
 */

const SECRETS = ['password', 'token', 'secret', 'headers'] as const;
/** Columns of a binding only the forwarder writes. */
const FORWARDER_COLUMNS = ['lastPushTime', 'lastState', 'lastError', 'pushCount'] as const;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * A target's cross-field rules. Secrets are write-only: an edit that leaves one blank keeps the stored value (null
 * clears it). MQTT needs a broker (the topic defaults), HTTP needs a URL.
 */
export function checkTarget(values: Row, existing: Row | undefined): Row {
  const out = { ...values };
  for (const field of SECRETS) {
    if (out[field] === '') {
      if (existing) delete out[field];
      else out[field] = null;
    }
  }
  const merged = { ...existing, ...out };
  if (Number(merged.pushType) === PUSH_TYPE.mqtt) {
    if (blank(merged.brokerUrl)) throw badRequest('请输入 MQTT 服务器地址');
    if (blank(merged.topic)) out.topic = DEFAULT_TOPIC;
  } else if (blank(merged.url)) {
    throw badRequest('请输入推送地址');
  }
  return out;
}

/**
 * A target may not lead to the platform's own network (docs/push.md "Outbound addresses"): its address is judged when
 * it, or the push type, is written; the forwarder judges it again at every connection.
 */
async function checkOutbound(platform: Platform, values: Row, existing: Row | undefined): Promise<void> {
  if (!['pushType', 'brokerUrl', 'url'].some((field) => values[field] !== undefined)) return;
  const merged = { ...existing, ...values };
  await refuseLocalUrl(platform, Number(merged.pushType) === PUSH_TYPE.mqtt ? merged.brokerUrl : merged.url);
}

/** A stored target with its credentials opened, or a refusal saying they must be entered again. */
function revealed(platform: Platform, row: Row): Row {
  try {
    return platform.repo(mqttParam).reveal(row);
  } catch (error) {
    if (error instanceof UnreadableSecret) throw badRequest(error.message);
    throw error;
  }
}

/** Which secrets a target has (`hasPassword` …, 0/1) and how many projects it is bound to; never the secrets. */
async function decorateTargets(platform: Platform, ctx: CallContext, rows: Row[]): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const ids = rows.map((r) => String(r.id));
  const has = await namedRows(platform, ctx, mqttParam, ids, SECRETS);
  // Every binding of the target counts, in projects the caller sees or not.
  const counts = await (await platform.repo(tenantProject).select(ctx, WHOLE_TENANT))
    .select(['mqttParamId', (eb) => eb.fn.countAll<number>().as('count')])
    .where('mqttParamId', 'in', ids)
    .groupBy('mqttParamId')
    .execute();
  const bound = new Map(counts.map((c) => [c.mqttParamId, Number(c.count)]));
  const flag = (row: Row | undefined, field: string) => (row && typeof row[field] === 'string' && row[field] !== '' ? 1 : 0);
  return rows.map((r) => {
    const s = has.get(String(r.id));
    return { ...r, hasPassword: flag(s, 'password'), hasToken: flag(s, 'token'), hasSecret: flag(s, 'secret'), hasHeaders: flag(s, 'headers'), projectCount: bound.get(String(r.id)) ?? 0 };
  });
}

/** A binding's devices must be devices of its project. */
async function checkBinding(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> {
  const out = { ...values };
  for (const field of FORWARDER_COLUMNS) delete out[field];
  const projectId = String(out.projectId ?? existing?.projectId ?? '');
  const given = out.deviceIds === undefined ? existing?.deviceIds : out.deviceIds;
  const ids = String(given ?? '').split(',').filter(Boolean);
  if (ids.length) {
    const found = await platform.repo(device).all(ctx, {}, [within('id', ids), eq('projectId', projectId)]);
    if (found.length !== new Set(ids).size) throw badRequest('所选设备不存在或不属于该项目');
  }
  if (out.deviceIds !== undefined) out.deviceIds = ids.length ? [...new Set(ids)].join(',') : null;
  return out;
}

/**
 * A mapping renames a device (no point key: `targetDevice`) or one of its channels (`targetKey`), for one target.
 */
async function checkMapping(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> {
  const out = { ...values };
  for (const field of ['pointKey', 'targetDevice', 'targetKey'] as const) if (out[field] === '') out[field] = null;
  const merged = { ...existing, ...out };
  if (merged.pointKey) {
    if (blank(merged.targetKey)) throw badRequest('请填写外部点位标识');
    const [point] = await platform.repo(devicePoint).all(ctx, {}, [eq('deviceId', String(merged.deviceId)), eq('pointKey', String(merged.pointKey))], 1);
    if (!point) throw badRequest(`设备没有该点位: ${String(merged.pointKey)}`);
  } else if (blank(merged.targetDevice)) {
    throw badRequest('请填写外部设备编号');
  }
  return out;
}

export function registerPush(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, mqttParam, {
    beforeSave: async (_ctx, values, existing) => {
      const out = checkTarget(values, existing);
      await checkOutbound(platform, out, existing);
      return out;
    },
    decorate: (ctx, rows) => decorateTargets(platform, ctx, rows),
  });

  registerCrud(app, platform, tenantProject, {
    beforeSave: (ctx, values, existing) => checkBinding(platform, ctx, values, existing),
    decorate: (ctx, rows) => decorateBindings(platform, ctx, rows),
  });

  registerCrud(app, platform, subTable, {
    beforeSave: (ctx, values, existing) => checkMapping(platform, ctx, values, existing),
    // The device's code is a second column of the referenced row, beside its declared name.
    decorate: async (ctx, rows) => {
      const devices = await namedRows(platform, ctx, device, distinct(rows, 'deviceId'), ['code']);
      return rows.map((r) => ({ ...r, deviceCode: devices.get(String(r.deviceId))?.code ?? null }));
    },
  });


  const calls = new PushCalls(platform, () => pushOf(platform));
  const base = '/wit-xinde/tenantproject';

  /** Tests a saved target (`id`) or the target a form describes (blank secrets: the stored ones). */
  app.post('/wit-xinde/subtable/testMQTT', limited('connectionTest', needs('mqtt_param_add', 'mqtt_param_edit')), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const id = idArg(args, 'id') ?? idArg(args, 'mqttParamId');
    let stored: Row | undefined;
    if (id) {
      // A target the caller sees, read with its secrets (the scoped select does not strip them).
      const row = await (await platform.repo(mqttParam).select(ctx)).selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw badRequest('推送目标不存在或无权操作');
      stored = revealed(platform, row);
    }
    const given = { ...args };
    delete given.id;
    delete given.mqttParamId;
    const parsed = platform.repo(mqttParam).parse(given, true);
    if (!stored && parsed.pushType === undefined) throw badRequest('请选择推送方式');
    const values = checkTarget(parsed, stored);
    const target = targetOf({ ...stored, ...values, id: stored?.id ?? 'test', tenantId: stored?.tenantId ?? ctx.principal.tenantId });
    return ok(await pushOf(platform).forwarder.test(target, !!stored));
  });

  app.get(`${base}/mqttTreeList`, needs('tenant_project'), async (request) => {
    const ctx = contextOf(request);
    return ok(await calls.tree(ctx, tenantAsked(ctx, paramsOf(request))));
  });
  app.post(`${base}/setTenantProject`, needs('tenant_project_edit'), async (request) => {
    const args = argsOf(request);
    const empty = args.projectIds === undefined || args.projectIds === '' || (Array.isArray(args.projectIds) && args.projectIds.length === 0);
    const targetId = idArg(args, 'mqttParamId');
    if (!targetId) throw badRequest('请选择推送目标');
    return ok(await calls.setProjects(contextOf(request), targetId, empty ? [] : idsOf(args, 'projectIds')));
  });
  app.get(`${base}/selectTenantProject`, needs('tenant_project'), async (request) => {
    const targetId = idArg(paramsOf(request), 'mqttParamId');
    if (!targetId) throw badRequest('请选择推送目标');
    return ok(await calls.selected(contextOf(request), targetId));
  });
  app.post(`${base}/pushMqttData`, limited('pushRange', needs('tenant_project_push')), async (request) => ok(await calls.pushRange(contextOf(request), argsOf(request), PUSH_TYPE.mqtt)));
  app.post(`${base}/pushHttpData`, limited('pushRange', needs('tenant_project_push')), async (request) => ok(await calls.pushRange(contextOf(request), argsOf(request), PUSH_TYPE.http)));
  app.post(`${base}/getDevList`, needs('tenant_project'), async (request) => ok(await calls.devices(contextOf(request), idsOf(argsOf(request)))));
  app.post(`${base}/pushDataByDev`, limited('pushRange', needs('tenant_project_push')), async (request) => ok(await calls.pushDevices(contextOf(request), argsOf(request), 'range')));
  app.post(`${base}/pushDataByDev2`, limited('pushRange', needs('tenant_project_push')), async (request) => ok(await calls.pushDevices(contextOf(request), argsOf(request), 'latest')));
}
