import { sql } from 'kysely';
import { alarm } from '../../../resources/iot/alarm';
import { device } from '../../../resources/iot/device';
import type { LevelCounts } from '../../../resources/wire/statistics';
import type { Platform } from '../../platform';
import { tally } from '../../series/store';
import { dayOfRow, daySums, type FigureScope, levelCounts, monthBounds, monthsOf, projectKeyed, scopeConditions, spanSum } from './statistics-figures';

/**
 * Alarms raised in a range of days, by their first time (docs/statistics.md "Alarms"): per day and level, per project
 * and per device type. Read from the counters the triggers on wit_alarm keep (migration 0016) — or, for a caller whose
 * data scope hides some alarms, from the alarms it sees.
 */
export interface RaisedAlarms {
  perDay: Map<string, LevelCounts>;
  /** Alarms of no project are in the days, not here. */
  perProject: Map<string, number>;
  /** Per device type of the devices the caller sees (alarms of devices without a type are left out). */
  perDeviceType: Map<string, number>;
}

export async function alarmsRaised(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<RaisedAlarms> {
  if (await platform.repo(alarm).dataScoped(scope.ctx)) return alarmsSeen(platform, scope, days);
  const [perDay, perProject, perDeviceType] = await Promise.all([countedPerDay(platform, scope, days), countedPerProject(platform, scope, days), countedPerDeviceType(platform, scope, days)]);
  return { perDay, perProject, perDeviceType };
}

async function countedPerDay(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<Map<string, LevelCounts>> {
  const rows = await platform.db
    .selectFrom('wit_alarm_counts')
    .select(['month', 'alarmLevel', ...daySums()])
    .where(await projectKeyed(platform, scope))
    .where('month', 'in', monthsOf(days))
    .groupBy(['month', 'alarmLevel'])
    .execute();
  const out = new Map(days.map((day) => [day, levelCounts()]));
  for (const row of rows) {
    const level = String(row.alarmLevel) as keyof LevelCounts;
    for (const day of days) {
      const counts = out.get(day) as LevelCounts;
      if (day.startsWith(row.month) && level in counts) counts[level] += dayOfRow(row, day);
    }
  }
  return out;
}

async function countedPerProject(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<Map<string, number>> {
  const [first, last] = monthBounds(days);
  const rows = await platform.db
    .selectFrom('wit_alarm_counts')
    .select(['projectId', spanSum(days).as('count')])
    .where(await projectKeyed(platform, scope))
    .where('projectId', '<>', tally.NO_PROJECT)
    .where('month', '>=', first)
    .where('month', '<=', last)
    .groupBy('projectId')
    .execute();
  return new Map(rows.map((r) => [r.projectId, Number(r.count ?? 0)]));
}

/** The devices the caller sees with their type, as a subquery. */
async function typedDevices(platform: Platform, scope: FigureScope) {
  let qb = (await platform.repo(device).select(scope.ctx)).select(['wit_device.id as id', 'wit_device.deviceTypeId as deviceTypeId']);
  for (const condition of scopeConditions(scope, device.table)) qb = qb.where(condition);
  return qb;
}

/** Summed per device type in the database: a year names nearly every device, the answer a few types. */
async function countedPerDeviceType(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<Map<string, number>> {
  const [first, last] = monthBounds(days);
  const rows = await platform.db
    .selectFrom('wit_device_alarms')
    .innerJoin((await typedDevices(platform, scope)).as('d'), 'd.id', 'wit_device_alarms.deviceId')
    .select(['d.deviceTypeId as deviceTypeId', spanSum(days).as('count')])
    .where('month', '>=', first)
    .where('month', '<=', last)
    .where('d.deviceTypeId', 'is not', null)
    .groupBy('d.deviceTypeId')
    .execute();
  return new Map(rows.map((r) => [String(r.deviceTypeId), Number(r.count ?? 0)]));
}

/** The same figures from the alarms the caller sees, for a caller whose data scope hides some. */
async function alarmsSeen(platform: Platform, scope: FigureScope, days: readonly string[]): Promise<RaisedAlarms> {
  const from = `${days[0]} 00:00:00`;
  const to = `${days[days.length - 1]} 23:59:59`;
  const select = async () => {
    let qb = await platform.repo(alarm).select(scope.ctx);
    for (const condition of scopeConditions(scope, alarm.table)) qb = qb.where(condition);
    return qb.where('wit_alarm.firstTime', '>=', from).where('wit_alarm.firstTime', '<=', to);
  };
  const day = sql<string>`substr(wit_alarm.first_time, 1, 10)`;
  const [perDayRows, perDeviceRows] = await Promise.all([
    (await select()).select([day.as('day'), 'wit_alarm.alarmLevel as level', (eb) => eb.fn.countAll<number>().as('count')]).groupBy([day, 'wit_alarm.alarmLevel']).execute(),
    (await select())
      .select(['wit_alarm.projectId as projectId', 'wit_alarm.deviceId as deviceId', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['wit_alarm.projectId', 'wit_alarm.deviceId'])
      .execute(),
  ]);
  const perDay = new Map(days.map((d) => [d, levelCounts(perDayRows.filter((r) => r.day === d))]));
  const types = new Map((await (await typedDevices(platform, scope)).execute()).map((d) => [d.id, d.deviceTypeId]));
  const perProject = new Map<string, number>();
  const perDeviceType = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const r of perDeviceRows) {
    if (r.projectId) add(perProject, r.projectId, Number(r.count));
    const type = types.get(r.deviceId);
    if (type) add(perDeviceType, type, Number(r.count));
  }
  return { perDay, perProject, perDeviceType };
}
