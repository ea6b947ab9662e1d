import { sql } from 'kysely';
import { ALARM_LEVELS } from '../../../resources/iot/alarm';
import type { LevelCounts, OnlineSample } from '../../../resources/wire/statistics';
import { device } from '../../../resources/iot/device';
import { project } from '../../../resources/iot/project';
import { isPlatformAdmin } from '../../auth/principal';
import { assignedProjects } from '../../db/project-scope';
import type { CallContext } from '../../db/repository';
import type { DayColumn } from '../../db/tables';
import type { Condition } from '../../http/conditions';
import { badRequest } from '../../http/envelope';
import type { Platform } from '../../platform';
import { tally } from '../../series/store';
import { formatDateTime } from '../../time';
import { countOf } from './common';

/**
 * What the statistics calls share (docs/statistics.md): whose figures they are, and the reads of the point counters
 * and the online samples, which are no declared resource and are reached through the projects and devices the caller
 * sees in the scoped repository.
 */

/** Whose figures a call gives. */
export interface FigureScope {
  ctx: CallContext;
  /** The tenant: the caller's own; for the platform administrator the one asked for, or undefined (every tenant). */
  tenantId: string | undefined;
  /** Only this project (one the caller sees). */
  projectId: string | undefined;
}

const DAYS = tally.DAYS;
const DAY_MS = 86_400_000;

/** The tenant and project conditions of the scope on a declared resource's scoped select (`table.column`). */
export function scopeConditions(scope: FigureScope, table: string, projectColumn = 'projectId'): Condition[] {
  const out: Condition[] = [];
  if (scope.tenantId !== undefined) out.push((eb) => eb(`${table}.tenantId`, '=', scope.tenantId));
  if (scope.projectId !== undefined) out.push((eb) => eb(`${table}.${projectColumn}`, '=', scope.projectId));
  return out;
}

/** The projects of the scope the caller sees (live, assigned, of the tenant), as a subquery of their ids. */
async function visibleProjects(platform: Platform, scope: FigureScope) {
  let qb = (await platform.repo(project).select(scope.ctx)).select('wit_project.id');
  for (const condition of scopeConditions(scope, 'wit_project', 'id')) qb = qb.where(condition);
  return qb;
}

/** The devices of the scope the caller sees (tenant, projects, data scope), as a subquery of their ids. */
export async function visibleDevices(platform: Platform, scope: FigureScope) {
  let qb = (await platform.repo(device).select(scope.ctx)).select('wit_device.id');
  for (const condition of scopeConditions(scope, 'wit_device')) qb = qb.where(condition);
  return qb;
}

/**
 * Rows of a table kept per tenant and project (counters, samples) that the scope covers: those of the projects the
 * caller sees and, for a caller limited to no projects and asking for none, those of no project (`'0'`).
 */
async function projectKeyed(platform: Platform, scope: FigureScope): Promise<Condition> {
  const projects = await visibleProjects(platform, scope);
  const noProject = scope.projectId === undefined && assignedProjects(scope.ctx.principal) === undefined;
  const { tenantId } = scope;
  return (eb) => {
    const which = noProject ? eb.or([eb('projectId', 'in', projects), eb('projectId', '=', tally.NO_PROJECT)]) : eb('projectId', 'in', projects);
    return tenantId === undefined ? which : eb.and([eb('tenantId', '=', tenantId), which]);
  };
}

/** The months (yyyy-MM) of days (yyyy-MM-dd), in order. */
const monthsOf = (days: readonly string[]) => [...new Set(days.map((d) => d.slice(0, 7)))];

/**
 * Points stored per local day (docs/statistics.md "Counters"), for the given days. Counted per project, or — for a
 * caller whose data scope hides some devices — per device the caller sees.
 */
export async function pointsPerDay(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<Map<string, number>> {
  const months = monthsOf(days);
  const sums = DAYS.map((d) => sql<number>`sum(${sql.ref(d)})`.as(d));
  let rows: Array<{ month: string } & Record<DayColumn, number>>;
  if (await platform.repo(device).dataScoped(scope.ctx)) {
    const devices = await visibleDevices(platform, scope);
    rows = await platform.db.selectFrom('wit_device_points').select(['month', ...sums]).where('deviceId', 'in', devices).where('month', 'in', months).groupBy('month').execute();
  } else {
    const covered = await projectKeyed(platform, scope);
    rows = await platform.db.selectFrom('wit_project_points').select(['month', ...sums]).where(covered).where('month', 'in', months).groupBy('month').execute();
  }
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  return new Map(days.map((day) => [day, Number(byMonth.get(day.slice(0, 7))?.[`d${Number(day.slice(8, 10))}` as DayColumn] ?? 0)]));
}

/** The sum of the day columns of a month row from day `first` to day `last` (1…31). */
const daySpan = (first: number, last: number) => sql.raw(DAYS.slice(first - 1, last).join(' + '));

/** Points stored per device of `deviceIds` (ones the caller sees) over the days `days` (consecutive, in order). */
export async function pointsPerDevice(platform: Platform, days: readonly string[], deviceIds: readonly string[]): Promise<Map<string, number>> {
  if (deviceIds.length === 0 || days.length === 0) return new Map();
  const [first, last] = [days[0], days[days.length - 1]];
  const [firstMonth, lastMonth] = [first.slice(0, 7), last.slice(0, 7)];
  const [a, b] = [Number(first.slice(8, 10)), Number(last.slice(8, 10))];
  // Months between the first and the last count whole (their total); the first and the last from and to their day.
  const share =
    firstMonth === lastMonth
      ? sql<number>`sum(${daySpan(a, b)})`
      : sql<number>`sum(case when month = ${firstMonth} then ${daySpan(a, 31)} when month = ${lastMonth} then ${daySpan(1, b)} else total end)`;
  const out = new Map<string, number>();
  for (let i = 0; i < deviceIds.length; i += 500) {
    const rows = await platform.db
      .selectFrom('wit_device_points')
      .select(['deviceId', share.as('points')])
      .where('deviceId', 'in', deviceIds.slice(i, i + 500) as string[])
      .where('month', '>=', firstMonth)
      .where('month', '<=', lastMonth)
      .groupBy('deviceId')
      .execute();
    for (const r of rows) out.set(r.deviceId, Number(r.points ?? 0));
  }
  return out;
}

/** The local days (yyyy-MM-dd) from `from` to `to`, both included. */
export function daysBetween(from: number, to: number): string[] {
  const out: string[] = [];
  const start = new Date(from);
  for (let d = new Date(start.getFullYear(), start.getMonth(), start.getDate()); d.getTime() <= to; d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1)) {
    out.push(formatDateTime(d).slice(0, 10));
  }
  return out;
}

/** Grains of the online samples (server/ingest/presence-sampler.ts) and the time between two of them. */
const GRAINS = [
  { grain: 0, ms: 10 * 60_000 },
  { grain: 1, ms: 3_600_000 },
  { grain: 2, ms: 6 * 3_600_000 },
  { grain: 3, ms: DAY_MS },
];
/** A chart shows at most this many samples: a year shows every sixth hour's, a month every hour's. */
export const MAX_SAMPLES = 1500;

/** The finest grain whose samples over the range stay within MAX_SAMPLES. */
export function grainFor(from: number, to: number): number {
  return (GRAINS.find((g) => (to - from) / g.ms <= MAX_SAMPLES) ?? GRAINS[GRAINS.length - 1]).grain;
}

/** The online rate over the range: the samples of the scope, summed per instant, at the grain the range calls for. */
export async function onlineSamples(platform: Platform, scope: FigureScope, from: number, to: number): Promise<OnlineSample[]> {
  const grain = grainFor(from, to);
  const covered = await projectKeyed(platform, scope);
  const rows = await platform.db
    .selectFrom('wit_presence_sample')
    .select(['at', (eb) => eb.fn.sum<number>('devices').as('devices'), (eb) => eb.fn.sum<number>('online').as('online')])
    .where('grain', 'in', GRAINS.filter((g) => g.grain >= grain).map((g) => g.grain))
    .where('at', '>=', from)
    .where('at', '<=', to)
    .where(covered)
    .groupBy('at')
    .orderBy('at')
    .execute();
  return rows.map((r) => {
    const [devices, online] = [Number(r.devices), Number(r.online)];
    return { at: formatDateTime(new Date(Number(r.at))), devices, online, rate: devices ? online / devices : 0 };
  });
}

/** A project named by a statistics call must be one the caller sees. */
export async function assertVisibleProject(platform: Platform, scope: FigureScope): Promise<void> {
  if (scope.projectId === undefined) return;
  if ((await countOf(platform.repo(project), scope.ctx, scopeConditions(scope, project.table, 'id'))) === 0) throw badRequest('项目不存在或无权操作');
}

/** Counts by level '1'…'4', zero where there are none. */
export function levelCounts(rows: ReadonlyArray<{ level: unknown; count: unknown }> = []): LevelCounts {
  const out = Object.fromEntries(ALARM_LEVELS.map((l) => [String(l), 0])) as LevelCounts;
  for (const r of rows) {
    const key = String(r.level) as keyof LevelCounts;
    if (key in out) out[key] += Number(r.count);
  }
  return out;
}

/** The scope of a call: the caller's tenant, or for the platform administrator the tenant asked for (or all). */
export function figureScope(ctx: CallContext, projectId: string | undefined, askedTenant?: string): FigureScope {
  const tenantId = isPlatformAdmin(ctx.principal) ? askedTenant : ctx.principal.tenantId;
  return { ctx, tenantId, projectId };
}
