import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ALARM_STATE, alarm } from '../../../resources/iot/alarm';
import { device, gateway } from '../../../resources/iot/device';
import { project } from '../../../resources/iot/project';
import { MENU_CATEGORY } from '../../../resources/system/menu';
import type { AlarmLine, IndexData, PresenceCounts, QuickEntry } from '../../../resources/wire/statistics';
import { menuRight, needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import { withReferenceNames } from '../../db/references';
import type { CallContext } from '../../db/repository';
import { contextOf } from '../../http/context';
import { ok } from '../../http/envelope';
import type { Branch } from '../../http/trees';
import { forest } from '../../http/trees';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { unreadNoticeCount } from '../blade-desk';
import type { MenuRow } from '../blade-system/access/grants';
import { routeMenus } from '../blade-system/access/menu';
import { argsOf, countOf, idArg } from './common';
import { registerBoard } from './statistics-board';
import { assertVisibleProject, type FigureScope, levelCounts, pointsPerDay, scopeConditions } from './statistics-figures';

/** How many alarm changes the home lists. */
const LATEST_ALARMS = 10;

/**
 * The home's statistics (docs/statistics.md): `index/getIndexData` and `index/getMeunAuth`; the data board's
 * `countAvue/avueStatis` is in statistics-board.ts. The home is of the caller's own tenant, also for the platform
 * administrator, as the notice centre is.
 */
export function registerStatistics(app: FastifyInstance, platform: Platform): void {
  app.get('/wit-xinde/index/getIndexData', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(await indexData(platform, ctx, idArg(argsOf(request), 'projectId')));
  });
  app.get('/wit-xinde/index/getMeunAuth', needs.self, async (request) => ok(await quickEntries(platform, contextOf(request))));
  registerBoard(app, platform);
}

async function indexData(platform: Platform, ctx: CallContext, projectId: string | undefined): Promise<IndexData> {
  const scope: FigureScope = { ctx, tenantId: ctx.principal.tenantId, projectId };
  await assertVisibleProject(platform, scope);
  const today = formatDateTime().slice(0, 10);
  const [projects, devices, gateways, points, alarms, latestAlarms, unreadNotices] = await Promise.all([
    countOf(platform.repo(project), ctx, scopeConditions(scope, project.table, 'id')),
    presenceOf(platform, scope, device),
    presenceOf(platform, scope, gateway),
    pointsPerDay(platform, scope, [today]),
    openAlarms(platform, scope),
    latestAlarmLines(platform, scope),
    unreadNoticeCount(platform, ctx),
  ]);
  return { projects, devices, gateways, pointsToday: points.get(today) ?? 0, ...alarms, latestAlarms, unreadNotices, at: formatDateTime() };
}

/** Devices or gateways of the scope by presence: online, offline, and never heard of (no lastSeen; offline too). */
async function presenceOf(platform: Platform, scope: FigureScope, resource: typeof device | typeof gateway): Promise<PresenceCounts> {
  let qb = await platform.repo(resource).select(scope.ctx);
  for (const condition of scopeConditions(scope, resource.table)) qb = qb.where(condition);
  const online = sql.ref(`${resource.table}.online`);
  const lastSeen = sql.ref(`${resource.table}.lastSeen`);
  const row = await qb
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`sum(case when ${online} = 1 then 1 else 0 end)`.as('online'),
      sql<number>`sum(case when ${lastSeen} is null then 1 else 0 end)`.as('never'),
    ])
    .executeTakeFirst();
  const total = Number(row?.total ?? 0);
  const on = Number(row?.online ?? 0);
  return { total, online: on, offline: total - on, never: Number(row?.never ?? 0) };
}

/** Open alarms by level, and how many of them nobody handled yet. */
async function openAlarms(platform: Platform, scope: FigureScope): Promise<Pick<IndexData, 'openAlarms' | 'unhandledAlarms'>> {
  let qb = await platform.repo(alarm).select(scope.ctx);
  for (const condition of scopeConditions(scope, alarm.table)) qb = qb.where(condition);
  const rows = await qb
    .select(['wit_alarm.alarmLevel as level', 'wit_alarm.handleState as handleState', (eb) => eb.fn.countAll<number>().as('count')])
    .where('wit_alarm.alarmState', '=', ALARM_STATE.open)
    .groupBy(['wit_alarm.alarmLevel', 'wit_alarm.handleState'])
    .execute();
  return {
    openAlarms: levelCounts(rows),
    unhandledAlarms: rows.filter((r) => Number(r.handleState) === 0).reduce((n, r) => n + Number(r.count), 0),
  };
}

/**
 * The latest alarm changes (raised, moved, cleared, handled), newest first. Only for those who may open the alarm
 * list: the counts are everybody's, the alarms themselves are the alarm list's (as the notice centre's bell).
 */
async function latestAlarmLines(platform: Platform, scope: FigureScope): Promise<AlarmLine[]> {
  if (!(await platform.rights.allows(scope.ctx.principal, menuRight('alarm_list')))) return [];
  let qb = await platform.repo(alarm).select(scope.ctx);
  for (const condition of scopeConditions(scope, alarm.table)) qb = qb.where(condition);
  const rows = await qb.selectAll().orderBy('wit_alarm.updateTime', 'desc').orderBy('wit_alarm.id', 'desc').limit(LATEST_ALARMS).execute();
  return (await withReferenceNames(platform, alarm, rows as Row[])).map(alarmLine);
}

/** An alarm row (with its declared names) as the home lists it. */
export function alarmLine(r: Row): AlarmLine {
  const number = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r.id),
    projectId: textOrNull(r.projectId),
    projectName: textOrNull(r.projectName),
    deviceId: String(r.deviceId),
    deviceName: textOrNull(r.deviceName),
    pointKey: textOrNull(r.pointKey),
    alarmLevel: Number(r.alarmLevel),
    alarmState: Number(r.alarmState),
    handleState: Number(r.handleState),
    title: textOrNull(r.title),
    value: number(r.value),
    unit: textOrNull(r.unit),
    levelTime: textOrNull(r.levelTime),
  };
}

/** The leaf menus (screens) the caller may open, in the order of the menu tree: the home's quick entries. */
async function quickEntries(platform: Platform, ctx: CallContext): Promise<QuickEntry[]> {
  const { menus, rows } = await routeMenus(platform, ctx);
  // A leaf of the whole tree: a menu whose own menus the caller does not hold is a folder still, not a screen.
  const folders = new Set(menus.rows.filter((m) => m.category === MENU_CATEGORY.menu).map((m) => m.parentId));
  const out: QuickEntry[] = [];
  const walk = (nodes: ReadonlyArray<Branch<MenuRow>>) => {
    for (const node of nodes) {
      if (!folders.has(node.id) && node.path) out.push({ code: node.code, name: node.name, path: node.path, source: node.source ?? null });
      if (node.children) walk(node.children);
    }
  };
  walk(forest(rows));
  return out;
}
