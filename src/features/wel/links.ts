import type { AlarmLevel } from '../alarm/levels';

/**
 * Where a figure of the home or the data board leads: the list it counts, filtered to what it counts, through the
 * lists' URL filters (docs/console-screens.md "Lists from a link"). Every link keeps the screen's scope.
 */

export const LISTS = {
  project: '/xinde/project',
  device: '/xinde/device',
  gateway: '/xinde/gateway',
  alarm: '/xinde/alarm',
  data: '/xinde/devicelog',
  point: '/xinde/monitorpoint',
} as const;

export type ListPath = (typeof LISTS)[keyof typeof LISTS];

/** The screen's filters: a project, and (the platform administrator's board) a tenant. */
export interface Scope {
  projectId?: string;
  tenantId?: string;
}

/** A day range, yyyy-MM-dd, both days included. */
export interface Days {
  from: string;
  to: string;
}

function link(path: ListPath, query: Record<string, string | undefined>, scope: Scope = {}): string {
  const filters: Record<string, string | undefined> = {
    ...query,
    // The project list filters on the project itself; the other lists on the project their rows belong to.
    ...(scope.projectId ? (path === LISTS.project ? { id: scope.projectId } : { projectId: scope.projectId }) : {}),
    // tenantId is a text column: a plain filter would be LIKE, and 10000 would match 100001.
    ...(scope.tenantId ? { tenantId_equal: scope.tenantId } : {}),
  };
  const search = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => !!entry[1])).toString();
  return search ? `${path}?${search}` : path;
}

export const projectsLink = (scope?: Scope): string => link(LISTS.project, {}, scope);

/** Devices or gateways by presence; offline counts the never-seen too (resources/wire/statistics.ts). */
export type Presence = 'online' | 'offline' | 'never';

const PRESENCE_FILTERS: Record<Presence, Record<string, string>> = {
  online: { online: '1' },
  offline: { online: '0' },
  never: { lastSeen_null: '1' },
};

export const devicesLink = (presence: Presence | undefined, scope?: Scope): string => link(LISTS.device, presence ? PRESENCE_FILTERS[presence] : {}, scope);

/**
 * The gateway list, by project only: it is a lazy tree whose call takes no other filter (a filtered link would name
 * a filter the list does not apply), and it shows each gateway's presence.
 */
export const gatewaysLink = (scope?: Scope): string => link(LISTS.gateway, {}, { projectId: scope?.projectId });

/** One device, one monitor point. */
export const deviceLink = (id: string): string => link(LISTS.device, { id });
export const pointLink = (id: string): string => link(LISTS.point, { id });
export const pointsLink = (scope?: Scope): string => link(LISTS.point, {}, scope);

/** The devices silent for longest first: offline, by when they were last heard of. */
export const silentDevicesLink = (scope?: Scope): string => link(LISTS.device, { online: '0', ascs: 'lastSeen' }, scope);

export interface AlarmFilter {
  level?: AlarmLevel;
  /** Still open (alarmState 1). */
  open?: boolean;
  /** Open and nobody handled them yet. */
  unhandled?: boolean;
  /** Raised (first time) within these days. */
  raised?: Days;
}

export function alarmsLink(filter: AlarmFilter, scope?: Scope): string {
  return link(
    LISTS.alarm,
    {
      alarmLevel: filter.level ? String(filter.level) : undefined,
      alarmState: filter.open || filter.unhandled ? '1' : undefined,
      handleState: filter.unhandled ? '0' : undefined,
      firstTime_datege: filter.raised?.from,
      firstTime_datele: filter.raised?.to,
    },
    scope,
  );
}

export const alarmLink = (id: string): string => link(LISTS.alarm, { id });

/** The stored values of some days (the device log's arrival-time range). */
export const dataLink = (days: Days, scope?: Scope): string => link(LISTS.data, { startTime: `${days.from} 00:00:00`, endTime: `${days.to} 23:59:59` }, scope);

/** The stored values of a day from its start: today's data points up to now. */
export const dataSinceLink = (day: string, scope?: Scope): string => link(LISTS.data, { startTime: `${day} 00:00:00` }, scope);

/**
 * A link kept only when the user holds its list's screen (`held`: the screen paths of their menus, undefined until
 * known): a figure leading to a 403 would promise what the console does not keep.
 */
export const heldOnly =
  (held: ReadonlySet<string> | undefined) =>
  (href: string): string | undefined =>
    held?.has(href.split('?')[0]) ? href : undefined;
