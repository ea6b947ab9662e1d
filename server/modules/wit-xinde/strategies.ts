import type { FastifyInstance } from 'fastify';
import { collectStrategy, viewStrateg } from '../../../resources/iot/data';
import { device, gateway } from '../../../resources/iot/device';
import { project } from '../../../resources/iot/project';
import { isPlatformAdmin } from '../../auth/principal';
import { needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import { referencedRows, tenantOfRow, withReferenceNames } from '../../db/references';
import type { CallContext } from '../../db/repository';
import { contextOf, paramsOf } from '../../http/context';
import { type CrudHooks, registerCrud } from '../../http/crud';
import { badRequest, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { eq, idArg, within } from './common';
import { type CommandSender, DEFAULT_COMMAND, idsOf, MAX_DEVICES, Scheduler } from './strategy-scheduler';

/** The routes of collection strategies; their timers are in strategy-scheduler.ts. */

/**
 * The checks of a strategy write, on the row as it will be: project and gateway visible, gateway and devices of the
 * strategy's project; an enabled strategy needs a schedule and something to send to.
 */
async function checkStrategy(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> {
  const merged = { ...existing, ...values };
  const tenantId = tenantOfRow(ctx, values, existing);
  // The row as it will be, kept references included: a gateway kept must still fit a changed project.
  const found = await referencedRows(platform, ctx, collectStrategy, merged, existing);
  const gw = found.get('gatewayId');
  if (gw && gw.projectId !== merged.projectId) throw badRequest('网关不属于该项目');
  const deviceIds = idsOf(merged.deviceIds);
  if (deviceIds.length > MAX_DEVICES) throw badRequest(`一个策略最多${MAX_DEVICES}台设备`);
  if (deviceIds.length) {
    const devices = await platform.repo(device).all(ctx, {}, [within('id', deviceIds), eq('tenantId', tenantId), eq('projectId', String(merged.projectId))]);
    const known = new Set(devices.map((d) => d.id));
    const missing = deviceIds.find((id) => !known.has(id));
    if (missing) throw badRequest(`设备不存在或不属于该项目: ${missing}`);
  }
  if (Number(merged.enabled ?? 0) === 1) {
    if (!merged.intervalSeconds && !merged.times) throw badRequest('请设置采集间隔或采集时刻');
    if (!merged.gatewayId && deviceIds.length === 0) throw badRequest('请选择网关或设备');
  }
  const out = { ...values };
  if (!existing && !out.command) out.command = DEFAULT_COMMAND;
  if (out.deviceIds !== undefined) out.deviceIds = deviceIds.length ? [...new Set(deviceIds)].join(',') : null;
  return out;
}

const switchButton = (enabled: unknown) => (Number(enabled) === 1 ? 'collect_strategy_start' : 'collect_strategy_stop');

export function registerStrategies(app: FastifyInstance, platform: Platform, commands: CommandSender): Scheduler {
  const scheduler = new Scheduler(platform, commands);
  app.addHook('onReady', () => scheduler.sync());
  app.addHook('onClose', () => scheduler.stop());
  platform.events.whenChanged(['wit_collect_strategy', 'wit_project'], () => void scheduler.sync());

  const decorate = (rows: Row[]) =>
    rows.map((r) => ({
      ...r,
      deviceCount: idsOf(r.deviceIds).length,
      running: scheduler.isRunning(String(r.id)) ? 1 : 0,
    }));
  const hooks: CrudHooks = {
    beforeSave: (ctx, values, existing) => checkStrategy(platform, ctx, values, existing),
    // 启动 / 停止 are updates of `enabled` alone (spec §7 "collectstrategy: POST update (start/stop)").
    writeRight: (body, editing) => (editing && Object.keys(body).every((key) => key === 'id' || key === 'enabled') ? switchButton(body.enabled) : undefined),
    writeButtons: ['collect_strategy_start', 'collect_strategy_stop'],
    // The timers follow the write before the call answers: a strategy stopped by `update` sends nothing more.
    afterSave: () => scheduler.sync(),
    decorate: (_ctx, rows) => decorate(rows),
  };
  registerCrud(app, platform, collectStrategy, hooks);
  registerCrud(app, platform, viewStrateg, { decorate: (_ctx, rows) => decorate(rows) });

  /** A strategy with its project, gateway, and the project's devices each marked `selected` when the strategy covers it. */
  app.get('/wit-xinde/collectstrategy/selectStrategyProject', needs('collect_strategy'), async (request) => {
    const ctx = contextOf(request);
    const id = idArg(paramsOf(request), 'id');
    if (!id) throw badRequest('请选择采集策略');
    const row = await platform.repo(collectStrategy).byId(ctx, id);
    if (!row) throw badRequest('采集策略不存在或无权操作');
    const [strategy] = decorate(await withReferenceNames(platform, collectStrategy, [row]));
    const [proj] = await platform.repo(project).all(ctx, {}, [eq('id', row.projectId)], 1);
    const selected = new Set(idsOf(row.deviceIds));
    const devices = await platform.repo(device).all(ctx, {}, [eq('projectId', row.projectId)]);
    const gateways = await platform.repo(gateway).all(ctx, {}, [eq('projectId', row.projectId)]);
    return ok({
      strategy,
      project: proj ? { id: proj.id, name: proj.name, code: proj.code } : null,
      gateways: gateways.map((g) => ({ id: g.id, code: g.code, name: g.name, selected: g.id === row.gatewayId })),
      devices: devices.map((d) => ({ id: d.id, code: d.code, name: d.name, gatewayId: d.gatewayId ?? null, selected: selected.has(d.id) })),
    });
  });

  /** Restarts the timers of the caller's tenant (the platform administrator: every tenant). */
  app.get('/wit-xinde/collectstrategy/restartWithingsPro', needs('collect_strategy_start'), async (request) => {
    const ctx = contextOf(request);
    const running = await scheduler.restart(isPlatformAdmin(ctx.principal) ? undefined : ctx.principal.tenantId);
    return ok({ running });
  });

  return scheduler;
}
