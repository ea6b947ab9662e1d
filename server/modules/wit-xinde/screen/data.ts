import { createHash } from 'node:crypto';
import { ALARM_STATE } from '../../../../resources/iot/alarm';
import { alarm } from '../../../../resources/iot/alarm';
import { device, devicePoint } from '../../../../resources/iot/device';
import { monitorFactorsItem, monitorPoint, pointRelationDevice } from '../../../../resources/iot/monitoring';
import { project } from '../../../../resources/iot/project';
import type { PresenceCounts } from '../../../../resources/wire/statistics';
import type { ScreenChannel, ScreenData, ScreenPoint, ScreenProject } from '../../../../resources/wire/screen';
import type { DisplayLink } from '../../../auth/display';
import type { Db } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import type { Platform } from '../../../platform';
import { within } from '../common';
import { ALARM_COLUMNS, type AlarmColumns, alarmLineOf, levelCounts } from './lines';

/**
 * What a wall screen paints (`GET screen/data`, docs/wall-screen.md), read through the scoped repositories with the
 * display link's context: its tenant's live rows of its projects only. A project removed, binned or moved away since
 * the link was made is simply not there.
 */

/** Channels the trend panel charts when the link names none for a project. */
export const DEFAULT_TRENDS = 4;
/** Most open alarms the screen lists (worst first). */
export const MAX_SCREEN_ALARMS = 100;

export const IMAGE_PATH = '/api/wit-xinde/screen/image';

interface DeviceRow {
  id: string;
  name: string;
  projectId: string | null;
  online: number | null;
  lastSeen: string | null;
}

interface PointRow {
  deviceId: string;
  pointKey: string;
  name: string;
  unit: string | null;
  precision: number | null;
  factorsItemId: string | null;
}

interface Latest {
  value: number | null;
  previous: number | null;
  ts: number | null;
}

/** The screen call that streams a project's image, versioned by the image so a changed one is not taken from a cache. */
export function imageUrl(projectId: string, link: string | null): string | null {
  if (!link) return null;
  const version = createHash('sha256').update(link).digest('hex').slice(0, 12);
  return `${IMAGE_PATH}?projectId=${projectId}&v=${version}`;
}

/** The newest value of a channel and the one before it. The series is read by device ids the repository gave. */
async function latestTwo(db: Db, deviceId: string, pointKey: string): Promise<Latest> {
  const rows = await db
    .selectFrom('wit_device_log')
    .select(['ts', 'value'])
    .where('deviceId', '=', deviceId)
    .where('pointKey', '=', pointKey)
    .orderBy('ts', 'desc')
    .limit(2)
    .execute();
  return { value: rows[0] ? Number(rows[0].value) : null, previous: rows[1] ? Number(rows[1].value) : null, ts: rows[0] ? Number(rows[0].ts) : null };
}

/**
 * Data points stored since `since` (epoch ms) for the devices: counted in the series, one range per device on its
 * primary key. The statistics' per-device-per-day counters (another branch, migration 0016) are to take its place.
 */
export async function pointsTodayOf(db: Db, deviceIds: readonly string[], since: number): Promise<number> {
  let total = 0;
  for (let i = 0; i < deviceIds.length; i += 500) {
    const row = await db
      .selectFrom('wit_device_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deviceId', 'in', deviceIds.slice(i, i + 500) as string[])
      .where('ts', '>=', since)
      .executeTakeFirst();
    total += Number(row?.n ?? 0);
  }
  return total;
}

/** The server's local midnight of today, epoch ms. */
export function startOfToday(now = new Date()): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
}

/** Devices by presence; `never` were never heard of and count as offline too. */
export function presenceOf(devices: readonly DeviceRow[]): PresenceCounts {
  const online = devices.filter((d) => Number(d.online) === 1).length;
  return { total: devices.length, online, offline: devices.length - online, never: devices.filter((d) => !d.lastSeen).length };
}

/** Everything the screen of `link` paints, now. */
export async function screenData(platform: Platform, ctx: CallContext, link: DisplayLink): Promise<ScreenData> {
  const reader = new ScreenReader(platform, ctx);
  const projects = await reader.projects(link.projectIds);
  const ids = projects.map((p) => p.id);
  const [devices, monitorPoints, openAlarms] = await Promise.all([reader.devices(ids), reader.monitorPoints(ids), reader.openAlarms(ids)]);
  const [points, bindings] = await Promise.all([reader.points(devices.map((d) => d.id)), reader.bindings(monitorPoints.map((m) => m.id))]);
  const latest = await reader.latest(points);
  const since = startOfToday();
  const projectNames = new Map(projects.map((p) => [p.id, p.name]));
  const deviceNames = new Map(devices.map((d) => [d.id, d.name]));
  const levels = new Map<string, number>();
  for (const row of openAlarms) {
    const key = `${row.deviceId}|${row.pointKey ?? ''}`;
    levels.set(key, Math.min(levels.get(key) ?? 99, Number(row.alarmLevel)));
  }
  const channelOf = (d: DeviceRow, p: PointRow): ScreenChannel => {
    const values = latest.get(`${d.id}|${p.pointKey}`) ?? { value: null, previous: null, ts: null };
    // A channel's own alarm, or one raised on the whole device (a manual alarm without a point).
    const level = Math.min(levels.get(`${d.id}|${p.pointKey}`) ?? 99, levels.get(`${d.id}|`) ?? 99);
    return { deviceId: d.id, deviceName: d.name, pointKey: p.pointKey, name: p.name, unit: p.unit, precision: p.precision, ...values, level: level === 99 ? null : level };
  };
  const pointsOf = new Map<string, PointRow[]>();
  for (const p of points) pointsOf.set(p.deviceId, [...(pointsOf.get(p.deviceId) ?? []), p]);
  const deviceById = new Map(devices.map((d) => [d.id, d]));

  const out: ScreenProject[] = [];
  for (const p of projects) {
    const own = devices.filter((d) => d.projectId === p.id);
    const placed = monitorPoints.filter((m) => m.projectId === p.id);
    const screenPoints: ScreenPoint[] = placed.length
      ? placed.map((m) => {
          const bound = bindings.filter((b) => b.monitorPointId === m.id);
          const boundDevices = [...new Set(bound.map((b) => b.deviceId))].flatMap((id) => deviceById.get(id) ?? []);
          const channels = bound.flatMap((b) => {
            const d = deviceById.get(b.deviceId);
            if (!d) return [];
            const channelsOfDevice = pointsOf.get(d.id) ?? [];
            return (b.pointKey ? channelsOfDevice.filter((c) => c.pointKey === b.pointKey) : channelsOfDevice).map((c) => channelOf(d, c));
          });
          // Online when every device bound to it is: a point half heard is a point to look at.
          const online = boundDevices.length > 0 && boundDevices.every((d) => Number(d.online) === 1);
          return { id: m.id, name: m.name, x: m.screenX, y: m.screenY, online, channels };
        })
      : own.map((d) => ({ id: d.id, name: d.name, x: null, y: null, online: Number(d.online) === 1, channels: (pointsOf.get(d.id) ?? []).map((c) => channelOf(d, c)) }));
    const channels = new Set(screenPoints.flatMap((sp) => sp.channels.map((c) => `${c.deviceId}:${c.pointKey}`)));
    const chosen = (link.trends[p.id] ?? []).filter((c) => channels.has(c));
    out.push({
      id: p.id,
      name: p.name,
      image: imageUrl(p.id, p.screenImage),
      points: screenPoints,
      devices: presenceOf(own),
      pointsToday: await pointsTodayOf(platform.db, own.map((d) => d.id), since),
      openAlarms: levelCounts(openAlarms.filter((a) => a.projectId === p.id).map((a) => Number(a.alarmLevel))),
      trends: chosen.length ? chosen : [...channels].slice(0, DEFAULT_TRENDS),
    });
  }
  return {
    link: { id: link.id, name: link.name, layout: link.layout, rotateSeconds: link.rotateSeconds, expiresAt: link.expiresAt },
    projects: out,
    alarms: openAlarms.slice(0, MAX_SCREEN_ALARMS).map((row) => alarmLineOf(row, projectNames, deviceNames)),
    at: Date.now(),
  };
}

/** The screen's reads, each through the scoped repository of its resource with the display link's context. */
class ScreenReader {
  constructor(
    private readonly platform: Platform,
    private readonly ctx: CallContext,
  ) {}

  /** The link's projects that are still live in its tenant, in the link's order. */
  async projects(ids: readonly string[]) {
    const rows = await (await this.platform.repo(project).select(this.ctx)).select(['id', 'name', 'screenImage']).where(within('id', ids)).execute();
    const order = new Map(ids.map((id, i) => [id, i]));
    return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  async devices(projectIds: readonly string[]): Promise<DeviceRow[]> {
    const qb = await this.platform.repo(device).select(this.ctx);
    return qb.select(['id', 'name', 'projectId', 'online', 'lastSeen']).where(within('projectId', projectIds)).orderBy('sort').orderBy('id').execute();
  }

  async monitorPoints(projectIds: readonly string[]) {
    const qb = await this.platform.repo(monitorPoint).select(this.ctx);
    return qb.select(['id', 'name', 'projectId', 'screenX', 'screenY']).where(within('projectId', projectIds)).orderBy('sort').orderBy('id').execute();
  }

  async bindings(monitorPointIds: readonly string[]) {
    const qb = await this.platform.repo(pointRelationDevice).select(this.ctx);
    return qb.select(['monitorPointId', 'deviceId', 'pointKey']).where(within('monitorPointId', monitorPointIds)).orderBy('id').execute();
  }

  /** The devices' points, named by their factor item when they have one, with its unit and precision as fallbacks. */
  async points(deviceIds: readonly string[]): Promise<PointRow[]> {
    const qb = await this.platform.repo(devicePoint).select(this.ctx);
    const rows = await qb.select(['deviceId', 'pointKey', 'name', 'unit', 'precision', 'factorsItemId']).where(within('deviceId', deviceIds)).orderBy('sort').orderBy('id').execute();
    const itemIds = [...new Set(rows.flatMap((r) => (r.factorsItemId ? [r.factorsItemId] : [])))];
    const items = itemIds.length ? await (await this.platform.repo(monitorFactorsItem).select(this.ctx)).select(['id', 'name', 'unit', 'precision']).where(within('id', itemIds)).execute() : [];
    const itemById = new Map(items.map((i) => [i.id, i]));
    return rows.map((r) => {
      const item = r.factorsItemId ? itemById.get(r.factorsItemId) : undefined;
      return { ...r, name: item?.name ?? r.name ?? r.pointKey, unit: r.unit ?? item?.unit ?? null, precision: r.precision ?? item?.precision ?? null };
    });
  }

  /** Open alarms of the projects, worst level first, then newest. */
  async openAlarms(projectIds: readonly string[]): Promise<AlarmColumns[]> {
    const qb = await this.platform.repo(alarm).select(this.ctx);
    return qb
      .select([...ALARM_COLUMNS])
      .where(within('projectId', projectIds))
      .where('alarmState', '=', ALARM_STATE.open)
      .orderBy('alarmLevel')
      .orderBy('levelTime', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async latest(points: readonly PointRow[]): Promise<Map<string, Latest>> {
    const out = new Map<string, Latest>();
    for (const p of points) out.set(`${p.deviceId}|${p.pointKey}`, await latestTwo(this.platform.db, p.deviceId, p.pointKey));
    return out;
  }
}
