import type { FastifyInstance } from 'fastify';
import { collectStrategy, jobInfo, viewStrateg } from '../../../resources/iot/data';
import { device, gateway } from '../../../resources/iot/device';
import { project } from '../../../resources/iot/project';
import { isPlatformAdmin } from '../../auth/principal';
import type { Row } from '../../db/database';
import { referencedRows, tenantOfRow, withReferenceNames } from '../../db/references';
import type { CallContext } from '../../db/repository';
import { contextOf, paramsOf } from '../../http/context';
import { type CrudHooks, registerCrud } from '../../http/crud';
import { badRequest, ok } from '../../http/envelope';
import { nextId } from '../../ids';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import type { Commands, Target } from './commands';
import { eq, idArg, within } from './common';
import { needs } from '../../auth/rights';

/**
 * Collection strategies that really run (docs/data-model.md "Collection strategies"): every enabled strategy of a
 * live project has a timer in this process; each run publishes the strategy's command to its gateway and devices
 * through the command module and is logged in wit_job_info. Timers follow every change of the table and are
 * started at boot from the enabled rows.
 */

const DEFAULT_COMMAND = JSON.stringify({ command: 'collect' });
const MAX_DEVICES = 500;
/** setTimeout's longest delay; longer waits are re-armed. */
const MAX_DELAY_MS = 2 ** 31 - 1;

type Trigger = 'interval' | 'time';

interface Scheduled {
  row: Row;
  signature: string;
  /** Next run of the interval, epoch ms (undefined without an interval). */
  nextInterval?: number;
  timer?: NodeJS.Timeout;
}

/** What decides a strategy's timer: any change of these restarts it. */
const signatureOf = (row: Row) =>
  JSON.stringify([row.tenantId, row.projectId, row.gatewayId, row.deviceIds, row.intervalSeconds, row.times, row.command, row.updateTime]);

const idsOf = (value: unknown): string[] => String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The next daily time (`HH:mm` list, local time) strictly after `now`. */
export function nextDailyTime(times: string, now: number): number | undefined {
  let best: number | undefined;
  for (const time of idsOf(times)) {
    const [h, m] = time.split(':').map(Number);
    const at = new Date(now);
    at.setHours(h, m, 0, 0);
    if (at.getTime() <= now) at.setDate(at.getDate() + 1);
    if (best === undefined || at.getTime() < best) best = at.getTime();
  }
  return best;
}

function parseCommand(text: unknown): { command: string; params: Record<string, unknown> } {
  const parsed = JSON.parse(typeof text === 'string' && text ? text : DEFAULT_COMMAND) as { command: string; params?: unknown };
  const params = parsed.params && typeof parsed.params === 'object' && !Array.isArray(parsed.params) ? (parsed.params as Record<string, unknown>) : {};
  return { command: parsed.command, params };
}

export class Scheduler {
  private readonly scheduled = new Map<string, Scheduled>();
  private syncing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly platform: Platform,
    private readonly commands: Commands,
  ) {}

  /** Brings the timers in line with the enabled strategies of live projects (serialised: one reload at a time). */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.reload()).catch((error: unknown) => this.logError(error));
    return this.syncing;
  }

  isRunning(id: string): boolean {
    return this.scheduled.has(id);
  }

  /** Restarts the timers of one tenant's strategies (all tenants: undefined); returns how many run afterwards. */
  async restart(tenantId: string | undefined): Promise<number> {
    for (const [id, s] of this.scheduled) if (tenantId === undefined || s.row.tenantId === tenantId) this.unschedule(id);
    await this.sync();
    return [...this.scheduled.values()].filter((s) => tenantId === undefined || s.row.tenantId === tenantId).length;
  }

  stop(): void {
    this.closed = true;
    for (const id of [...this.scheduled.keys()]) this.unschedule(id);
  }

  private async reload(): Promise<void> {
    if (this.closed) return;
    const db = this.platform.db;
    const rows = await db
      .selectFrom('wit_collect_strategy')
      .selectAll()
      .where('isDeleted', '=', 0)
      .where('status', '=', 1)
      .where('enabled', '=', 1)
      .where('projectId', 'in', db.selectFrom('wit_project').select('id').where('isDeleted', '=', 0))
      .execute();
    if (this.closed) return;
    const wanted = new Map(rows.map((r) => [String(r.id), r]));
    for (const [id, s] of this.scheduled) {
      const row = wanted.get(id);
      if (!row || signatureOf(row) !== s.signature) this.unschedule(id);
    }
    for (const [id, row] of wanted) if (!this.scheduled.has(id)) this.schedule(id, row);
  }

  private schedule(id: string, row: Row): void {
    const interval = Number(row.intervalSeconds ?? 0);
    const s: Scheduled = { row, signature: signatureOf(row), nextInterval: interval > 0 ? Date.now() + interval * 1000 : undefined };
    this.scheduled.set(id, s);
    this.arm(id, s);
  }

  private unschedule(id: string): void {
    clearTimeout(this.scheduled.get(id)?.timer);
    this.scheduled.delete(id);
  }

  private arm(id: string, s: Scheduled): void {
    const now = Date.now();
    const daily = s.row.times ? nextDailyTime(String(s.row.times), now) : undefined;
    const candidates: Array<[number, Trigger]> = [];
    if (s.nextInterval !== undefined) candidates.push([s.nextInterval, 'interval']);
    if (daily !== undefined) candidates.push([daily, 'time']);
    if (candidates.length === 0) return;
    const [at, trigger] = candidates.reduce((a, b) => (b[0] < a[0] ? b : a));
    s.timer = setTimeout(() => void this.fire(id, s, at, trigger), Math.min(Math.max(0, at - now), MAX_DELAY_MS));
    s.timer.unref();
  }

  private async fire(id: string, s: Scheduled, at: number, trigger: Trigger): Promise<void> {
    if (this.scheduled.get(id) !== s) return;
    if (Date.now() < at) return this.arm(id, s); // a delay longer than setTimeout allows
    if (trigger === 'interval' && s.nextInterval !== undefined) {
      const step = Number(s.row.intervalSeconds) * 1000;
      s.nextInterval = Math.max(s.nextInterval + step, Date.now() + 1);
    }
    this.arm(id, s);
    await this.run(s.row, trigger).catch((error: unknown) => this.logError(error));
  }

  /** Sends the strategy's command to its gateway and devices (no waiting for answers) and logs the run. */
  async run(row: Row, trigger: Trigger): Promise<void> {
    const db = this.platform.db;
    const tenantId = String(row.tenantId);
    const targets: Target[] = [];
    if (row.gatewayId) {
      const gw = await db.selectFrom('wit_gateway').select(['id', 'code', 'projectId']).where('id', '=', String(row.gatewayId)).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst();
      if (gw) targets.push({ kind: 'gateway', id: String(gw.id), code: String(gw.code), tenantId, projectId: (gw.projectId as string | null) ?? null });
    }
    const deviceIds = idsOf(row.deviceIds);
    if (deviceIds.length) {
      const devices = await db.selectFrom('wit_device').select(['id', 'code', 'projectId']).where('id', 'in', deviceIds).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).where('status', '=', 1).execute();
      for (const d of devices) targets.push({ kind: 'device', id: String(d.id), code: String(d.code), tenantId, projectId: (d.projectId as string | null) ?? null });
    }
    const { command, params } = parseCommand(row.command);
    const failures: string[] = [];
    let sent = 0;
    for (const target of targets) {
      try {
        await this.commands.send(target, command, params, { wait: 0, source: `strategy:${String(row.id)}` });
        sent++;
      } catch (error) {
        failures.push(`${target.code}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const now = formatDateTime();
    const message = targets.length === 0 ? '策略没有可用的网关或设备' : failures.length ? `发送失败 ${failures.join('; ')}`.slice(0, 4000) : `已向 ${sent} 个目标发送 ${command}`;
    await db
      .insertInto('wit_job_info')
      .values({
        id: nextId(), tenantId, strategyId: String(row.id), strategyName: row.name, projectId: row.projectId, triggerType: trigger, runTime: now,
        targets: targets.length, sent, message, createTime: now, updateTime: now, status: 1, isDeleted: 0,
      })
      .execute();
    // Not a change of the strategy itself: updateTime stays, so the timer is not restarted.
    await db.updateTable('wit_collect_strategy').set({ lastRunTime: now }).where('id', '=', String(row.id)).execute();
    this.platform.events.emit('changed', 'wit_job_info');
  }

  private logError(error: unknown): void {
    if (this.closed) return;
    this.platform.logs.write('blade_log_error', { exceptionName: 'collectstrategy', message: error instanceof Error ? error.message : String(error), stackTrace: error instanceof Error ? error.stack : undefined });
  }
}

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
    const known = new Set(devices.map((d) => String(d.id)));
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

export function registerStrategies(app: FastifyInstance, platform: Platform, commands: Commands): Scheduler {
  const scheduler = new Scheduler(platform, commands);
  app.addHook('onReady', () => scheduler.sync());
  app.addHook('onClose', async () => scheduler.stop());
  platform.events.on('changed', (table) => {
    if (table === 'wit_collect_strategy' || table === 'wit_project') void scheduler.sync();
  });

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
  registerCrud(app, platform, jobInfo);

  /** A strategy with its project, gateway, and the project's devices each marked `selected` when the strategy covers it. */
  app.get('/wit-xinde/collectstrategy/selectStrategyProject', needs('collect_strategy'), async (request) => {
    const ctx = contextOf(request);
    const id = idArg(paramsOf(request), 'id');
    if (!id) throw badRequest('请选择采集策略');
    const row = await platform.repo(collectStrategy).byId(ctx, id);
    if (!row) throw badRequest('采集策略不存在或无权操作');
    const [strategy] = decorate(await withReferenceNames(platform, collectStrategy, [row]));
    const [proj] = await platform.repo(project).all(ctx, {}, [eq('id', String(row.projectId))], 1);
    const selected = new Set(idsOf(row.deviceIds));
    const devices = await platform.repo(device).all(ctx, {}, [eq('projectId', String(row.projectId))]);
    const gateways = await platform.repo(gateway).all(ctx, {}, [eq('projectId', String(row.projectId))]);
    return ok({
      strategy,
      project: proj ? { id: proj.id, name: proj.name, code: proj.code } : null,
      gateways: gateways.map((g) => ({ id: g.id, code: g.code, name: g.name, selected: g.id === row.gatewayId })),
      devices: devices.map((d) => ({ id: d.id, code: d.code, name: d.name, gatewayId: d.gatewayId ?? null, selected: selected.has(String(d.id)) })),
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
