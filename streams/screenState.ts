import type { LevelCounts, PresenceCounts } from '../resources/wire/statistics';
import type { ScreenAlarm, ScreenPresence } from '../resources/wire/screen';
import type { AlarmLine } from '../resources/wire/statistics';
import type { LiveEvent, ScreenStreamEvent } from './screen';
import type { PointView, ProjectView, ScreenView } from './screenSnapshot';

/**
 * What a wall screen shows, folded from its snapshots and live events (streams/screen.ts) — but for the readings:
 * the channels' live values and today's counts are streams/screenChannels.ts, updated in place so that a reading
 * renders its tiles only (the snapshot's values here are those of its time). Objects nothing changed
 * keep their identity, so the panels of other projects do not render again. Every collection is bounded: the alarm
 * list (MAX_ALARMS), the events held while a snapshot is fetched (MAX_PENDING), the presence remembered (one entry
 * per device of the link).
 */
export interface ScreenState {
  data?: ScreenView;
  /** Live events received since a snapshot was asked for (undefined when none is): applied again on top of it. */
  pending?: LiveEvent[];
  /** Red (level 1) open alarms that arrived, live or found by a resync: the screen flashes and beeps as it grows. */
  redArrivals: number;
  lastRed?: AlarmLine;
  /** Presence of the devices live events told of since the snapshot, so a repeated event is not counted twice. */
  presence: Readonly<Record<string, boolean>>;
}

export const MAX_ALARMS = 200;
export const MAX_PENDING = 2_000;
/** alarmState of an open alarm (dictionary: 1 open, 2 cleared). */
export const OPEN = 1;
export const RED = 1;

export const initialScreenState: ScreenState = { redArrivals: 0, presence: {} };

/** Worst level first (1 red … 4 blue), then newest. */
export function alarmOrder(a: AlarmLine, b: AlarmLine): number {
  return a.alarmLevel - b.alarmLevel || (b.levelTime ?? '').localeCompare(a.levelTime ?? '') || b.id.localeCompare(a.id);
}

const isOpenRed = (alarm: AlarmLine) => alarm.alarmState === OPEN && alarm.alarmLevel === RED;

/** Folds a batch of the stream's events into the screen's state. */
export function reduceScreen(state: ScreenState, events: readonly ScreenStreamEvent[]): ScreenState {
  let next = state;
  for (const event of events) {
    if (event.type === 'syncing') next = { ...next, pending: [] };
    else if (event.type === 'snapshot') next = withSnapshot(next, event.data);
    else if (event.type === 'readings' || event.type === 'alarm' || event.type === 'presence') next = withLive(next, event);
  }
  return next;
}

function withLive(state: ScreenState, event: LiveEvent): ScreenState {
  // Readings are screenChannels.ts's: they change nothing here, and are not held for the next snapshot either.
  if (event.type === 'readings') return state;
  const pending = state.pending && state.pending.length < MAX_PENDING ? [...state.pending, event] : state.pending;
  return { ...applyLive(state, event), pending };
}

function applyLive(state: ScreenState, event: LiveEvent): ScreenState {
  if (!state.data) return state;
  if (event.type === 'readings') return state;
  if (event.type === 'alarm') return withAlarm(state, event.alarm);
  return withPresence(state, event.presence);
}

/**
 * A new snapshot replaces what is shown; the live events received while it was fetched are applied again (those the
 * snapshot is newer than change nothing). Red alarms it has that the screen did not show arrived meanwhile.
 */
function withSnapshot(state: ScreenState, data: ScreenView): ScreenState {
  const shownRed = new Set((state.data?.alarms ?? []).filter(isOpenRed).map((a) => a.id));
  const arrived = state.data ? data.alarms.filter((a) => isOpenRed(a) && !shownRed.has(a.id)) : [];
  let next: ScreenState = {
    data: { ...data, alarms: [...data.alarms].sort(alarmOrder).slice(0, MAX_ALARMS) },
    redArrivals: state.redArrivals + arrived.length,
    lastRed: arrived[0] ?? state.lastRed,
    presence: {},
  };
  for (const event of state.pending ?? []) {
    if (event.type !== 'readings' && (event.type === 'alarm' ? event.alarm.at : event.presence.at) > data.at) next = applyLive(next, event);
  }
  return next;
}

const mapProject = (data: ScreenView, projectId: string | null, change: (project: ProjectView) => ProjectView): ScreenView => {
  const index = data.projects.findIndex((p) => p.id === projectId);
  if (index < 0) return data;
  const changed = change(data.projects[index]);
  if (changed === data.projects[index]) return data;
  const projects = [...data.projects];
  projects[index] = changed;
  return { ...data, projects };
};

/** Points (and channels) the change touches are new objects; the others are kept. */
const mapPoints = (project: ProjectView, change: (point: PointView) => PointView): ProjectView => {
  let touched = false;
  const points = project.points.map((point) => {
    const changed = change(point);
    touched ||= changed !== point;
    return changed;
  });
  return touched ? { ...project, points } : project;
};

const adjust = (counts: LevelCounts, level: number, by: number): LevelCounts => {
  const key = String(level) as keyof LevelCounts;
  return key in counts ? { ...counts, [key]: Math.max(0, counts[key] + by) } : counts;
};

/**
 * An alarm raised, moved, cleared or handled: the open list (worst first, then newest), the project's open counts
 * and the level of the channel it is about. A red one that was not red before has arrived.
 */
function withAlarm(state: ScreenState, alarm: ScreenAlarm): ScreenState {
  const data = state.data as ScreenView;
  const before = data.alarms.find((a) => a.id === alarm.id);
  const open = alarm.alarmState === OPEN;
  const line: AlarmLine = stripAt(alarm);
  const others = data.alarms.filter((a) => a.id !== alarm.id);
  const alarms = open ? [...others, line].sort(alarmOrder).slice(0, MAX_ALARMS) : others;
  const next = mapProject({ ...data, alarms }, alarm.projectId, (project) => {
    let counts = project.openAlarms;
    if (before) counts = adjust(counts, before.alarmLevel, -1);
    // The server lists the worst open alarms only: one cleared that was not listed still left the counts.
    else if (!open && openTotal(counts) > data.alarms.filter((a) => a.projectId === project.id).length) counts = adjust(counts, alarm.alarmLevel, -1);
    if (open) counts = adjust(counts, alarm.alarmLevel, 1);
    const level = open ? alarm.alarmLevel : null;
    const withLevel = mapPoints(project, (point) => withChannelLevel(point, alarm, level));
    return counts === project.openAlarms && withLevel === project ? project : { ...withLevel, openAlarms: counts };
  });
  const arrived = isOpenRed(line) && !(before && isOpenRed(before));
  return { ...state, data: next, redArrivals: state.redArrivals + (arrived ? 1 : 0), lastRed: arrived ? line : state.lastRed };
}

function stripAt({ at: _at, ...line }: ScreenAlarm): AlarmLine {
  return line;
}

function withChannelLevel(point: PointView, alarm: AlarmLine, level: number | null): PointView {
  let touched = false;
  const channels = point.channels.map((channel) => {
    if (channel.deviceId !== alarm.deviceId || channel.pointKey !== alarm.pointKey || channel.level === level) return channel;
    touched = true;
    return { ...channel, level };
  });
  return touched ? { ...point, channels } : point;
}

/** A device went online or offline: its points follow, and the project's counts move once per real change. */
function withPresence(state: ScreenState, presence: ScreenPresence): ScreenState {
  const data = state.data as ScreenView;
  if (state.presence[presence.deviceId] === presence.online) return state;
  const next = mapProject(data, presence.projectId, (project) => {
    const points = mapPoints(project, (point) =>
      point.online !== presence.online && point.channels.some((c) => c.deviceId === presence.deviceId) ? { ...point, online: presence.online } : point,
    );
    return { ...points, devices: movedPresence(project.devices, presence.online) };
  });
  return { ...state, data: next, presence: { ...state.presence, [presence.deviceId]: presence.online } };
}

/** One device more online (or offline), the other side one less, within the total. */
function movedPresence(counts: PresenceCounts, online: boolean): PresenceCounts {
  const clamp = (n: number) => Math.min(counts.total, Math.max(0, n));
  const delta = online ? 1 : -1;
  return { ...counts, online: clamp(counts.online + delta), offline: clamp(counts.offline - delta) };
}

/** The worst level among a point's channels' open alarms (1 is worst), or null. */
export function pointLevel(point: PointView): number | null {
  let worst: number | null = null;
  for (const channel of point.channels) if (channel.level !== null && (worst === null || channel.level < worst)) worst = channel.level;
  return worst;
}

/** The share of a project's devices online, 0…1 (0 without devices). */
export const onlineRate = (counts: PresenceCounts): number => (counts.total > 0 ? counts.online / counts.total : 0);

/** All open alarms of the counts. */
export const openTotal = (counts: LevelCounts): number => counts['1'] + counts['2'] + counts['3'] + counts['4'];
