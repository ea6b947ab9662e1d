import type { FastifyInstance } from 'fastify';
import {
  deviceAttribute,
  deviceModel,
  deviceType,
  MODEL_KIND,
  protocolModbus,
  temperatureCoefficient,
} from '../../../resources/iot/catalogue';
import { device } from '../../../resources/iot/device';
import type { Row } from '../../db/database';
import { referencedRows, tenantOfRow } from '../../db/references';
import { type CallContext, transact } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { contextOf, paramsOf, requiredText, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, invalidParam, ok, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { attach } from '../../http/trees';
import { argsOf, distinct, eq, idArg, nodeOf, truthy, WHOLE_TENANT, within } from './common';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/** Types with their models below them (isLoadModel), for the model pickers; `kind` limits the models. */
async function modelTree(platform: Platform, ctx: CallContext, args: Record<string, unknown>, kind?: number): Promise<unknown[]> {
  const conditions: Condition[] = kind ? [eq('modelKind', kind)] : [];
  const projectId = idArg(args, 'projectId');
  if (projectId) {
    const devices = await platform.repo(device).all(ctx, {}, [eq('projectId', projectId)]);
    conditions.push(within('id', distinct(devices, 'modelId')));
  }
  const models = await platform.repo(deviceModel).all(ctx, {}, conditions);
  const typeConditions: Condition[] = kind || projectId ? [within('id', distinct(models, 'deviceTypeId'))] : [];
  const types = await platform.repo(deviceType).all(ctx, {}, typeConditions);
  const typeNodes = types.map((t) => nodeOf('type', t, '0', t.name, { code: t.code, disabled: truthy(args, 'isLoadModel') }));
  if (!truthy(args, 'isLoadModel')) return typeNodes;
  const modelNodes = models.map((m) => nodeOf('model', m, String(m.deviceTypeId ?? '0'), m.name, { code: m.code, modelKind: m.modelKind, connectionType: m.connectionType, channels: m.channels }));
  const untyped = modelNodes.filter((m) => !types.some((t) => t.id === m.parentId));
  return [...attach(typeNodes, modelNodes), ...untyped];
}

/**
 * Saves many coefficients at once, keyed by (modelId, channel): existing ones are updated, new ones inserted. All
 * rows are validated first and written in one transaction, so a bad row writes nothing.
 */
async function batchSaveCoefficients(platform: Platform, ctx: CallContext, body: unknown): Promise<number> {
  const list = Array.isArray(body) ? body : Array.isArray((body as { list?: unknown })?.list) ? (body as { list: unknown[] }).list : undefined;
  if (!list || list.length === 0) throw badRequest('请提交温度系数列表');
  const repo = platform.repo(temperatureCoefficient);
  const rows: Row[] = [];
  for (const [index, item] of list.entries()) {
    try {
      const values = repo.parse(item, false);
      await referencedRows(platform, ctx, temperatureCoefficient, values);
      rows.push({ ...values, tenantId: tenantOfRow(ctx, values, undefined) });
    } catch (error) {
      throw badRequest(`第${index + 1}条: ${(error as Error).message}`);
    }
  }
  const keys = new Set(rows.map((r) => `${r.modelId}:${r.channel}`));
  if (keys.size !== rows.length) throw badRequest('同一型号的通道重复');
  const now = formatDateTime();
  await transact(platform, async (trx) => {
    const coefficients = repo.within(trx);
    for (const row of rows) {
      // Keyed across the tenant: a coefficient the caller's scopes hide is still the one of its model and channel.
      const existing = await (await coefficients.select(ctx, WHOLE_TENANT))
        .select('id')
        .where('tenantId', '=', row.tenantId as string)
        .where('modelId', '=', row.modelId as string)
        .where('channel', '=', row.channel as number)
        .executeTakeFirst();
      const { tenantId: _tenant, ...values } = row;
      if (existing) await coefficients.updateWhere(ctx, values, [eq('id', existing.id)], WHOLE_TENANT);
      else await coefficients.insertMany(ctx, [row], now);
    }
  });
  return rows.length;
}

/** Device types, attributes, models, protocols with their points and Modbus variables, temperature coefficients. */
export function registerCatalogue(app: FastifyInstance, platform: Platform): void {
  /** Types of a model (`model`: its id or code) or of a project's devices (`projectId`); all types otherwise. */
  app.get('/wit-xinde/devicetype/select', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const args = paramsOf(request);
    const conditions: Condition[] = [];
    const model = text(args, 'model');
    if (model) {
      const models = await platform.repo(deviceModel).all(ctx, {}, [(eb) => eb.or([eb('id', '=', model), eb('code', '=', model)])]);
      conditions.push(within('id', distinct(models, 'deviceTypeId')));
    }
    const projectId = idArg(args, 'projectId');
    if (projectId) {
      const devices = await platform.repo(device).all(ctx, {}, [eq('projectId', projectId)]);
      conditions.push(within('id', distinct(devices, 'deviceTypeId')));
    }
    return ok(await platform.repo(deviceType).all(ctx, {}, conditions));
  });
  /** The kinds of things watched (device types) in a state (`status`, default 1 enabled), with their device counts. */
  app.get('/wit-xinde/devicetype/getMonitorObject', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const status = Number(text(paramsOf(request), 'status') ?? 1);
    if (!Number.isInteger(status)) throw paramType('status');
    const types = await platform.repo(deviceType).all(ctx, {}, [eq('status', status)]);
    const devices = await platform.repo(device).all(ctx, {}, [within('deviceTypeId', types.map((t) => t.id))], 100_000);
    return ok(types.map((t) => ({ id: t.id, name: t.name, code: t.code, deviceCount: devices.filter((d) => d.deviceTypeId === t.id).length })));
  });

  /** Attributes of a type: the generic ones plus those of the structure type `projectType`. */
  app.post('/wit-xinde/deviceattribute/selectList', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const deviceTypeId = idArg(args, 'deviceTypeId') ?? requiredText(args, 'deviceTypeId');
    const projectType = text(args, 'projectType');
    if (projectType !== undefined && !/^\d+$/.test(projectType)) throw paramType('projectType');
    const byType: Condition = projectType ? (eb) => eb.or([eb('projectType', 'is', null), eb('projectType', '=', Number(projectType))]) : (eb) => eb('projectType', 'is', null);
    return ok(await platform.repo(deviceAttribute).all(ctx, {}, [eq('deviceTypeId', deviceTypeId), byType]));
  });

  app.get('/wit-xinde/devicemodel/getTreeList', needs.lookup, async (request) => ok(await modelTree(platform, contextOf(request), paramsOf(request))));
  app.get('/wit-xinde/devicemodel/getGatewayModelTree', needs.lookup, async (request) =>
    ok(await modelTree(platform, contextOf(request), paramsOf(request), MODEL_KIND.gateway)),
  );
  app.get('/wit-xinde/devicemodel/getCjqModelTree', needs.lookup, async (request) =>
    ok(await modelTree(platform, contextOf(request), paramsOf(request), MODEL_KIND.collector)),
  );

  registerCrud(app, platform, protocolModbus, {
    beforeSave: (_ctx, values, existing) => {
      const merged = { ...existing, ...values };
      const words: Record<string, number> = { int16: 1, uint16: 1, bool: 1, int32: 2, uint32: 2, float32: 2, float64: 4 };
      const type = String(merged.dataType);
      // Registers a value of the type occupies; given when the form leaves it out.
      if (!existing && (values.quantity === undefined || values.quantity === null)) return { ...values, quantity: words[type] ?? 1 };
      if (merged.quantity !== undefined && merged.quantity !== null && Number(merged.quantity) < (words[type] ?? 1)) {
        throw invalidParam(`quantity: ${type} 至少需要 ${words[type]} 个寄存器`);
      }
      return values;
    },
  });

  app.post('/wit-xinde/temperaturecoefficient/batchSave', limited('import', needs('temperature_coefficient_add', 'temperature_coefficient_edit')), async (request) => ok(await batchSaveCoefficients(platform, contextOf(request), request.body)));
  /** A model's coefficients by channel, the reference the calculation uses. */
  app.post('/wit-xinde/temperaturecoefficient/selectReferenceData', needs('temperature_coefficient'), async (request) => {
    const args = argsOf(request);
    const modelId = idArg(args, 'modelId') ?? requiredText(args, 'modelId');
    return ok(await platform.repo(temperatureCoefficient).all(contextOf(request), {}, [eq('modelId', modelId)]));
  });
}
