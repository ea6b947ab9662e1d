import { parseDateTime } from '../time';

/**
 * The data payloads of docs/ingest.md, parsed into readings. A device sends its own readings; a gateway sends
 * readings of the devices behind it, each naming its device code.
 */
export interface Reading {
  /** Device code; undefined on a device's own topic (the topic names the device). */
  device?: string;
  ts: number;
  values: Record<string, number>;
}

export interface Parsed {
  readings: Reading[];
  /** Problems that did not stop the message (a value that is not a number, a bad timestamp); empty when clean. */
  warnings: string[];
}

/**
 * Why data was refused, as vigil_ingest_refused_total counts it (docs/operations.md "Observability"): a message that
 * is no valid payload, a value that is no number or under no valid key, a device or gateway unknown (or not the
 * gateway's), one disabled or in the recycle bin, an engineering value that came out not finite.
 */
export type RefusalReason = 'malformed' | 'invalid_value' | 'unknown_device' | 'unknown_gateway' | 'disabled' | 'not_finite';

/** A message refused whole, with why. */
export class PayloadError extends Error {
  constructor(
    message: string,
    readonly reason: RefusalReason = 'malformed',
  ) {
    super(message);
  }
}

const MAX_READINGS = 10_000;
const KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** Keys seen valid: a fleet repeats a few hundred keys in every message. */
const validKeys = new Set<string>();

function validKey(key: string): boolean {
  if (validKeys.has(key)) return true;
  if (!KEY.test(key)) return false;
  if (validKeys.size < 10_000) validKeys.add(key);
  return true;
}

/** Epoch milliseconds, epoch seconds, ISO 8601 or `yyyy-MM-dd HH:mm:ss`; undefined means "now". */
function timeOf(value: unknown, now: number): number {
  if (value === undefined || value === null) return now;
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === 'string') {
    const local = parseDateTime(value);
    if (local) return local.getTime();
    const iso = Date.parse(value);
    if (!Number.isNaN(iso)) return iso;
  }
  throw new PayloadError(`无法识别的时间: ${JSON.stringify(value)}`);
}

function valuesOf(raw: unknown, warnings: string[]): Record<string, number> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new PayloadError('values 应为对象');
  const out: Record<string, number> = {};
  const record = raw as Record<string, unknown>;
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'number' && Number.isFinite(value) && validKey(key)) {
      out[key] = value;
      continue;
    }
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (!validKey(key)) warnings.push(`点位标识不合法: ${key}`);
    else if (typeof n !== 'number' || !Number.isFinite(n)) warnings.push(`${key} 的值不是数字: ${JSON.stringify(value)}`);
    else out[key] = n;
  }
  return out;
}

function readingOf(item: unknown, now: number, warnings: string[], withDevice: boolean): Reading {
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw new PayloadError('每条读数应为对象');
  const record = item as Record<string, unknown>;
  const reading: Reading = { ts: timeOf(record.ts ?? record.time, now), values: valuesOf(record.values, warnings) };
  if (withDevice) {
    const device = record.device ?? record.code;
    if (typeof device !== 'string' || device === '') throw new PayloadError('网关读数缺少设备编号 device');
    reading.device = device;
  }
  return reading;
}

function decode(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new PayloadError('不是合法的 JSON');
  }
}

function limited(readings: Reading[]): Reading[] {
  if (readings.length > MAX_READINGS) throw new PayloadError(`一条消息最多 ${MAX_READINGS} 条读数`);
  return readings;
}

/** A device's payload: `{ts?, values}` or a list of them (buffered readings). */
export function parseDevicePayload(payload: string, now = Date.now()): Parsed {
  const body = decode(payload);
  const warnings: string[] = [];
  const items = Array.isArray(body) ? body : [body];
  return { readings: limited(items.map((item) => readingOf(item, now, warnings, false))), warnings };
}

/**
 * A gateway's payload: `{ts?, devices: {<code>: {<key>: value}}}` (one time for all), or a list of
 * `{device, ts?, values}`.
 */
export function parseGatewayPayload(payload: string, now = Date.now()): Parsed {
  const body = decode(payload);
  const warnings: string[] = [];
  if (Array.isArray(body)) return { readings: limited(body.map((item) => readingOf(item, now, warnings, true))), warnings };
  if (!body || typeof body !== 'object') throw new PayloadError('网关数据应为对象或数组');
  const record = body as Record<string, unknown>;
  if (!record.devices || typeof record.devices !== 'object' || Array.isArray(record.devices)) throw new PayloadError('网关数据缺少 devices 对象');
  const ts = timeOf(record.ts ?? record.time, now);
  const readings = Object.entries(record.devices as Record<string, unknown>).map(([device, values]) => ({ device, ts, values: valuesOf(values, warnings) }));
  return { readings: limited(readings), warnings };
}
