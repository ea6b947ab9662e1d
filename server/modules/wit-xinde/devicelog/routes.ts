import type { FastifyInstance } from 'fastify';
import { collectData, deviceLogUpdateLog, viewCollect } from '../../../../resources/iot/data';
import { needs } from '../../../auth/rights';
import type { Row } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import type { Condition } from '../../../http/conditions';
import { bodyOf, contextOf, paramsOf, text } from '../../../http/context';
import { registerCrud } from '../../../http/crud';
import { badRequest, invalidParam, ok } from '../../../http/envelope';
import { exportRequest, pagedRows, sendExport } from '../../../http/export';
import type { Platform } from '../../../platform';
import type { DeviceLink } from '../commands';
import { argsOf, idArg } from '../common';
import { Recalculation } from './recalculation';
import { Settlement } from './settlement';
import { rangeOf } from './shared';
import { DeviceValues } from './values';
import { limited } from '../../../http/limits';

/**
 * The time series (devicelog, wit_device_log) and the calls on stored values: lists, manual values and corrections
 * (audited in wit_device_log_update_log), removal (values.ts), initial values, recalculation from raw readings
 * (recalculation.ts), and settlement of hydrostatic levelling points (settlement.ts) — docs/data-model.md "Device
 * data". A value's id is `<deviceId>.<pointKey>.<ts>`. The series has no tenant or project of its own to trust: every
 * call goes through the device, read with the device repository (tenant and project scope, shared.ts).
 */

/** The series, the raw messages, the audit and recalculation logs, and the device calls on stored values. */
export function registerDeviceLog(app: FastifyInstance, platform: Platform, link: DeviceLink): void {
  const log = new DeviceValues(platform);
  const calculation = new Recalculation(platform, link);
  const settlement = new Settlement(platform);
  const base = '/wit-xinde/devicelog';

  app.get(`${base}/list`, needs('device_log'), async (request) => ok(await log.page(contextOf(request), paramsOf(request))));
  // The fields of a listed value (shared.ts `present`), for the export (server/http/export.ts).
  const exportable = new Set(['id', 'deviceId', 'deviceCode', 'deviceName', 'projectId', 'tenantId', 'pointKey', 'ts', 'time', 'value', 'raw']);
  app.get(`${base}/export`, limited('export', needs('device_log')), async (request, reply) => {
    const ctx = contextOf(request);
    const { spec, query } = exportRequest(paramsOf(request), exportable, [], 'devicelog');
    return sendExport(request, reply, spec, await pagedRows((current, size) => log.page(ctx, { ...query, current, size }), platform.config.exports));
  });
  app.get(`${base}/nopage`, needs('device_log'), async (request) => ok(await log.all(contextOf(request), paramsOf(request))));
  app.get(`${base}/detail`, needs('device_log'), async (request) => {
    const id = text(paramsOf(request), 'id');
    if (!id) throw badRequest('请选择数据');
    return ok(await log.detail(contextOf(request), id));
  });
  app.post(`${base}/submit`, needs('device_log_add', 'device_log_correct'), async (request) => ok(await log.submit(contextOf(request), bodyOf(request))));
  app.post(`${base}/remove`, needs('device_log_delete'), async (request) => ok(await log.remove(contextOf(request), argsOf(request))));
  app.post(`${base}/removeByDevice`, needs('device_log_delete'), async (request) => ok(await log.removeByDevice(contextOf(request), argsOf(request))));
  app.post(`${base}/bacthUpdateData`, limited('import', needs('device_log_correct')), async (request) => ok(await log.batchUpdate(contextOf(request), request.body)));

  app.post('/wit-xinde/device/setDevInitValue', limited('recompute', needs('device_list_init')), async (request) => ok(await calculation.setInitialValues(contextOf(request), argsOf(request))));
  app.post('/wit-xinde/device/recalculate', limited('recompute', needs('device_list_init', 'device_log_correct')), async (request) => ok(await calculation.recalculate(contextOf(request), argsOf(request))));
  app.post('/wit-xinde/device/computeSettlement', limited('report', needs('device_list', 'device_log')), async (request) => ok(await settlement.settlement(contextOf(request), argsOf(request))));

  /** `hasError` 1/0: messages with or without an error; startTime/endTime: time of arrival. */
  const rawQuery = (_ctx: CallContext, query: Record<string, unknown>) => {
    const extra: Condition[] = [];
    const hasError = text(query, 'hasError');
    if (hasError === '1' || hasError === 'true') extra.push((eb) => eb('error', 'is not', null));
    if (hasError === '0' || hasError === 'false') extra.push((eb) => eb('error', 'is', null));
    const { from, to } = rangeOf(query);
    if (from !== undefined) extra.push((eb) => eb('receivedAt', '>=', from));
    if (to !== undefined) extra.push((eb) => eb('receivedAt', '<=', to));
    return { query, extra };
  };
  registerCrud(app, platform, collectData, { listQuery: rawQuery });
  registerCrud(app, platform, viewCollect, { listQuery: rawQuery });

  /** Only the reason and remark of an audit row may change; other fields of the body are ignored. */
  app.post('/wit-xinde/devicelogupdatelog/update', needs('device_log_correct'), async (request) => {
    const ctx = contextOf(request);
    const body = bodyOf(request);
    const id = idArg(body, 'id');
    if (!id) throw badRequest('修改数据必须带编号');
    const row = await platform.repo(deviceLogUpdateLog).byId(ctx, id);
    if (!row) throw badRequest('数据不存在或无权操作');
    const changes: Row = {};
    for (const field of ['reason', 'remark'] as const) {
      if (body[field] === undefined) continue;
      const value = body[field] === null ? null : String(body[field]).trim();
      if (value !== null && value.length > 255) throw invalidParam(`${field}: 长度不能超过255个字符`);
      changes[field] = value || null;
    }
    if (Object.keys(changes).length === 0) throw badRequest('请输入修正原因或备注');
    await platform.repo(deviceLogUpdateLog).updateWhere(ctx, changes, [(eb) => eb('id', '=', id)]);
    return ok({ ...row, ...changes });
  });
}
