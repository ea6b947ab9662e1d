import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { deviceType } from '../../../resources/iot/catalogue';
import { device, devicePoint } from '../../../resources/iot/device';
import { monitorPoint, monitorType, pointRelationDevice } from '../../../resources/iot/monitoring';
import { project } from '../../../resources/iot/project';
import type { BoardData, DayCount, NamedCount, SilentDevice } from '../../../resources/wire/statistics';
import { needs } from '../../auth/rights';
import { withReferenceNames } from '../../db/references';
import { contextOf, text } from '../../http/context';
import { badRequest, ok, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { argsOf, idArg, namedRows, WHOLE_TENANT } from './common';
import { rangeOf } from './devicelog/shared';
import { alarmsRaised } from './statistics-alarms';
import { assertVisibleProject, daysBetween, type FigureScope, figureScope, levelCounts, onlineSamples, pointsPerDay, pointsPerDevice, scopeConditions, visibleDevices } from './statistics-figures';
import { limited } from '../../http/limits';

const DAY_MS = 86_400_000;
/** The range when none is given: the last 30 days, today included. */
const DEFAULT_DAYS = 30;
/** The longest range: a year (366 days, so a year from a date to the same date in a leap year fits). */
const MAX_RANGE_MS = 366 * DAY_MS;
/** How many monitor points and devices the top lists show. */
const TOP = 10;

/**
 * The data board: `countAvue/avueStatis (projectId?, startTime?, endTime?, tenantId?)` (docs/statistics.md). The right
 * is the menu of the monitoring screen (数据大屏 › 监测大屏, `screen`).
 */
export function registerBoard(app: FastifyInstance, platform: Platform): void {
  app.get('/wit-xinde/countAvue/avueStatis', limited('report', needs('screen')), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const tenantId = text(args, 'tenantId');
    if (tenantId !== undefined && !/^\d{6}$/.test(tenantId)) throw paramType('tenantId');
    const scope = figureScope(ctx, idArg(args, 'projectId'), tenantId);
    await assertVisibleProject(platform, scope);
    return ok(await boardData(platform, scope, boardRange(args)));
  });
}

/** The range asked for: by default the last 30 days (from midnight 29 days ago to now); at most a year. */
export function boardRange(args: Record<string, unknown>, now = Date.now()): { from: number; to: number } {
  const asked = rangeOf({ startTime: args.startTime, endTime: args.endTime });
  const to = asked.to ?? now;
  const end = new Date(to);
  const from = asked.from ?? new Date(end.getFullYear(), end.getMonth(), end.getDate() - (DEFAULT_DAYS - 1)).getTime();
  if (from > to) throw badRequest('开始时间不能晚于结束时间');
  if (to - from > MAX_RANGE_MS) throw badRequest('统计时间范围不能超过一年');
  return { from, to };
}

async function boardData(platform: Platform, scope: FigureScope, range: { from: number; to: number }): Promise<BoardData> {
  const days = daysBetween(range.from, range.to);
  const [online, raised, points, activePoints, silentDevices] = await Promise.all([
    onlineSamples(platform, scope, range.from, range.to),
    alarmsRaised(platform, scope, days),
    pointsPerDay(platform, scope, days),
    mostActivePoints(platform, scope, days),
    silent(platform, scope),
  ]);
  return {
    startTime: formatDateTime(new Date(range.from)),
    endTime: formatDateTime(new Date(range.to)),
    online,
    alarmsPerDay: days.map((day) => ({ day, levels: raised.perDay.get(day) ?? levelCounts() })),
    alarmsByProject: ranked(raised.perProject, await projectNames(platform, scope, [...raised.perProject.keys()])),
    alarmsByMonitorType: await byMonitorType(platform, scope, raised.perDeviceType),
    pointsPerDay: days.map((day): DayCount => ({ day, count: points.get(day) ?? 0 })),
    activePoints,
    silentDevices,
  };
}

/** Named counts, largest first (then by name), without the empty ones. */
function ranked(counts: ReadonlyMap<string, number>, names: ReadonlyMap<string, string>, limit?: number): NamedCount[] {
  const out = [...counts]
    .filter(([id, count]) => count > 0 && names.has(id))
    .map(([id, count]) => ({ id, name: names.get(id) as string, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return limit === undefined ? out : out.slice(0, limit);
}

/** Adds `n` under `key`. */
const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** The names of projects by id. */
async function projectNames(platform: Platform, scope: FigureScope, ids: string[]): Promise<Map<string, string>> {
  const rows = await namedRows(platform, scope.ctx, project, ids, ['name']);
  return new Map([...rows].map(([id, r]) => [id, String(r.name)]));
}

/** Counts per device type summed per monitor type of the type; types of no monitor type are left out. */
async function byMonitorType(platform: Platform, scope: FigureScope, byDeviceType: ReadonlyMap<string, number>): Promise<NamedCount[]> {
  const types = await namedRows(platform, scope.ctx, deviceType, [...byDeviceType.keys()], ['monitorTypeId']);
  const monitorTypes = await namedRows(platform, scope.ctx, monitorType, [...types.values()].map((t) => String(t.monitorTypeId ?? '')).filter(Boolean), ['name']);
  const counts = new Map<string, number>();
  for (const [typeId, n] of byDeviceType) {
    const monitorTypeId = types.get(typeId)?.monitorTypeId;
    if (monitorTypeId) add(counts, String(monitorTypeId), n);
  }
  return ranked(counts, new Map([...monitorTypes].map(([id, r]) => [id, String(r.name)])));
}

/**
 * The monitor points with the most data points in the range. A point bound to a whole device gets the device's
 * points; one bound to a channel gets the device's points shared evenly among its channels (a device sends all its
 * channels in each reading): the counters are kept per device (docs/statistics.md).
 */
async function mostActivePoints(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<NamedCount[]> {
  // The bindings the caller sees: of monitor points of its projects (the repository follows them to their project);
  // of those its data scope on monitor points leaves it, and of the project asked for, when that narrows them.
  let bound = await platform.repo(pointRelationDevice).select(scope.ctx);
  if (scope.projectId !== undefined || scope.tenantId !== undefined || (await platform.repo(monitorPoint).dataScoped(scope.ctx))) {
    let points = (await platform.repo(monitorPoint).select(scope.ctx)).select('wit_monitor_point.id');
    for (const condition of scopeConditions(scope, monitorPoint.table)) points = points.where(condition);
    bound = bound.where('wit_point_relation_device.monitorPointId', 'in', points);
  }
  const bindings = await bound
    .select(['wit_point_relation_device.monitorPointId as monitorPointId', 'wit_point_relation_device.deviceId as deviceId', 'wit_point_relation_device.pointKey as pointKey'])
    .execute();
  if (bindings.length === 0) return [];
  // Only devices the caller sees count (its data scope may hide some that its monitor points name). Their points are
  // read for every device the caller sees: cheaper than naming the bound ones, nearly all of them.
  const devices = await visibleDevices(platform, scope);
  const [perDevice, channels] = await Promise.all([pointsPerDevice(platform, days, devices), channelCounts(platform, scope)]);
  const counts = new Map<string, number>();
  for (const b of bindings) {
    const n = perDevice.get(b.deviceId) ?? 0;
    add(counts, b.monitorPointId, b.pointKey ? n / Math.max(1, channels.get(b.deviceId) ?? 1) : n);
  }
  for (const [id, n] of counts) counts.set(id, Math.round(n));
  // Names of the leaders only: every point with at least the tenth largest count (ties at the tenth go by name).
  const threshold = [...counts.values()].sort((a, b) => b - a)[TOP - 1] ?? 0;
  const leaders = [...counts].filter(([, n]) => n > 0 && n >= threshold).map(([id]) => id);
  const names = await namedRows(platform, scope.ctx, monitorPoint, leaders, ['name']);
  return ranked(new Map(leaders.map((id) => [id, counts.get(id) as number])), new Map([...names].map(([id, r]) => [id, String(r.name)])), TOP);
}

/**
 * How many channels (device points) each device of the scope's tenants has: the points of the tenant's live devices,
 * whatever the caller's scope — only the devices the caller sees are looked up in it.
 */
async function channelCounts(platform: Platform, scope: FigureScope): Promise<Map<string, number>> {
  let qb = await platform.repo(devicePoint).select(scope.ctx, WHOLE_TENANT);
  if (scope.tenantId !== undefined) qb = qb.where('wit_device_point.tenantId', '=', scope.tenantId);
  const rows = await qb.select(['wit_device_point.deviceId as deviceId', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('wit_device_point.deviceId').execute();
  return new Map(rows.map((r) => [r.deviceId, Number(r.count)]));
}

/** The devices silent for longest: offline ones, never heard of first, then by when they were last heard of. */
async function silent(platform: Platform, scope: FigureScope): Promise<SilentDevice[]> {
  let qb = await platform.repo(device).select(scope.ctx);
  for (const condition of scopeConditions(scope, device.table)) qb = qb.where(condition);
  const rows = await qb
    .selectAll()
    .where('wit_device.online', '<>', 1)
    .orderBy(sql`case when wit_device.last_seen is null then 0 else 1 end`)
    .orderBy('wit_device.lastSeen')
    .orderBy('wit_device.id')
    .limit(TOP)
    .execute();
  const named = await withReferenceNames(platform, device, rows, ['projectId']);
  return named.map((r) => ({
    id: String(r.id),
    code: String(r.code),
    name: String(r.name),
    projectId: r.projectId ? String(r.projectId) : null,
    projectName: r.projectName ? String(r.projectName) : null,
    lastSeen: r.lastSeen ? String(r.lastSeen) : null,
  }));
}
