import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { collectStrategy, PUSH_STATE, PUSH_STATE_NAMES } from '../../../resources/iot/data';
import { deviceModel, protocolPoint } from '../../../resources/iot/catalogue';
import { device, devicePoint, gateway, gatewayState } from '../../../resources/iot/device';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, text } from '../../http/context';
import { badRequest, invalidParam, ok } from '../../http/envelope';
import { nextId } from '../../ids';
import type { Broker } from '../../ingest/broker';
import type { Ingest } from '../../ingest';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { argsOf, idArg, truthy, within } from './common';
import { needs } from '../../auth/rights';

/**
 * Commands down to devices and gateways (docs/ingest.md "Commands"). A command is published as JSON
 * `{id, command, params, ts}` on `vigil/<tenant>/<device|gateway>/<code>/command` and recorded in
 * wit_device_push_log (state 0 sent); the answer `{id, ok, result | error}` on `…/reply` marks it 1 replied or
 * 3 failed. A call may wait for the answer; without one in time the push is marked 2 (timeout) — an answer that
 * arrives later still updates it.
 */

/** What the data and command modules need beyond the platform: the ingestion side and the embedded broker. */
export interface DeviceLink {
  ingest: Ingest;
  /** The embedded broker; undefined when MQTT_URL names an external one (or before it started). */
  broker(): Broker | undefined;
}

/** A device or gateway a command goes to. */
export interface Target {
  kind: 'device' | 'gateway';
  id: string;
  code: string;
  tenantId: string;
  projectId: string | null;
}

export interface SendOptions {
  /** Seconds to wait for the answer (0: do not wait). */
  wait: number;
  /** `api`, or `strategy:<id>`. */
  source: string;
  userId?: string;
}

export interface CommandResult {
  pushLogId: string;
  messageId: string;
  code: string;
  command: string;
  state: number;
  stateName: string;
  result?: unknown;
  error?: unknown;
}

interface Reply {
  ok: boolean;
  result?: unknown;
  error?: unknown;
}

const REPLY_TOPIC = /^vigil\/(\d{6})\/(device|gateway)\/([^/]+)\/reply$/;
const COMMAND_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const MAX_REPLY = 64 * 1024;
export const DEFAULT_WAIT_SECONDS = 5;
const MAX_WAIT_SECONDS = 30;

export const commandTopic = (target: Target) => `vigil/${target.tenantId}/${target.kind}/${target.code}/command`;

/** Publishes commands and matches the answers to them. */
export class Commands {
  private readonly waiters = new Map<string, (reply: Reply) => void>();
  private external?: mqtt.MqttClient;
  private started = false;

  constructor(
    private readonly platform: Platform,
    private readonly link: DeviceLink,
  ) {}

  /** Subscribes to the replies: inside the embedded broker, or as a client of the external one. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const broker = this.link.broker();
    const handle = (topic: string, payload: Buffer) => this.onReply(topic, payload).catch((error: unknown) => this.logError(error));
    if (broker) {
      await new Promise<void>((resolve) => broker.aedes.subscribe('vigil/+/+/+/reply', (packet, done) => void handle(packet.topic, packet.payload as Buffer).finally(done), resolve));
    } else if (this.platform.config.mqttUrl) {
      // Not shared: a reply must reach the process whose command waits for it.
      this.external = await mqtt.connectAsync(this.platform.config.mqttUrl, { clientId: `${this.platform.config.mqttClientId}-commands` });
      this.external.on('message', (topic, payload) => void handle(topic, payload));
      await this.external.subscribeAsync('vigil/+/+/+/reply', { qos: 1 });
    }
  }

  async stop(): Promise<void> {
    for (const resolve of this.waiters.values()) resolve({ ok: false, error: 'server closing' });
    this.waiters.clear();
    await this.external?.endAsync();
  }

  /** Publishes one command, records it, and waits up to `wait` seconds for the answer. */
  async send(target: Target, command: string, params: Record<string, unknown>, options: SendOptions): Promise<CommandResult> {
    const messageId = nextId();
    const topic = commandTopic(target);
    const message = JSON.stringify({ id: messageId, command, params, ts: Date.now() });
    const now = formatDateTime();
    const pushLogId = nextId();
    // The scheduler sends without a caller too (strategies.ts): the log row takes the target's tenant, and API callers
    // have resolved the target through the repository (raw-queries.ts, BACKGROUND).
    await this.platform.db
      .insertInto('wit_device_push_log')
      .values({
        id: pushLogId, tenantId: target.tenantId, projectId: target.projectId, deviceId: target.kind === 'device' ? target.id : null,
        gatewayId: target.kind === 'gateway' ? target.id : null, code: target.code, topic, commandName: command, command: message, messageId,
        state: PUSH_STATE.sent, source: options.source, createUser: options.userId ?? null, createTime: now, updateUser: options.userId ?? null, updateTime: now, status: 1, isDeleted: 0,
      })
      .execute();
    this.platform.events.emit('changed', 'wit_device_push_log');
    const answered = options.wait > 0 ? this.answer(messageId, options.wait * 1000) : undefined;
    try {
      await this.publish(topic, message);
    } catch (error) {
      this.waiters.get(messageId)?.({ ok: false });
      const reason = error instanceof Error ? error.message : String(error);
      await this.platform.db.updateTable('wit_device_push_log').set({ state: PUSH_STATE.failed, reply: JSON.stringify({ error: reason }), updateTime: formatDateTime() }).where('id', '=', pushLogId).execute();
      this.platform.events.emit('changed', 'wit_device_push_log');
      throw badRequest(`指令发送失败: ${reason}`);
    }
    const base = { pushLogId, messageId, code: target.code, command };
    const reply = await answered;
    if (reply) return { ...base, ...stateOf(reply), result: reply.result, error: reply.error };
    if (options.wait > 0) {
      await this.platform.db.updateTable('wit_device_push_log').set({ state: PUSH_STATE.timeout, updateTime: formatDateTime() }).where('id', '=', pushLogId).where('state', '=', PUSH_STATE.sent).execute();
      this.platform.events.emit('changed', 'wit_device_push_log');
      return { ...base, state: PUSH_STATE.timeout, stateName: PUSH_STATE_NAMES[PUSH_STATE.timeout] };
    }
    return { ...base, state: PUSH_STATE.sent, stateName: PUSH_STATE_NAMES[PUSH_STATE.sent] };
  }

  /** Resolves with the reply to `messageId`, or undefined after `ms`. */
  private answer(messageId: string, ms: number): Promise<Reply | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(messageId);
        resolve(undefined);
      }, ms);
      timer.unref();
      this.waiters.set(messageId, (reply) => {
        clearTimeout(timer);
        this.waiters.delete(messageId);
        resolve(reply);
      });
    });
  }

  private publish(topic: string, payload: string): Promise<void> {
    const broker = this.link.broker();
    if (broker) {
      return new Promise((resolve, reject) =>
        broker.aedes.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve())),
      );
    }
    if (this.external) return this.external.publishAsync(topic, payload, { qos: 1 }).then(() => undefined);
    return Promise.reject(new Error('设备消息服务未启动'));
  }

  /**
   * A reply counts only on the reply topic of the device or gateway the command went to (the broker lets each
   * identity publish only on its own topics), so one device cannot answer for another.
   */
  private async onReply(topic: string, payload: Buffer): Promise<void> {
    const match = REPLY_TOPIC.exec(topic);
    if (!match) return;
    const [, tenantId, , code] = match;
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(payload.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return;
      body = parsed as Record<string, unknown>;
    } catch {
      return;
    }
    const messageId = body.id === undefined || body.id === null ? '' : String(body.id);
    if (!messageId) return;
    const reply: Reply = { ok: body.ok !== false && body.error === undefined, result: body.result, error: body.error };
    const stored = JSON.stringify(body);
    // The broker's reply, without a caller: the tenant and code come from the topic the identity may publish on.
    const updated = await this.platform.db
      .updateTable('wit_device_push_log')
      .set({ state: stateOf(reply).state, reply: stored.length > MAX_REPLY ? stored.slice(0, MAX_REPLY) : stored, repliedAt: formatDateTime(), updateTime: formatDateTime() })
      .where('messageId', '=', messageId)
      .where('tenantId', '=', tenantId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
    this.platform.events.emit('changed', 'wit_device_push_log');
    this.waiters.get(messageId)?.(reply);
  }

  private logError(error: unknown): void {
    this.platform.logs.write('blade_log_error', { exceptionName: 'commands', message: error instanceof Error ? error.message : String(error), stackTrace: error instanceof Error ? error.stack : undefined });
  }
}

const stateOf = (reply: Reply) => {
  const state = reply.ok ? PUSH_STATE.replied : PUSH_STATE.failed;
  return { state, stateName: PUSH_STATE_NAMES[state] };
};

/** The envelope message of a command result. */
function resultMessage(results: CommandResult[]): string {
  if (results.some((r) => r.state === PUSH_STATE.failed)) return '设备执行失败';
  if (results.every((r) => r.state === PUSH_STATE.replied)) return '设备已回复';
  if (results.some((r) => r.state === PUSH_STATE.timeout)) return '已发送,暂未收到回复';
  return '已发送';
}

/** `wait` in seconds, 0 to 30, default 5. */
export function waitOf(args: Record<string, unknown>): number {
  const value = text(args, 'wait');
  if (value === undefined) return DEFAULT_WAIT_SECONDS;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) throw invalidParam(`等待时间应在 0 到 ${MAX_WAIT_SECONDS} 秒之间`);
  return seconds;
}

export function commandName(value: unknown): string {
  if (typeof value !== 'string' || !COMMAND_NAME.test(value.trim())) throw badRequest('指令名称不正确,应以字母开头,只含字母、数字和 _ . -');
  return value.trim();
}

/** Command parameters: a JSON object, or its text. */
export function paramsArg(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest('指令参数应为 JSON 对象');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('指令参数应为 JSON 对象');
  return parsed as Record<string, unknown>;
}

/** The commands of a sendCommands body: `{command, params}` or `{commands: [{command, params}, …]}` (at most 20). */
function commandsOf(args: Record<string, unknown>): Array<{ command: string; params: Record<string, unknown> }> {
  if (Array.isArray(args.commands)) {
    if (args.commands.length === 0 || args.commands.length > 20) throw badRequest('一次可发送 1 到 20 条指令');
    return args.commands.map((item: unknown, index) => {
      try {
        const entry = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
        return { command: commandName(entry.command), params: paramsArg(entry.params) };
      } catch (error) {
        throw badRequest(`第${index + 1}条指令: ${(error as Error).message}`);
      }
    });
  }
  return [{ command: commandName(args.command), params: paramsArg(args.params) }];
}

const POINT_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** Reading (isGet, or readWriteType 1) or writing (readWriteType 2) a point's value on the device or gateway. */
function pointCommand(args: Record<string, unknown>): { read: boolean; pointKey?: string; value?: unknown } {
  const isGet = text(args, 'isGet');
  const readWriteType = text(args, 'readWriteType');
  if (readWriteType !== undefined && !['1', '2'].includes(readWriteType)) throw badRequest('读写类型应为 1 读取、2 写入');
  const read = isGet !== undefined ? truthy(args, 'isGet') : readWriteType !== '2';
  const pointKey = text(args, 'pointKey') ?? text(args, 'key');
  if (pointKey !== undefined && !POINT_KEY.test(pointKey)) throw badRequest('点位标识不正确');
  if (read) return { read, pointKey };
  if (!pointKey) throw badRequest('请选择要写入的点位');
  const value = args.value;
  if (value === undefined || value === null || value === '' || (typeof value === 'object' && value !== null)) throw badRequest('请输入要写入的值');
  const numeric = typeof value === 'number' ? value : Number(value);
  return { read, pointKey, value: Number.isFinite(numeric) ? numeric : String(value) };
}

export function registerCommands(app: FastifyInstance, platform: Platform, link: DeviceLink): Commands {
  const commands = new Commands(platform, link);
  app.addHook('onReady', () => commands.start());
  app.addHook('onClose', () => commands.stop());

  const deviceTarget = async (ctx: CallContext, args: Record<string, unknown>): Promise<{ row: Row; target: Target }> => {
    const id = idArg(args, 'deviceId');
    if (!id) throw badRequest('请选择设备');
    const row = await platform.repo(device).byId(ctx, id);
    if (!row) throw badRequest('设备不存在或无权操作');
    return { row, target: { kind: 'device', id, code: row.code, tenantId: row.tenantId, projectId: (row.projectId as string | null) ?? null } };
  };
  const gatewayTarget = async (ctx: CallContext, args: Record<string, unknown>, name = 'gatewayId'): Promise<{ row: Row; target: Target }> => {
    const id = idArg(args, name);
    if (!id) throw badRequest('请选择网关');
    const row = await platform.repo(gateway).byId(ctx, id);
    if (!row) throw badRequest('网关不存在或无权操作');
    return { row, target: { kind: 'gateway', id, code: row.code, tenantId: row.tenantId, projectId: (row.projectId as string | null) ?? null } };
  };
  const options = (ctx: CallContext, args: Record<string, unknown>): SendOptions => ({ wait: waitOf(args), source: 'api', userId: ctx.principal.userId });

  /** Sends the commands one after the other; one command answers one result, a list answers a list. */
  const sendAll = async (ctx: CallContext, args: Record<string, unknown>, target: Target) => {
    const list = commandsOf(args);
    const opts = options(ctx, args);
    const results: CommandResult[] = [];
    for (const { command, params } of list) results.push(await commands.send(target, command, params, opts));
    return ok(Array.isArray(args.commands) ? results : results[0], resultMessage(results));
  };

  app.post('/wit-xinde/device/sendCommands', needs('device_list_command'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    return sendAll(ctx, args, (await deviceTarget(ctx, args)).target);
  });

  /** A device function call: `function` (or `funName`, `command`) names it, `params` are its arguments. */
  app.post('/wit-xinde/device/sendFunCommands', needs('device_list_command'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const { target } = await deviceTarget(ctx, args);
    const name = commandName(args.function ?? args.funName ?? args.command);
    const result = await commands.send(target, name, paramsArg(args.params), options(ctx, args));
    return ok(result, resultMessage([result]));
  });

  app.post('/wit-xinde/device/setDevicePoint', needs('device_list_command'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const { row, target } = await deviceTarget(ctx, args);
    const point = pointCommand(args);
    if (point.pointKey) await assertDevicePoint(platform, ctx, row, point.pointKey, !point.read);
    const result = point.read
      ? await commands.send(target, 'getPoint', { points: point.pointKey ? [point.pointKey] : [] }, options(ctx, args))
      : await commands.send(target, 'setPoint', { point: point.pointKey, value: point.value }, options(ctx, args));
    return ok(result, resultMessage([result]));
  });

  app.post('/wit-xinde/gateway/setGatewayPoint', needs('gateway_command'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const { target } = await gatewayTarget(ctx, args);
    const point = pointCommand(args);
    const result = point.read
      ? await commands.send(target, 'getPoint', { points: point.pointKey ? [point.pointKey] : [] }, options(ctx, args))
      : await commands.send(target, 'setPoint', { point: point.pointKey, value: point.value }, options(ctx, args));
    return ok(result, resultMessage([result]));
  });

  app.post('/wit-xinde/gateway/sendCommands', needs('gateway_command'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    return sendAll(ctx, args, (await gatewayTarget(ctx, args)).target);
  });

  /** Downloads a collection strategy to its gateway (command `setStrategy`), for gateways that poll by themselves. */
  app.post('/wit-xinde/gateway/sendStrategy', needs('gateway_command', 'collect_strategy_start'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const id = idArg(args, 'id');
    if (!id) throw badRequest('请选择采集策略');
    const strategy = await platform.repo(collectStrategy).byId(ctx, id);
    if (!strategy) throw badRequest('采集策略不存在或无权操作');
    if (!strategy.gatewayId) throw badRequest('该策略未指定网关');
    const { target } = await gatewayTarget(ctx, { gatewayId: strategy.gatewayId });
    const deviceIds = String(strategy.deviceIds ?? '').split(',').filter(Boolean);
    const found = deviceIds.length ? await platform.repo(device).all(ctx, {}, [within('id', deviceIds)]) : [];
    const codes = new Map(found.map((d) => [d.id, d.code]));
    const params = {
      strategyId: id,
      name: strategy.name,
      intervalSeconds: strategy.intervalSeconds ?? null,
      times: strategy.times ? strategy.times.split(',') : [],
      command: strategy.command ? (JSON.parse(strategy.command) as unknown) : { command: 'collect' },
      enabled: Number(strategy.enabled) === 1,
      devices: deviceIds.filter((d) => codes.has(d)).map((d) => codes.get(d)),
    };
    const result = await commands.send(target, 'setStrategy', params, options(ctx, args));
    return ok(result, resultMessage([result]));
  });

  /** A gateway's connection: stored state, whether the broker holds a connection now, its last transitions, its devices. */
  app.post('/wit-xinde/device/checkGatewayStatus', needs('device_list', 'gateway'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const { row } = await gatewayTarget(ctx, args);
    const broker = link.broker();
    const clients = broker ? (broker.aedes as unknown as { clients: Record<string, unknown> }).clients : undefined;
    const transitions = await (await platform.repo(gatewayState).select(ctx))
      .select(['online', 'reason', 'clientIp', 'stateTime'])
      .where('gatewayId', '=', String(row.id))
      .orderBy('stateTime', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .execute();
    const devices = await platform.repo(device).all(ctx, {}, [(eb) => eb('gatewayId', '=', String(row.id))]);
    return ok({
      gatewayId: row.id,
      code: row.code,
      name: row.name,
      online: Number(row.online ?? 0),
      /** Only known with the embedded broker; null with an external one. */
      connected: clients ? Boolean(clients[String(row.code)]) : null,
      lastSeen: row.lastSeen ?? null,
      transitions: transitions.map((t) => ({ online: t.online, reason: t.reason, clientIp: t.clientIp, stateTime: t.stateTime })),
      devices: devices.map((d) => ({ id: d.id, code: d.code, name: d.name, online: Number(d.online ?? 0), lastSeen: d.lastSeen ?? null })),
    });
  });

  return commands;
}

/** The point must be one of the device's; a write is refused when the device's protocol declares the point read-only. */
async function assertDevicePoint(platform: Platform, ctx: CallContext, row: Row, pointKey: string, write: boolean): Promise<void> {
  const point = await (await platform.repo(devicePoint).select(ctx)).select('id').where('deviceId', '=', String(row.id)).where('pointKey', '=', pointKey).executeTakeFirst();
  if (!point) throw badRequest(`该设备没有点位 ${pointKey}`);
  if (!write || !row.modelId) return;
  // The protocol's read-only declaration binds whoever writes, whatever catalogue rows the caller's data scope shows.
  const declarations = { wholeTenant: true } as const;
  const model = await (await platform.repo(deviceModel).select(ctx, declarations)).select('protocolId').where('id', '=', String(row.modelId)).executeTakeFirst();
  if (!model?.protocolId) return;
  const declared = await (await platform.repo(protocolPoint).select(ctx, declarations))
    .select('readWrite')
    .where('protocolId', '=', model.protocolId)
    .where('pointKey', '=', pointKey)
    .executeTakeFirst();
  if (declared && Number(declared.readWrite) === 1) throw badRequest(`点位 ${pointKey} 只读,不能写入`);
}
