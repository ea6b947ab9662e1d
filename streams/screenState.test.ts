import { describe, expect, it } from 'vitest';
import type { ScreenAlarm, ScreenChannel, ScreenData, ScreenPoint, ScreenProject } from '../resources/wire/screen';
import type { AlarmLine } from '../resources/wire/statistics';
import type { ScreenStreamEvent } from './screen';
import { initialScreenState, MAX_ALARMS, onlineRate, pointLevel, reduceScreen, type ScreenState } from './screenState';
import { type ProjectView, viewOf } from './screenSnapshot';

const channel = (deviceId: string, pointKey: string, extra: Partial<ScreenChannel> = {}): ScreenChannel => ({
  deviceId,
  pointKey,
  name: pointKey,
  unit: 'mm',
  precision: 2,
  value: 1,
  previous: null,
  ts: 1_000,
  level: null,
  ...extra,
});

const point = (id: string, channels: ScreenChannel[], online = true): ScreenPoint => ({ id, name: id, x: 0.5, y: 0.5, online, channels });

const project = (id: string, points: ScreenPoint[]): ScreenProject => ({
  id,
  name: id,
  image: null,
  points,
  devices: { total: 4, online: 2, offline: 2, never: 0 },
  pointsToday: 10,
  openAlarms: { '1': 0, '2': 1, '3': 0, '4': 0 },
  trends: [],
});

const line = (id: string, level: number, extra: Partial<AlarmLine> = {}): AlarmLine => ({
  id,
  projectId: 'p1',
  projectName: 'p1',
  deviceName: 'd1',
  deviceId: 'd1',
  pointKey: 'crack',
  alarmLevel: level,
  alarmState: 1,
  handleState: 0,
  title: `alarm ${id}`,
  value: 3,
  unit: 'mm',
  levelTime: '2026-01-10 10:00:00',
  ...extra,
});

const alarm = (id: string, level: number, at: number, extra: Partial<AlarmLine> = {}): ScreenAlarm => ({ ...line(id, level, extra), at });

const snapshot = (at = 5_000, alarms: AlarmLine[] = [line('a0', 2, { pointKey: 'tilt' })]): ScreenData => ({
  link: { id: 'l', name: 'wall', layout: 'structure', rotateSeconds: 30, expiresAt: null },
  projects: [project('p1', [point('m1', [channel('d1', 'crack'), channel('d1', 'tilt', { level: 2 })]), point('m2', [channel('d2', 'crack')])]), project('p2', [point('m3', [channel('d3', 'crack')])])],
  alarms,
  at,
});

const fold = (state: ScreenState, ...events: ScreenStreamEvent[]) => reduceScreen(state, events);
const loaded = (data = snapshot()) => fold(initialScreenState, { type: 'syncing' }, { type: 'snapshot', ...viewOf(data), reason: 'connect' });
const p1 = (state: ScreenState) => state.data?.projects[0] as ProjectView;

describe('reduceScreen', () => {
  it('leaves readings to the live channels (screenChannels.ts): the state stays the same object', () => {
    const state = loaded();
    const next = fold(state, { type: 'readings', readings: [{ projectId: 'p1', deviceId: 'd1', ts: 2_000, values: { crack: 1.5, other: 9 } }] });
    expect(next).toBe(state);
  });

  it('keeps the open alarms worst first, counts them by level, colours the channel, and tells red arrivals', () => {
    let state = loaded();
    expect(state.redArrivals).toBe(0);
    state = fold(state, { type: 'alarm', alarm: alarm('a1', 3, 6_000) });
    expect(state.data?.alarms.map((a) => a.id)).toEqual(['a0', 'a1']);
    expect(p1(state).openAlarms).toEqual({ '1': 0, '2': 1, '3': 1, '4': 0 });
    expect(p1(state).points[0].channels[0].level).toBe(3);
    expect(state.redArrivals).toBe(0);
    // Escalated to red: first in the list, moved between levels, and it has arrived.
    state = fold(state, { type: 'alarm', alarm: alarm('a1', 1, 7_000) });
    expect(state.data?.alarms.map((a) => a.id)).toEqual(['a1', 'a0']);
    expect(p1(state).openAlarms).toEqual({ '1': 1, '2': 1, '3': 0, '4': 0 });
    expect(pointLevel(p1(state).points[0])).toBe(1);
    expect(state).toMatchObject({ redArrivals: 1, lastRed: { id: 'a1', alarmLevel: 1 } });
    // Handled but still open and red: no new arrival.
    state = fold(state, { type: 'alarm', alarm: alarm('a1', 1, 8_000, { handleState: 1 }) });
    expect(state.redArrivals).toBe(1);
    expect(state.data?.alarms[0].handleState).toBe(1);
    // Cleared: out of the list and the counts, the channel back to normal.
    state = fold(state, { type: 'alarm', alarm: alarm('a1', 1, 9_000, { alarmState: 2 }) });
    expect(state.data?.alarms.map((a) => a.id)).toEqual(['a0']);
    expect(p1(state).openAlarms).toEqual({ '1': 0, '2': 1, '3': 0, '4': 0 });
    expect(p1(state).points[0].channels[0].level).toBeNull();
    expect(pointLevel(p1(state).points[0])).toBe(2);
  });

  it('counts an alarm cleared that the list did not show (the server lists the worst only), and not one it never counted', () => {
    // Project p1 counts one orange open alarm, and the list shows it (a0): a stranger cleared changes nothing.
    let state = loaded();
    state = fold(state, { type: 'alarm', alarm: alarm('stranger', 2, 6_000, { alarmState: 2 }) });
    expect(p1(state).openAlarms['2']).toBe(1);
    // The list shows none of the project's open alarms: one cleared leaves the counts.
    state = loaded(snapshot(5_000, []));
    state = fold(state, { type: 'alarm', alarm: alarm('unlisted', 2, 6_000, { alarmState: 2 }) });
    expect(p1(state).openAlarms['2']).toBe(0);
  });

  it('bounds the alarm list', () => {
    let state = loaded(snapshot(5_000, []));
    for (let i = 0; i < MAX_ALARMS + 20; i += 1) state = fold(state, { type: 'alarm', alarm: alarm(`x${String(i).padStart(4, '0')}`, 4, 6_000 + i) });
    expect(state.data?.alarms).toHaveLength(MAX_ALARMS);
  });

  it('moves the online counts once per change of a device, and its points with it', () => {
    let state = loaded();
    state = fold(state, { type: 'presence', presence: { projectId: 'p1', deviceId: 'd2', online: false, at: 6_000 } });
    expect(p1(state).devices).toEqual({ total: 4, online: 1, offline: 3, never: 0 });
    expect(p1(state).points[1].online).toBe(false);
    expect(p1(state).points[0].online).toBe(true);
    state = fold(state, { type: 'presence', presence: { projectId: 'p1', deviceId: 'd2', online: false, at: 6_100 } });
    expect(p1(state).devices.online).toBe(1);
    state = fold(state, { type: 'presence', presence: { projectId: 'p1', deviceId: 'd2', online: true, at: 6_200 } });
    expect(p1(state).devices).toEqual({ total: 4, online: 2, offline: 2, never: 0 });
    expect(onlineRate(p1(state).devices)).toBe(0.5);
  });

  it('applies the alarms that came while a snapshot was fetched on top of it, when they are newer', () => {
    let state = loaded();
    state = fold(
      state,
      { type: 'syncing' },
      { type: 'alarm', alarm: alarm('old', 3, 6_000) },
      { type: 'alarm', alarm: alarm('new', 4, 9_000) },
    );
    // The snapshot (taken at 8 000) has neither alarm and an older value.
    state = fold(state, { type: 'snapshot', ...viewOf(snapshot(8_000)), reason: 'connect' });
    expect(state.data?.alarms.map((a) => a.id)).toEqual(['a0', 'new']);
    expect(state.pending).toBeUndefined();
  });

  it('tells red alarms a resync found that the screen did not show, but not those of the first snapshot', () => {
    const first = loaded(snapshot(5_000, [line('r0', 1)]));
    expect(first.redArrivals).toBe(0);
    const next = fold(first, { type: 'syncing' }, { type: 'snapshot', ...viewOf(snapshot(9_000, [line('r0', 1), line('r1', 1, { levelTime: '2026-01-10 11:00:00' })])), reason: 'connect' });
    expect(next).toMatchObject({ redArrivals: 1, lastRed: { id: 'r1' } });
    expect(next.data?.alarms.map((a) => a.id)).toEqual(['r1', 'r0']);
  });

  it('ignores live events before the first snapshot (the snapshot holds them)', () => {
    const state = fold(initialScreenState, { type: 'readings', readings: [{ projectId: 'p1', deviceId: 'd1', ts: 1, values: { crack: 1 } }] });
    expect(state.data).toBeUndefined();
  });
});
