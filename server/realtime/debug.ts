import { menuRight } from '../auth/rights';
import type { Server, Socket } from 'socket.io';
import { device, gateway } from '../../resources/iot/device';
import { DEBUG_EVENTS, type DebugKind, type DebugMessage, type DebugPresence, type PresenceChange, type SubscribeAnswer, type SubscribeRequest } from '../../resources/wire/debug';
import type { Row } from '../db/database';
import type { CallContext } from '../db/repository';
import { parseDevicePayload, parseGatewayPayload, type Reading } from '../ingest/payload';
import type { DeviceMessage } from '../ingest/types';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import { isDisplaySocket } from './screen';
import { affects } from '../events';
import type { WatchedRooms } from './rooms';

/**
 * The live debug stream (docs/live-and-history.md): a console subscribes to a device or a gateway over socket.io,
 * gets every data message of it as the pipeline handled it, and presence changes. After a reconnect the console
 * re-subscribes with the last `receivedAt` it saw and the server replays what it missed from wit_collect_data.
 */

/** At most this many messages are replayed on one subscription; `truncated` tells the console. */
export const MAX_REPLAY = 1000;
const MAX_SUBSCRIPTIONS = 20;

/** What a console may watch, resolved through the scoped repositories (tenant and project scope). */
export interface DebugTarget {
  kind: DebugKind;
  id: string;
  code: string;
  name: string;
  tenantId: string;
  row: Row;
  /** A device's gateway. */
  gatewayId: string | null;
  /** A gateway's devices (id and code). */
  devices: Array<{ id: string; code: string }>;
}

export const debugRoom = (kind: DebugKind, id: string) => `debug:${kind}:${id}`;

export async function resolveTarget(platform: Platform, ctx: CallContext, kind: DebugKind, id: string): Promise<DebugTarget | undefined> {
  if (!/^\d{1,20}$/.test(id)) return undefined;
  const row = await platform.repo(kind === 'device' ? device : gateway).byId(ctx, id);
  if (!row) return undefined;
  const devices =
    kind === 'gateway'
      ? (await platform.db.selectFrom('wit_device').select(['id', 'code']).where('gatewayId', '=', id).where('isDeleted', '=', 0).execute()).map((d) => ({ id: d.id, code: d.code }))
      : [];
  return {
    kind,
    id,
    code: row.code,
    name: row.name,
    tenantId: row.tenantId,
    row,
    gatewayId: kind === 'device' && 'gatewayId' in row && row.gatewayId && row.gatewayId !== '0' ? row.gatewayId : null,
    devices,
  };
}

export interface MessageQuery {
  /** Messages received at or after this time (epoch ms), oldest first. */
  since?: number;
  /** Messages received before this time, newest first (paging back). */
  before?: number;
  limit: number;
}

/**
 * Stored messages of a target from wit_collect_data, with the values the pipeline computed for them read back from
 * wit_device_log. A device behind a gateway is found in its gateway's messages (a LIKE on its code narrows the rows,
 * parsing the payload decides).
 */
export async function readMessages(platform: Platform, target: DebugTarget, query: MessageQuery): Promise<DebugMessage[]> {
  const { db } = platform;
  let select = db
    .selectFrom('wit_collect_data')
    .select(['id', 'deviceId', 'gatewayId', 'topic', 'payload', 'receivedAt', 'error'])
    .where('tenantId', '=', target.tenantId)
    .where((eb) => {
      if (target.kind === 'gateway') {
        const ids = target.devices.map((d) => d.id);
        return ids.length ? eb.or([eb('gatewayId', '=', target.id), eb('deviceId', 'in', ids)]) : eb('gatewayId', '=', target.id);
      }
      const own = eb('deviceId', '=', target.id);
      return target.gatewayId ? eb.or([own, eb.and([eb('gatewayId', '=', target.gatewayId), eb('payload', 'like', `%"${target.code}"%`)])]) : own;
    });
  if (query.since !== undefined) select = select.where('receivedAt', '>=', query.since).orderBy('receivedAt', 'asc').orderBy('id', 'asc');
  else select = select.where('receivedAt', '<', query.before ?? Number.MAX_SAFE_INTEGER).orderBy('receivedAt', 'desc').orderBy('id', 'desc');
  // A gateway's message may turn out not to name the device after parsing: read a little more than asked.
  const rows = await select.limit(target.kind === 'device' && target.gatewayId ? query.limit * 2 : query.limit).execute();
  const messages: DebugMessage[] = [];
  for (const row of rows) {
    const message = await rebuild(platform, target, row);
    if (message) messages.push(message);
    if (messages.length >= query.limit) break;
  }
  return messages;
}

/** A stored message as the live stream showed it: readings parsed again, engineering values from the series. */
async function rebuild(platform: Platform, target: DebugTarget, row: Row): Promise<DebugMessage | undefined> {
  const receivedAt = Number(row.receivedAt);
  const payload = String(row.payload);
  const onGateway = row.gatewayId !== null && row.gatewayId !== undefined;
  const codes = new Map<string, string>(target.kind === 'device' ? [[target.code, target.id]] : target.devices.map((d) => [d.code, d.id]));
  let parsed: Reading[] = [];
  try {
    parsed = (onGateway ? parseGatewayPayload(payload, receivedAt) : parseDevicePayload(payload, receivedAt)).readings;
  } catch {
    // malformed: shown with its stored error and no readings
  }
  const ownDeviceId = row.deviceId ? String(row.deviceId) : undefined;
  const candidates = parsed
    .map((r) => ({ reading: r, deviceId: onGateway ? codes.get(r.device ?? '') : ownDeviceId }))
    .filter((c): c is { reading: Reading; deviceId: string } => c.deviceId !== undefined && (target.kind === 'gateway' || c.deviceId === target.id));
  if (target.kind === 'device' && onGateway && candidates.length === 0) return undefined;
  const readings: DeviceMessage['readings'] = [];
  for (const { reading, deviceId } of candidates) {
    const keys = Object.keys(reading.values);
    // Primary-key seeks: (device, each key, ts).
    const stored = keys.length
      ? await platform.db.selectFrom('wit_device_log').select(['pointKey', 'value', 'raw']).where('deviceId', '=', deviceId).where('pointKey', 'in', keys).where('ts', '=', reading.ts).execute()
      : [];
    const values: Record<string, { raw: number; value: number }> = {};
    for (const s of stored) values[s.pointKey] = { raw: s.raw, value: s.value };
    const code = onGateway ? (reading.device ?? '') : target.kind === 'device' ? target.code : (target.devices.find((d) => d.id === deviceId)?.code ?? '');
    readings.push({ deviceId, code, ts: reading.ts, values });
  }
  return {
    id: String(row.id),
    kind: target.kind,
    targetId: target.id,
    code: codeOfTopic(String(row.topic)),
    topic: String(row.topic),
    payload,
    receivedAt,
    receivedTime: formatDateTime(new Date(receivedAt)),
    readings,
    error: row.error === null || row.error === undefined ? null : String(row.error),
  };
}

const codeOfTopic = (topic: string) => /^vigil\/\d+\/(?:device|gateway)\/([^/]+)\//.exec(topic)?.[1] ?? '';

function toDebug(target: { kind: DebugKind; id: string }, message: DeviceMessage, readings: DeviceMessage['readings']): DebugMessage {
  return {
    id: message.id,
    kind: target.kind,
    targetId: target.id,
    code: message.code,
    topic: message.topic,
    payload: message.payload,
    receivedAt: message.receivedAt,
    receivedTime: formatDateTime(new Date(message.receivedAt)),
    readings,
    error: message.error,
  };
}

/** A subscribe request as it arrives: unchecked. */
type UncheckedRequest = { [K in keyof SubscribeRequest]?: unknown };

const targetOf = (request: UncheckedRequest): { kind: DebugKind; id: string } | undefined => {
  if (request.deviceId !== undefined && request.deviceId !== null && request.deviceId !== '') return { kind: 'device', id: String(request.deviceId) };
  if (request.gatewayId !== undefined && request.gatewayId !== null && request.gatewayId !== '') return { kind: 'gateway', id: String(request.gatewayId) };
  return undefined;
};

/**
 * Wires the debug events into the socket.io server: subscriptions per socket, the pipeline's `message` and
 * `presence` events pushed to the rooms of the devices and gateways they concern. Returns the detach function.
 */
/** The button that opens each kind's debug console. */
const DEBUG_RIGHTS = { device: 'device_list_debug', gateway: 'gateway_debug' } as const;

export function attachDebug(io: Server, platform: Platform, principalOf: (socket: Socket) => CallContext['principal'], rooms: WatchedRooms): () => void {
  /** Device -> its gateway, for pushing a device's own messages to the gateway's watchers too. */
  const gatewayOfDevice = new Map<string, string | null>();
  const forgetDevices = (table: string) => {
    if (affects(table, ['wit_device'])) gatewayOfDevice.clear();
  };

  // Nobody watches most devices: skip building and encoding their events (under load that was 7% of the server's
  // time; with the Redis adapter each would also be a Redis publish). A watcher may sit on another process.
  const watched = (room: string) => rooms.has(room);
  const hasRooms = (prefix: string) => rooms.hasPrefix(prefix);
  const push = (kind: DebugKind, id: string, event: string, payload: () => unknown) => {
    const room = debugRoom(kind, id);
    if (watched(room)) io.to(room).emit(event, payload());
  };

  async function gatewayOf(deviceId: string): Promise<string | null> {
    if (!gatewayOfDevice.has(deviceId)) {
      const row = await platform.db.selectFrom('wit_device').select('gatewayId').where('id', '=', deviceId).executeTakeFirst();
      const gatewayId = row?.gatewayId && row.gatewayId !== '0' ? row.gatewayId : null;
      gatewayOfDevice.set(deviceId, gatewayId);
    }
    return gatewayOfDevice.get(deviceId) ?? null;
  }

  const onMessage = (message: DeviceMessage) => {
    void (async () => {
      const deviceIds = new Set(message.readings.map((r) => r.deviceId));
      if (message.deviceId) deviceIds.add(message.deviceId);
      for (const deviceId of deviceIds) {
        push('device', deviceId, DEBUG_EVENTS.message, () => toDebug({ kind: 'device', id: deviceId }, message, message.readings.filter((r) => r.deviceId === deviceId)));
      }
      const gatewayId = message.gatewayId ?? (message.deviceId && hasRooms('debug:gateway:') ? await gatewayOf(message.deviceId) : null);
      if (gatewayId) push('gateway', gatewayId, DEBUG_EVENTS.message, () => toDebug({ kind: 'gateway', id: gatewayId }, message, message.readings));
    })().catch((error: unknown) => platform.logs.error('realtime', error, 'live debug message'));
  };

  const onPresence = (change: PresenceChange) => {
    void (async () => {
      const presence = (kind: DebugKind, targetId: string): DebugPresence => ({ kind, targetId, change });
      push(change.kind, change.id, DEBUG_EVENTS.presence, () => presence(change.kind, change.id));
      if (change.kind === 'device' && hasRooms('debug:gateway:')) {
        const gatewayId = await gatewayOf(change.id);
        if (gatewayId) push('gateway', gatewayId, DEBUG_EVENTS.presence, () => presence('gateway', gatewayId));
      }
    })().catch((error: unknown) => platform.logs.error('realtime', error, 'live debug presence'));
  };

  platform.events.on('message', onMessage);
  platform.events.on('presence', onPresence);
  platform.events.on('changed', forgetDevices);

  io.on('connection', (socket) => {
    // A wall screen's socket has no user: it gets no debug stream (server/realtime/screen.ts).
    if (isDisplaySocket(socket)) return;
    const ctx: CallContext = { principal: principalOf(socket) };

    socket.on(DEBUG_EVENTS.subscribe, async (request: UncheckedRequest, ack?: (answer: SubscribeAnswer) => void) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      try {
        const wanted = targetOf(request ?? {});
        if (!wanted) return reply({ ok: false, msg: '缺少必要的请求参数: deviceId 或 gatewayId' });
        const subscribed = [...socket.rooms].filter((r) => r.startsWith('debug:'));
        if (subscribed.length >= MAX_SUBSCRIPTIONS && !socket.rooms.has(debugRoom(wanted.kind, wanted.id))) return reply({ ok: false, msg: `同时调试的设备不能超过${MAX_SUBSCRIPTIONS}个` });
        // The same right as the debug calls over HTTP (docs/authorisation.md), with the roles the user holds now.
        const caller = await platform.rights.current(ctx.principal);
        if (!caller || !(await platform.rights.allows(caller, menuRight(DEBUG_RIGHTS[wanted.kind])))) return reply({ ok: false, msg: '无权调试' });
        const target = await resolveTarget(platform, { principal: caller }, wanted.kind, wanted.id);
        if (!target) return reply({ ok: false, msg: wanted.kind === 'device' ? '设备不存在或无权查看' : '网关不存在或无权查看' });
        // Join first, then read: a message committed meanwhile arrives twice at worst (the console drops repeats by id).
        await socket.join(debugRoom(target.kind, target.id));
        rooms.joined([debugRoom(target.kind, target.id)]);
        const since = Number(request.since);
        let replayed = 0;
        let truncated = false;
        if (request.since !== undefined && request.since !== null && Number.isFinite(since)) {
          const missed = await readMessages(platform, target, { since, limit: MAX_REPLAY + 1 });
          truncated = missed.length > MAX_REPLAY;
          for (const message of truncated ? missed.slice(-MAX_REPLAY) : missed) socket.emit(DEBUG_EVENTS.message, message);
          replayed = Math.min(missed.length, MAX_REPLAY);
        }
        reply({ ok: true, kind: target.kind, targetId: target.id, code: target.code, name: target.name, online: Number(target.row.online) === 1, replayed, truncated });
      } catch {
        reply({ ok: false, msg: '订阅失败,请稍后重试' });
      }
    });

    socket.on(DEBUG_EVENTS.unsubscribe, async (request: UncheckedRequest, ack?: (answer: SubscribeAnswer) => void) => {
      const wanted = targetOf(request ?? {});
      if (wanted) await socket.leave(debugRoom(wanted.kind, wanted.id));
      if (typeof ack === 'function') ack({ ok: true });
    });
  });

  return () => {
    platform.events.off('message', onMessage);
    platform.events.off('presence', onPresence);
    platform.events.off('changed', forgetDevices);
  };
}

/** How a console connects to the debug stream: same origin as the API, socket.io's default path, main namespace. */
export function websocketInfo(origin: string) {
  return {
    url: origin,
    path: '/socket.io',
    namespace: '/',
    transports: ['websocket', 'polling'],
    auth: '连接时在 auth.token 中携带访问令牌 (access_token)',
    events: DEBUG_EVENTS,
    maxReplay: MAX_REPLAY,
  };
}
