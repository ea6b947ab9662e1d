import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { ALARM_STATE } from '../../../../resources/iot/alarm';
import { alarm } from '../../../../resources/iot/alarm';
import { device, devicePoint } from '../../../../resources/iot/device';
import { monitorFactorsItem, monitorPoint, pointRelationDevice } from '../../../../resources/iot/monitoring';
import { project } from '../../../../resources/iot/project';
import type { PresenceCounts } from '../../../../resources/wire/statistics';
import type { ScreenChannel, ScreenData, ScreenPoint, ScreenProject } from '../../../../resources/wire/screen';
import type { DisplayLink } from '../../../auth/display';
import type { DialectName } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import type { Platform } from '../../../platform';
import { type LatestValues, parseChannels } from '../../../ingest/latest';
import { formatDateTime } from '../../../time';
import { within } from '../common';
import { pointsPerDevice } from '../statistics-figures';
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
  lastChannels?: string | null;
}

interface PointRow {
  deviceId: string;
  pointKey: string;
  name: string;
  unit: string | null;
  precision: number | null;
  factorsItemId: string | null;
  /** The latest value and the one before it, epoch ms of the latest. */
  value: number | null;
  previous: number | null;
  ts: number | null;
}

/** Rows by a key, in their order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

/**
 * A channel's two newest series rows as a JSON array of `[ts, value]` pairs (newest first, at most two), a scalar
 * subquery of its point row. One backward seek on the series' primary key (device, point, ts) reads both rows, where
 * a subquery per column (ts, value, previous) cost three seeks per channel (60,000 for a project of 20,000 channels).
 * JSON carries the doubles in their round-trip form on both stores, which text concatenation would not on SQLite.
 */
const recentOf = (dialect: DialectName) => {
  const newest = sql`select l.ts, l.value from wit_device_log l where l.device_id = wit_device_point.device_id and l.point_key = wit_device_point.point_key order by l.ts desc limit 2`;
  return dialect === 'postgres'
    ? sql<unknown>`(select json_agg(json_build_array(r.ts, r.value)) from (${newest}) r)`
    : sql<unknown>`(select json_group_array(json_array(r.ts, r.value)) from (${newest}) r)`;
};

/** The latest value, its ts and the value before it from `recentOf`'s pairs (PostgreSQL's driver parses json, SQLite gives text). */
export function latestOf(recent: unknown): { ts: number | null; value: number | null; previous: number | null } {
  const parsed: unknown = typeof recent === 'string' ? JSON.parse(recent) : recent;
  // Ordered by ts here rather than trusting the aggregate to keep the subquery's order.
  const pairs = (Array.isArray(parsed) ? (parsed as Array<[unknown, unknown]>) : []).map(([ts, value]) => [Number(ts), Number(value)] as const).sort((a, b) => b[0] - a[0]);
  const [latest, before] = pairs;
  return { ts: latest ? latest[0] : null, value: latest ? latest[1] : null, previous: before ? before[1] : null };
}

/** The screen call that streams a project's image, versioned by the image so a changed one is not taken from a cache. */
export function imageUrl(projectId: string, link: string | null): string | null {
  if (!link) return null;
  const version = createHash('sha256').update(link).digest('hex').slice(0, 12);
  return `${IMAGE_PATH}?projectId=${projectId}&v=${version}`;
}

/**
 * Data points stored today (the server's local date) per project of `devices`: the statistics' per-device-per-day
 * counters (docs/statistics.md "Counters"), read for the devices the repository gave, one query.
 */
export async function pointsTodayOf(platform: Platform, ctx: CallContext, devices: readonly DeviceRow[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (devices.length === 0) return out;
  const projectIds = [...new Set(devices.flatMap((d) => (d.projectId ? [d.projectId] : [])))];
  const visible = (await platform.repo(device).select(ctx)).select('wit_device.id').where(within('wit_device.projectId', projectIds));
  const perDevice = await pointsPerDevice(platform, [formatDateTime().slice(0, 10)], visible);
  for (const d of devices) if (d.projectId) out.set(d.projectId, (out.get(d.projectId) ?? 0) + (perDevice.get(d.id) ?? 0));
  return out;
}

/** Devices by presence; `never` were never heard of and count as offline too. */
export function presenceOf(devices: readonly DeviceRow[]): PresenceCounts {
  const online = devices.filter((d) => Number(d.online) === 1).length;
  return { total: devices.length, online, offline: devices.length - online, never: devices.filter((d) => !d.lastSeen).length };
}

/** Everything the screen of `link` paints, now; `latest`: this process's ingestion, newer than its write-back. */
export async function screenData(platform: Platform, ctx: CallContext, link: DisplayLink, latest: LatestValues): Promise<ScreenData> {
  const reader = new ScreenReader(platform, ctx, latest);
  const projects = await reader.projects(link.projectIds);
  const ids = projects.map((p) => p.id);
  const [devices, monitorPoints, openAlarms] = await Promise.all([reader.devices(ids), reader.monitorPoints(ids), reader.openAlarms(ids)]);
  const [points, bindings, today] = await Promise.all([
    reader.points(devices),
    reader.bindings(monitorPoints.map((m) => m.id)),
    pointsTodayOf(platform, ctx, devices),
  ]);
  const projectNames = new Map(projects.map((p) => [p.id, p.name]));
  const deviceNames = new Map(devices.map((d) => [d.id, d.name]));
  const levels = new Map<string, number>();
  for (const row of openAlarms) {
    const key = `${row.deviceId}|${row.pointKey ?? ''}`;
    levels.set(key, Math.min(levels.get(key) ?? 99, Number(row.alarmLevel)));
  }
  const channelOf = (d: DeviceRow, p: PointRow): ScreenChannel => {
    // A channel's own alarm, or one raised on the whole device (a manual alarm without a point).
    const level = Math.min(levels.get(`${d.id}|${p.pointKey}`) ?? 99, levels.get(`${d.id}|`) ?? 99);
    const { pointKey, name, unit, precision, value, previous, ts } = p;
    return { deviceId: d.id, pointKey, name, unit, precision, value, previous, ts, level: level === 99 ? null : level };
  };
  const pointsOf = groupBy(points, (p) => p.deviceId);
  const bindingsOf = groupBy(bindings, (b) => b.monitorPointId);
  const devicesOf = groupBy(devices, (d) => d.projectId ?? '');
  const placedOf = groupBy(monitorPoints, (m) => m.projectId ?? '');
  const alarmsOf = groupBy(openAlarms, (a) => a.projectId ?? '');
  const deviceById = new Map(devices.map((d) => [d.id, d]));

  const out: ScreenProject[] = [];
  for (const p of projects) {
    const own = devicesOf.get(p.id) ?? [];
    const placed = placedOf.get(p.id) ?? [];
    const screenPoints: ScreenPoint[] = placed.length
      ? placed.map((m) => {
          const bound = bindingsOf.get(m.id) ?? [];
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
      pointsToday: today.get(p.id) ?? 0,
      openAlarms: levelCounts((alarmsOf.get(p.id) ?? []).map((a) => Number(a.alarmLevel))),
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
    private readonly latest: LatestValues,
  ) {}

  /** The link's projects that are still live in its tenant, in the link's order. */
  async projects(ids: readonly string[]) {
    const rows = await (await this.platform.repo(project).select(this.ctx)).select(['id', 'name', 'screenImage']).where(within('id', ids)).execute();
    const order = new Map(ids.map((id, i) => [id, i]));
    return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  async devices(projectIds: readonly string[]): Promise<DeviceRow[]> {
    const qb = await this.platform.repo(device).select(this.ctx);
    return qb.select(['id', 'name', 'projectId', 'online', 'lastSeen', 'lastChannels']).where(within('projectId', projectIds)).orderBy('sort').orderBy('id').execute();
  }

  async monitorPoints(projectIds: readonly string[]) {
    const qb = await this.platform.repo(monitorPoint).select(this.ctx);
    return qb.select(['id', 'name', 'projectId', 'screenX', 'screenY']).where(within('projectId', projectIds)).orderBy('sort').orderBy('id').execute();
  }

  async bindings(monitorPointIds: readonly string[]) {
    const qb = await this.platform.repo(pointRelationDevice).select(this.ctx);
    return qb.select(['monitorPointId', 'deviceId', 'pointKey']).where(within('monitorPointId', monitorPointIds)).orderBy('id').execute();
  }

  /**
   * The devices' points, named by their factor item when they have one, with its unit and precision as fallbacks, and
   * each with its latest value and the one before: from the ingestion's write-back beside the device
   * (`wit_device.last_channels`, one row per device) or this process's newer memory of it, whichever is newer. Only
   * channels neither knows (history written by other means, a channel silent since the upgrade) read the series: one
   * seek per channel on its primary key for both rows (`recentOf`), one query for their devices.
   */
  async points(devices: readonly DeviceRow[]): Promise<PointRow[]> {
    const written = new Map(devices.flatMap((d) => {
      const channels = parseChannels(d.lastChannels);
      return channels ? [[d.id, channels] as const] : [];
    }));
    const known = (deviceId: string, pointKey: string) => {
      const stored = written.get(deviceId)?.get(pointKey);
      const live = this.latest.channels(deviceId)?.get(pointKey);
      return live && (!stored || live.ts >= stored.ts) ? live : stored;
    };
    const rows = await (await this.platform.repo(devicePoint).select(this.ctx))
      .select(['deviceId', 'pointKey', 'name', 'unit', 'precision', 'factorsItemId'])
      .where(within('deviceId', devices.map((d) => d.id)))
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const unknown = [...new Set(rows.flatMap((r) => (known(r.deviceId, r.pointKey) ? [] : [r.deviceId])))];
    const fromSeries = unknown.length
      ? await (await this.platform.repo(devicePoint).select(this.ctx)).select(['deviceId', 'pointKey', recentOf(this.platform.dialect).as('recent')]).where(within('deviceId', unknown)).execute()
      : [];
    const recentByChannel = new Map(fromSeries.map((r) => [`${r.deviceId}|${r.pointKey}`, latestOf(r.recent)]));
    const newestOf = (deviceId: string, pointKey: string) => {
      const newest = known(deviceId, pointKey);
      if (newest) return { ts: newest.ts, value: newest.value, previous: newest.previous };
      return recentByChannel.get(`${deviceId}|${pointKey}`) ?? { ts: null, value: null, previous: null };
    };
    const itemIds = [...new Set(rows.flatMap((r) => (r.factorsItemId ? [r.factorsItemId] : [])))];
    const items = itemIds.length ? await (await this.platform.repo(monitorFactorsItem).select(this.ctx)).select(['id', 'name', 'unit', 'precision']).where(within('id', itemIds)).execute() : [];
    const itemById = new Map(items.map((i) => [i.id, i]));
    return rows.map((r) => {
      const item = r.factorsItemId ? itemById.get(r.factorsItemId) : undefined;
      const name = item?.name ?? r.name ?? r.pointKey;
      return { ...r, name, unit: r.unit ?? item?.unit ?? null, precision: r.precision ?? item?.precision ?? null, ...newestOf(r.deviceId, r.pointKey) };
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
}
