/**
 * Bodies of the statistics calls (docs/statistics.md): the home overview (`index/getIndexData`, `index/getMeunAuth`)
 * and the data board (`countAvue/avueStatis`). Every figure is within the caller's tenant, data scope and projects.
 * Alarm levels follow dictionary `alarm_level`: 1 red, 2 orange, 3 yellow, 4 blue.
 */

/**
 * The socket event (to the tenant's room) that tells a home or data board its figures changed: alarms, presence or
 * stored readings. At most one per tenant every two seconds; the console refetches within its own scope.
 */
export const STATS_EVENT = 'stats.changed';

export interface StatsChanged {
  tenantId: string;
  what: Array<'alarms' | 'presence' | 'readings'>;
  at: number;
}

/** Devices or gateways by presence; `never` were never heard of (no lastSeen), and are also counted offline. */
export interface PresenceCounts {
  total: number;
  online: number;
  offline: number;
  never: number;
}

/** Counts by alarm level, keyed '1'…'4'. */
export type LevelCounts = Record<'1' | '2' | '3' | '4', number>;

/** An alarm as the home and the wall screen list it. */
export interface AlarmLine {
  id: string;
  projectId: string | null;
  projectName: string | null;
  deviceId: string;
  deviceName: string | null;
  pointKey: string | null;
  alarmLevel: number;
  /** 1 open, 2 cleared. */
  alarmState: number;
  /** 0 unhandled, 1 handled. */
  handleState: number;
  title: string | null;
  value: number | null;
  unit: string | null;
  levelTime: string | null;
}

/** `GET /api/wit-xinde/index/getIndexData (projectId?)`: the home overview. */
export interface IndexData {
  projects: number;
  devices: PresenceCounts;
  gateways: PresenceCounts;
  /** Data points stored since the server's local midnight. */
  pointsToday: number;
  /** Open alarms (alarmState 1) by level, handled or not. */
  openAlarms: LevelCounts;
  /** Open alarms nobody handled yet. */
  unhandledAlarms: number;
  /** The ten latest alarm changes, newest first. */
  latestAlarms: AlarmLine[];
  /** The caller's unread notices. */
  unreadNotices: number;
  /** When the figures were taken (server time, yyyy-MM-dd HH:mm:ss). */
  at: string;
}

/** `GET /api/wit-xinde/index/getMeunAuth`: the quick entries of the home — leaf menus the caller may open. */
export interface QuickEntry {
  code: string;
  name: string;
  path: string;
  source: string | null;
}

/** One day (yyyy-MM-dd) of a daily series. */
export interface DayCount {
  day: string;
  count: number;
}

/** One sample of the online rate: the share of devices online at `at` (yyyy-MM-dd HH:mm:ss), 0…1. */
export interface OnlineSample {
  at: string;
  devices: number;
  online: number;
  rate: number;
}

/** A named count (a project, a monitor type, a monitor point). */
export interface NamedCount {
  id: string;
  name: string;
  count: number;
}

/** A device silent for long: when it was last heard of (null: never). */
export interface SilentDevice {
  id: string;
  code: string;
  name: string;
  projectId: string | null;
  projectName: string | null;
  lastSeen: string | null;
}

/**
 * `GET /api/wit-xinde/countAvue/avueStatis (projectId?, startTime?, endTime?, tenantId?)`: the data board. The range
 * defaults to the last 30 days and is at most a year; `tenantId` only for the platform administrator (default: every
 * tenant).
 */
export interface BoardData {
  startTime: string;
  endTime: string;
  online: OnlineSample[];
  /** Alarms raised per day, by level. */
  alarmsPerDay: Array<{ day: string; levels: LevelCounts }>;
  alarmsByProject: NamedCount[];
  alarmsByMonitorType: NamedCount[];
  /** Data points stored per day. */
  pointsPerDay: DayCount[];
  /** Monitor points with the most data points in the range (the top 10). */
  activePoints: NamedCount[];
  /** Devices silent for longest (the top 10), never-seen ones first. */
  silentDevices: SilentDevice[];
}
