import type { FastifyInstance, FastifyRequest } from 'fastify';
import { device, devicePoint, gatewayState } from '../../../resources/iot/device';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, paramsOf, text } from '../../http/context';
import { badRequest, missingParam, notFound, ok, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import type { DebugKind } from '../../../resources/wire/debug';
import { type DebugTarget, readMessages, resolveTarget, websocketInfo } from '../../realtime/debug';
import { formatDateTime, parseDateTime } from '../../time';
import { eq } from './common';
import { parseObject } from './devicelog/shared';
import { timeArg } from './history';
import { needs } from '../../auth/rights';

/** Messages shown with a device's or gateway's state. */
const RECENT_MESSAGES = 20;
const MAX_PAGE = 500;

/**
 * Live debugging over HTTP (docs/live-and-history.md): the state of a device or gateway with its latest values and
 * recent raw messages, pages of raw messages, where the socket stream is, and a gateway's online history.
 */
export function registerDebug(app: FastifyInstance, platform: Platform): void {
  async function targetOf(request: FastifyRequest, kind: DebugKind): Promise<{ ctx: CallContext; target: DebugTarget; args: Record<string, unknown> }> {
    const ctx = contextOf(request);
    const args = paramsOf(request);
    const name = kind === 'device' ? 'deviceId' : 'gatewayId';
    const id = text(args, name) ?? text(args, 'id');
    if (id === undefined) throw missingParam(name);
    if (!/^\d{1,20}$/.test(id)) throw paramType(name);
    const target = await resolveTarget(platform, ctx, kind, id);
    if (!target) throw notFound(kind === 'device' ? '设备不存在或无权查看' : '网关不存在或无权查看');
    return { ctx, target, args };
  }

  /** The latest stored value of each channel: one primary-key seek per key. */
  async function latestValues(deviceId: string, keys: readonly string[]): Promise<Map<string, { ts: number; value: number; raw: number }>> {
    const out = new Map<string, { ts: number; value: number; raw: number }>();
    for (const pointKey of keys) {
      const row = await platform.db
        .selectFrom('wit_device_log')
        .select(['ts', 'value', 'raw'])
        .where('deviceId', '=', deviceId)
        .where('pointKey', '=', pointKey)
        .orderBy('ts', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row) out.set(pointKey, { ts: row.ts, value: row.value, raw: row.raw });
    }
    return out;
  }

  /** A device's state: its points (named, with units) and their latest values, also keys that arrive without a point. */
  async function deviceState(ctx: CallContext, row: Row) {
    const deviceId = String(row.id);
    const points = await platform.repo(devicePoint).all(ctx, {}, [eq('deviceId', deviceId)]);
    const lastValues = parseObject(row.lastValues);
    const keys = [...new Set([...points.map((p) => p.pointKey), ...Object.keys(lastValues)])];
    const latest = await latestValues(deviceId, keys);
    return {
      id: deviceId,
      code: row.code,
      name: row.name,
      projectId: row.projectId ?? null,
      gatewayId: row.gatewayId ?? null,
      online: Number(row.online ?? 0) === 1,
      lastSeen: row.lastSeen ?? null,
      points: keys.map((pointKey) => {
        const point = points.find((p) => p.pointKey === pointKey);
        const value = latest.get(pointKey);
        return {
          pointKey,
          name: point?.name ?? pointKey,
          unit: point?.unit ?? null,
          precision: point?.precision ?? null,
          value: value?.value ?? null,
          raw: value?.raw ?? null,
          ts: value?.ts ?? null,
          time: value ? formatDateTime(new Date(value.ts)) : null,
        };
      }),
    };
  }

  /** `since` (oldest first, for catching up) or `before` (newest first, paging back); `limit` 1..500, default 50. */
  async function messagePage(target: DebugTarget, args: Record<string, unknown>) {
    const limit = intArg(args, 'limit') ?? intArg(args, 'size') ?? 50;
    if (limit < 1 || limit > MAX_PAGE) throw badRequest(`limit 应在 1 到 ${MAX_PAGE} 之间`);
    const since = timeArg(args, 'since');
    const before = timeArg(args, 'before');
    const records = await readMessages(platform, target, { since, before, limit: limit + 1 });
    return { records: records.slice(0, limit), hasMore: records.length > limit, limit };
  }

  const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  app.get('/wit-xinde/device/getDeviceDebug', needs('device_list_debug'), async (request) => {
    const { ctx, target } = await targetOf(request, 'device');
    const serverTime = Date.now();
    return ok({
      serverTime,
      device: await deviceState(ctx, target.row),
      messages: await readMessages(platform, target, { limit: RECENT_MESSAGES }),
      websocket: websocketInfo(originOf(request)),
    });
  });

  app.get('/wit-xinde/device/getDeviceDebugMsg', needs('device_list_debug'), async (request) => {
    const { target, args } = await targetOf(request, 'device');
    return ok(await messagePage(target, args));
  });

  app.get('/wit-xinde/gateway/getGatewayDebug', needs('gateway_debug'), async (request) => {
    const { ctx, target } = await targetOf(request, 'gateway');
    const serverTime = Date.now();
    const devices = target.devices.length
      ? await platform.repo(device).all(ctx, { ascs: 'code' }, [(eb) => eb('id', 'in', target.devices.map((d) => d.id))])
      : [];
    return ok({
      serverTime,
      gateway: { id: target.id, code: target.code, name: target.name, projectId: target.row.projectId ?? null, online: Number(target.row.online ?? 0) === 1, lastSeen: target.row.lastSeen ?? null },
      devices: await Promise.all(devices.map((d) => deviceState(ctx, d))),
      messages: await readMessages(platform, target, { limit: RECENT_MESSAGES }),
      websocket: websocketInfo(originOf(request)),
    });
  });

  app.get('/wit-xinde/gateway/getGatewayDebugMsg', needs('gateway_debug'), async (request) => {
    const { target, args } = await targetOf(request, 'gateway');
    return ok(await messagePage(target, args));
  });

  app.get('/wit-xinde/gateway/getWebsocketUrl', needs('gateway_debug', 'device_list_debug'), async (request) => {
    contextOf(request);
    return ok(websocketInfo(originOf(request)));
  });

  /**
   * The gateway's online history over a range (default the last 7 days): its transitions from wit_gateway_state,
   * the state it was in when the range began, and how long it was online within the range.
   */
  app.get('/wit-xinde/gateway/getChangeGatewayMonitor', needs('gateway_debug'), async (request) => {
    const { ctx, target, args } = await targetOf(request, 'gateway');
    const end = timeArg(args, 'endTime') ?? Date.now();
    const start = timeArg(args, 'startTime') ?? end - 7 * 86_400_000;
    if (start >= end) throw badRequest('开始时间应早于结束时间');
    const [startText, endText] = [formatDateTime(new Date(start)), formatDateTime(new Date(end))];
    const repo = platform.repo(gatewayState);
    const byGateway = eq('gatewayId', target.id);
    const changes = await repo.all(ctx, { ascs: 'state_time' }, [byGateway, (eb) => eb('stateTime', '>=', startText), (eb) => eb('stateTime', '<=', endText)], 10_000);
    const [before] = await repo.all(ctx, { descs: 'state_time' }, [byGateway, (eb) => eb('stateTime', '<', startText)], 1);
    const initial = before ? before.online === 1 : false;
    let online = initial;
    let since = start;
    let onlineMs = 0;
    for (const change of changes) {
      const at = parseDateTime(change.stateTime)?.getTime() ?? start;
      if (online) onlineMs += Math.max(0, at - since);
      online = change.online === 1;
      since = at;
    }
    if (online) onlineMs += Math.max(0, Math.min(end, Date.now()) - since);
    return ok({
      gatewayId: target.id,
      code: target.code,
      name: target.name,
      online: Number(target.row.online ?? 0) === 1,
      lastSeen: target.row.lastSeen ?? null,
      startTime: startText,
      endTime: endText,
      initialOnline: initial,
      changes: changes.map((c) => ({ online: c.online, reason: c.reason, clientIp: c.clientIp ?? null, stateTime: c.stateTime })),
      onlineMs,
      onlineRatio: Math.round((onlineMs / (end - start)) * 10_000) / 10_000,
    });
  });

}

function intArg(args: Record<string, unknown>, name: string): number | undefined {
  const value = text(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw paramType(name);
  return Number(value);
}
