import type { Kysely, Transaction } from 'kysely';
import { device } from '../../../../resources/iot/device';
import type { Row, Schema } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import { text } from '../../../http/context';
import { badRequest, paramType } from '../../../http/envelope';
import type { Platform } from '../../../platform';
import { formatDateTime, parseDateTime } from '../../../time';
import { eq, idArg } from '../common';
import { slices } from '../../../db/slices';

/**
 * What the calls on stored values share (docs/data-model.md "Device data"): a value's id `<deviceId>.<pointKey>.<ts>`,
 * the parsing of their arguments, and the devices they go through. The series has no tenant or project of its own to
 * trust: every call goes through the device, read with the device repository (tenant and project scope).
 */

export const MAX_IDS = 1000;
export const POINT_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export type Db = Kysely<Schema>;
export type Trx = Transaction<Schema>;

/** A value of the series as the API shows it. */
export interface LogKey {
  deviceId: string;
  pointKey: string;
  ts: number;
}

export const logId = (k: LogKey) => `${k.deviceId}.${k.pointKey}.${k.ts}`;

/** `<deviceId>.<pointKey>.<ts>`: the key may itself contain dots, the id and the time may not. */
export function parseLogId(id: string): LogKey {
  const match = /^(\d{1,20})\.(.+)\.(\d{1,15})$/.exec(id.trim());
  if (!match || !POINT_KEY.test(match[2])) throw badRequest(`数据编号不正确: ${id}`);
  return { deviceId: match[1], pointKey: match[2], ts: Number(match[3]) };
}

/** Epoch ms from a number (ms, or s below 10^11) or `yyyy-MM-dd HH:mm:ss`. */
export function instant(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const raw = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const n = Number(raw);
    return Math.round(n < 1e11 ? n * 1000 : n);
  }
  const date = parseDateTime(raw);
  if (!date) throw paramType(name);
  return date.getTime();
}

/** startTime/endTime (dates) or ts_ge/ts_le (epoch ms). A date without a time ends at the end of that day. */
export function rangeOf(args: Record<string, unknown>): { from?: number; to?: number } {
  const from = instant(args.ts_ge ?? args.startTime ?? args.startTs, 'startTime');
  let to = instant(args.ts_le ?? args.endTime ?? args.endTs, 'endTime');
  const endText = text(args, 'endTime');
  if (to !== undefined && args.ts_le === undefined && endText && /^\d{4}-\d{2}-\d{2}$/.test(endText)) to += 86_399_999;
  if (from !== undefined && to !== undefined && from > to) throw badRequest('开始时间不能晚于结束时间');
  return { from, to };
}

/** A number from a number or numeric text; else a 400 with `message`. */
export function finite(value: unknown, message: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw badRequest(message);
  return n;
}

/** How a point's values are shown (resources/readings.ts), by `deviceId|pointKey`. */
export type PointDisplay = ReadonlyMap<string, { unit: unknown; precision: unknown }>;

/** A stored value as the API shows it, with its device's code, name and project, and its point's unit and precision. */
export function present(row: Row, devices: Map<string, Row>, points: PointDisplay = new Map()): Row {
  const deviceId = String(row.deviceId);
  const ts = Number(row.ts);
  const d = devices.get(deviceId);
  const point = points.get(`${deviceId}|${String(row.pointKey)}`);
  return {
    id: logId({ deviceId, pointKey: String(row.pointKey), ts }),
    deviceId,
    deviceCode: d?.code ?? null,
    deviceName: d?.name ?? null,
    projectId: d?.projectId ?? null,
    tenantId: row.tenantId,
    pointKey: row.pointKey,
    ts,
    time: formatDateTime(new Date(ts)),
    value: Number(row.value),
    raw: Number(row.raw),
    unit: point?.unit ?? null,
    precision: point?.precision ?? null,
  };
}

/** A JSON object from text; anything else is {} (or, `strict`, a 400). */
export function parseObject(value: unknown, strict = false): Record<string, unknown> {
  if (typeof value !== 'string' || value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // below
  }
  if (strict) throw badRequest('初始值应为 JSON 对象');
  return {};
}

/** The device access every call on stored values goes through. */
export class DeviceData {
  constructor(protected readonly platform: Platform) {}

  protected get db(): Db {
    return this.platform.db;
  }

  /** A device the caller sees (tenant and project scope), by `deviceId` or `deviceCode`. */
  async device(ctx: CallContext, args: Record<string, unknown>, name = 'deviceId'): Promise<Row> {
    const id = idArg(args, name);
    const code = name === 'deviceId' ? text(args, 'deviceCode') : undefined;
    if (!id && !code) throw badRequest('请选择设备');
    const [row] = await this.platform.repo(device).all(ctx, {}, [id ? eq('id', id) : eq('code', code)], 1);
    if (!row) throw badRequest('设备不存在或无权操作');
    return row;
  }

  /** Visible devices by id, for the ids of a list of values. */
  protected async devicesById(ctx: CallContext, ids: string[]): Promise<Map<string, Row>> {
    const out = new Map<string, Row>();
    for (const slice of slices([...new Set(ids)])) {
      const rows = await this.platform.repo(device).all(ctx, {}, [(eb) => eb('id', 'in', slice)]);
      for (const row of rows) out.set(row.id, row);
    }
    return out;
  }

  protected stored(db: Db | Trx, k: LogKey): Promise<Row | undefined> {
    return db.selectFrom('wit_device_log').selectAll().where('deviceId', '=', k.deviceId).where('pointKey', '=', k.pointKey).where('ts', '=', k.ts).executeTakeFirst();
  }
}
