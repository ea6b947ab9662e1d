import type { FastifyInstance, FastifyRequest } from 'fastify';
import { device, devicePoint } from '../../../resources/iot/device';
import { monitorFactors, monitorFactorsItem } from '../../../resources/iot/monitoring';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { contextOf, paramsOf, text } from '../../http/context';
import { badRequest, missingParam, notFound, ok, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { keysOf } from '../../series/rollups';
import { hourly, type Sampled, sampled } from '../../series/sampling';
import { formatDateTime, parseDateTime } from '../../time';
import { eq, idArg } from './common';
import { needs } from '../../auth/rights';
import { LONG_HISTORY_MS, limited } from '../../http/limits';

/**
 * History charts of the time series (docs/live-and-history.md): ECharts-ready series of wit_device_log, downsampled
 * on the server by server/series/sampling.ts (about `width` buckets of min, max, avg, first and last).
 */

const DAY_MS = 86_400_000;
export const DEFAULT_WIDTH = 1000;
const MIN_WIDTH = 10;
const MAX_WIDTH = 5000;
/** Longest range of one chart call (hourly aggregates included). */
const MAX_RANGE_MS = 3 * 366 * DAY_MS;
const MAX_SERIES = 20;

/** An epoch (ms, or seconds below 10^11) or `yyyy-MM-dd HH:mm:ss` argument. */
export function timeArg(args: Record<string, unknown>, name: string): number | undefined {
  const value = text(args, name);
  if (value === undefined) return undefined;
  if (/^\d{1,16}$/.test(value)) {
    const n = Number(value);
    return n < 1e11 ? n * 1000 : n;
  }
  const date = parseDateTime(value);
  if (!date) throw badRequest(`${name} 格式应为 yyyy-MM-dd HH:mm:ss 或毫秒时间戳`);
  return date.getTime();
}

/** startTime/endTime (default the last 24 hours), checked. */
export function rangeArgs(args: Record<string, unknown>, defaults?: { start?: number; end?: number }): { start: number; end: number } {
  const end = timeArg(args, 'endTime') ?? defaults?.end ?? Date.now();
  const start = timeArg(args, 'startTime') ?? defaults?.start ?? end - DAY_MS;
  if (start >= end) throw badRequest('开始时间应早于结束时间');
  if (end - start > MAX_RANGE_MS) throw badRequest('查询时间范围不能超过3年');
  return { start, end };
}

/** Chart width in pixels = the number of buckets. */
export function widthArg(args: Record<string, unknown>): number {
  const value = text(args, 'width');
  if (value === undefined) return DEFAULT_WIDTH;
  const width = Number(value);
  if (!Number.isFinite(width)) throw paramType('width');
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.round(width)));
}

/** What the chart's selector offers for a device: its points, and keys stored without a point. */
export interface LogKey {
  pointKey: string;
  name: string;
  unit: string | null;
  precision: number | null;
  channel: number | null;
  factorsCode: string | null;
  /** Selector-friendly duplicates. */
  label: string;
  value: string;
}

export async function logKeys(platform: Platform, ctx: CallContext, deviceRow: Row): Promise<LogKey[]> {
  const deviceId = String(deviceRow.id);
  const points = await platform.repo(devicePoint).all(ctx, { ascs: 'sort' }, [eq('deviceId', deviceId)]);
  const itemIds = [...new Set(points.map((p) => p.factorsItemId).filter((v): v is string => typeof v === 'string' && v !== ''))];
  const factors = new Map<string, string>();
  if (itemIds.length) {
    // Each factor item's factor code, both read through the gate (a join would read the factors around it).
    const items = await (await platform.repo(monitorFactorsItem).select(ctx)).select(['id', 'factorsId']).where('id', 'in', itemIds).execute();
    const factorIds = [...new Set(items.map((i) => i.factorsId))];
    const codes = factorIds.length ? await (await platform.repo(monitorFactors).select(ctx)).select(['id', 'code']).where('id', 'in', factorIds).execute() : [];
    const codeOf = new Map(codes.map((f) => [f.id, f.code]));
    for (const item of items) {
      const code = codeOf.get(item.factorsId);
      if (code !== undefined) factors.set(item.id, code);
    }
  }
  const keyOf = (pointKey: string, point?: Row): LogKey => {
    const name = point ? String(point.name) : pointKey;
    const unit = point?.unit ? String(point.unit) : null;
    return {
      pointKey,
      name,
      unit,
      precision: point?.precision === null || point?.precision === undefined ? null : Number(point.precision),
      channel: point?.channel === null || point?.channel === undefined ? null : Number(point.channel),
      factorsCode: point?.factorsItemId ? (factors.get(String(point.factorsItemId)) ?? null) : null,
      label: unit ? `${name} (${unit})` : name,
      value: pointKey,
    };
  };
  const known = new Set(points.map((p) => p.pointKey));
  const extra = (await keysOf(platform.db, deviceId)).filter((k) => !known.has(k));
  return [...points.map((p) => keyOf(p.pointKey, p)), ...extra.map((k) => keyOf(k))];
}

const isSettlement = (key: LogKey) => key.factorsCode === 'settlement' || /settlement|subside/i.test(key.pointKey);

export interface ChartSeries extends Sampled {
  pointKey: string;
  name: string;
  unit: string | null;
  /** Decimal places values are shown with (resources/readings.ts). */
  precision: number | null;
  type: 'line';
  /** The device the series is of (comparisons chart several devices). */
  deviceId: string;
  deviceCode: string;
}

export interface Chart {
  startTime: string;
  endTime: string;
  start: number;
  end: number;
  width: number;
  legend: string[];
  series: ChartSeries[];
}

export interface SeriesRequest {
  deviceRow: Row;
  key: LogKey;
  /** Legend name; default `point name (unit)`. */
  name?: string;
}

/** The ECharts payload of several series over one range. */
export async function chartOf(platform: Platform, requests: readonly SeriesRequest[], range: { start: number; end: number }, width: number | 'hour'): Promise<Chart> {
  const series: ChartSeries[] = [];
  for (const { deviceRow, key, name } of requests) {
    const seriesRange = { deviceId: String(deviceRow.id), pointKey: key.pointKey, ...range };
    const data = width === 'hour' ? await hourly(platform, seriesRange) : await sampled(platform, seriesRange, width);
    series.push({ ...data, pointKey: key.pointKey, name: name ?? key.label, unit: key.unit, precision: key.precision, type: 'line', deviceId: seriesRange.deviceId, deviceCode: String(deviceRow.code) });
  }
  return {
    startTime: formatDateTime(new Date(range.start)),
    endTime: formatDateTime(new Date(range.end)),
    ...range,
    width: width === 'hour' ? 0 : width,
    legend: series.map((s) => s.name),
    series,
  };
}

/** Comma-joined values of `name` (or an array of them). */
export function listArg(args: Record<string, unknown>, name: string): string[] {
  const value = args[name];
  return (Array.isArray(value) ? value.join(',') : String(value ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The chosen keys of a device; unknown keys are a 400, none chosen means all. */
function chooseKeys(keys: readonly LogKey[], wanted: readonly string[]): LogKey[] {
  if (wanted.length === 0) return keys.slice(0, MAX_SERIES);
  if (wanted.length > MAX_SERIES) throw badRequest(`一次最多查询${MAX_SERIES}个点位`);
  return wanted.map((pointKey) => {
    const key = keys.find((k) => k.pointKey === pointKey);
    if (!key) throw badRequest(`设备没有点位: ${pointKey}`);
    return key;
  });
}

/** Whether a chart call reads over a long range (docs/security.md "Rate limits"); a call that will be refused does not. */
function longRange(request: FastifyRequest): boolean {
  try {
    const { start, end } = rangeArgs(paramsOf(request));
    return end - start > LONG_HISTORY_MS;
  } catch {
    return false;
  }
}

/** History charts open from the device list's 历史曲线 button and from 监测数据; long ranges count against a limit. */
const HISTORY = limited('history', needs('device_list_chart', 'device_log'), longRange);

export function registerHistory(app: FastifyInstance, platform: Platform): void {
  const devices = platform.repo(device);

  async function deviceById(ctx: CallContext, args: Record<string, unknown>): Promise<Row> {
    const id = idArg(args, 'deviceId') ?? idArg(args, 'id');
    if (!id) throw missingParam('deviceId');
    const row = await devices.byId(ctx, id);
    if (!row) throw notFound('设备不存在或无权查看');
    return row;
  }

  async function deviceByCode(ctx: CallContext, args: Record<string, unknown>): Promise<Row> {
    const code = text(args, 'code') ?? text(args, 'deviceCode');
    if (!code) throw missingParam('code');
    const [row] = await devices.all(ctx, {}, [eq('code', code)], 1);
    if (!row) throw notFound('设备不存在或无权查看');
    return row;
  }

  const pointKeysOf = (args: Record<string, unknown>) => [...listArg(args, 'pointKey'), ...listArg(args, 'pointKeys')];

  async function chart(request: FastifyRequest, find: typeof deviceById, pick: (keys: LogKey[], args: Record<string, unknown>) => LogKey[], hourlyOnly = false) {
    const ctx = contextOf(request);
    const args = paramsOf(request);
    const row = await find(ctx, args);
    const keys = pick(await logKeys(platform, ctx, row), args);
    const chart = await chartOf(platform, keys.map((key) => ({ deviceRow: row, key })), rangeArgs(args), hourlyOnly ? 'hour' : widthArg(args));
    return ok({ deviceId: String(row.id), code: row.code, name: row.name, ...chart });
  }

  const byKeys = (keys: LogKey[], args: Record<string, unknown>) => chooseKeys(keys, pointKeysOf(args));

  /** deviceId, pointKey (comma-joined; default all), startTime, endTime, width. */
  app.get('/wit-xinde/devicelog/getHistoryEchartsData', HISTORY, (request) => chart(request, deviceById, byKeys));

  /** deviceId, cd (channel numbers of the device's points, comma-joined; default all channels), startTime, endTime, width. */
  app.get('/wit-xinde/devicelog/getHistoryEchartsDataByCd', HISTORY, (request) =>
    chart(request, deviceById, (keys, args) => {
      const channels = [...listArg(args, 'cd'), ...listArg(args, 'channel')];
      if (channels.some((c) => !/^\d+$/.test(c))) throw paramType('cd');
      const withChannel = keys.filter((k) => k.channel !== null);
      if (channels.length === 0) return withChannel.slice(0, MAX_SERIES);
      return chooseKeys(withChannel, channels.map((c) => {
        const key = withChannel.find((k) => k.channel === Number(c));
        if (!key) throw badRequest(`设备没有通道: ${c}`);
        return key.pointKey;
      }));
    }),
  );

  /** code (device code), pointKey, startTime, endTime, width. */
  app.get('/wit-xinde/devicelog/getHistoryEchartsByCode', HISTORY, (request) => chart(request, deviceByCode, byKeys));

  /** deviceId or code, pointKey, startTime, endTime: hourly min/max/avg/first/last. */
  app.get('/wit-xinde/devicelog/getHistoryEchartsDataByHour', HISTORY, (request) =>
    chart(request, (ctx, args) => (text(args, 'code') && !text(args, 'deviceId') ? deviceByCode(ctx, args) : deviceById(ctx, args)), byKeys, true),
  );

  /** deviceId; subside=1 keeps only settlement points (factor `settlement`, or a settlement key). */
  app.get('/wit-xinde/devicelog/getDeviceLogDict', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    const args = paramsOf(request);
    const keys = await logKeys(platform, ctx, await deviceById(ctx, args));
    const subside = text(args, 'subside');
    return ok(subside === '1' || subside === 'true' ? keys.filter(isSettlement) : keys);
  });
}
