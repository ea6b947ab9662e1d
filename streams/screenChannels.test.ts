import { describe, expect, it } from 'vitest';
import type { ScreenChannel, ScreenData, ScreenReading } from '../resources/wire/screen';
import { ScreenChannels } from './screenChannels';
import { type JoinedShapes, viewOf } from './screenSnapshot';

const channel = (deviceId: string, pointKey: string, value: number, ts: number): ScreenChannel => ({
  deviceId,
  pointKey,
  name: pointKey,
  unit: 'mm',
  precision: 2,
  value,
  previous: null,
  ts,
  level: null,
});

const snapshot = (at: number, crack = 1, ts = 1_000): ScreenData => ({
  link: { id: 'l', name: 'wall', layout: 'values', rotateSeconds: 30, expiresAt: null },
  projects: [
    {
      id: 'p1',
      name: 'p1',
      image: null,
      points: [{ id: 'm1', name: 'm1', x: null, y: null, online: true, channels: [channel('d1', 'crack', crack, ts), channel('d1', 'tilt', 5, ts)] }],
      devices: { total: 1, online: 1, offline: 0, never: 0 },
      pointsToday: 10,
      openAlarms: { '1': 0, '2': 0, '3': 0, '4': 0 },
      trends: [],
    },
  ],
  alarms: [],
  at,
});

const reading = (ts: number, values: Record<string, number>): ScreenReading => ({ projectId: 'p1', deviceId: 'd1', ts, values });

/** A store seeded with the snapshot, and the calls of listeners on crack, tilt and the count. */
function seeded() {
  const store = new ScreenChannels();
  store.take([{ type: 'syncing' }, { type: 'snapshot', ...viewOf(snapshot(5_000)), reason: 'connect' }]);
  const calls = { crack: 0, tilt: 0, count: 0 };
  store.subscribeChannel('d1', 'crack', () => calls.crack++);
  store.subscribeChannel('d1', 'tilt', () => calls.tilt++);
  store.subscribeCount('p1', () => calls.count++);
  return { store, calls };
}

describe('ScreenChannels', () => {
  it('shows a newer reading with its change, counts it for today, and tells only the listeners of what changed', () => {
    const { store, calls } = seeded();
    const record = store.channel('d1', 'crack');
    store.take([{ type: 'readings', readings: [reading(2_000, { crack: 1.5, other: 9 })] }]);
    // The same record, changed in place.
    expect(store.channel('d1', 'crack')).toBe(record);
    expect(record).toMatchObject({ value: 1.5, previous: 1, ts: 2_000, version: 2 });
    expect(store.pointsToday('p1')).toBe(12);
    expect(calls).toEqual({ crack: 1, tilt: 0, count: 1 });
    // An older reading (a device's backlog) is counted but does not replace the latest value.
    store.take([{ type: 'readings', readings: [reading(1_500, { crack: 0.1 })] }]);
    expect(record).toMatchObject({ value: 1.5, previous: 1, ts: 2_000 });
    expect(store.pointsToday('p1')).toBe(13);
    expect(calls).toEqual({ crack: 1, tilt: 0, count: 2 });
  });

  it('tells a listener once per batch however many readings changed its channel', () => {
    const { store, calls } = seeded();
    store.take([
      { type: 'readings', readings: [reading(2_000, { crack: 2 })] },
      { type: 'readings', readings: [reading(3_000, { crack: 3 })] },
    ]);
    expect(store.channel('d1', 'crack')).toMatchObject({ value: 3, previous: 2, ts: 3_000 });
    expect(calls.crack).toBe(1);
  });

  it('keeps a reading newer than the snapshot fetched meanwhile, and does not count it again', () => {
    const { store } = seeded();
    store.take([{ type: 'syncing' }, { type: 'readings', readings: [reading(8_500, { crack: 2 })] }]);
    expect(store.pointsToday('p1')).toBe(10);
    // The snapshot (taken at 8 000) has an older value: the reading stays; its count is the snapshot's.
    store.take([{ type: 'snapshot', ...viewOf(snapshot(8_000, 1.2, 7_900)), reason: 'resync' }]);
    expect(store.channel('d1', 'crack')).toMatchObject({ value: 2, ts: 8_500 });
    expect(store.channel('d1', 'tilt')).toMatchObject({ value: 5, ts: 7_900 });
    expect(store.pointsToday('p1')).toBe(10);
    // After the snapshot, readings count again.
    store.take([{ type: 'readings', readings: [reading(9_000, { tilt: 6 })] }]);
    expect(store.pointsToday('p1')).toBe(11);
  });

  it('ignores readings of channels the screen does not have, and readings before the first snapshot', () => {
    const store = new ScreenChannels();
    store.take([{ type: 'readings', readings: [reading(1, { crack: 1 })] }]);
    expect(store.pointsToday('p1')).toBe(0);
    store.take([{ type: 'snapshot', ...viewOf(snapshot(5_000)), reason: 'connect' }]);
    expect(store.channel('d1', 'crack')).toMatchObject({ value: 1, ts: 1_000 });
  });

  it("forgets channels a snapshot no longer has, takes a correction at the same instant, and tells a listener only of a real change", () => {
    const { store, calls } = seeded();
    const withoutTilt = snapshot(6_000);
    withoutTilt.projects[0].points[0].channels = withoutTilt.projects[0].points[0].channels.filter((c) => c.pointKey !== 'tilt');
    // The same values again: no listener is told.
    store.take([{ type: 'snapshot', ...viewOf(withoutTilt), reason: 'resync' }]);
    expect(calls.crack).toBe(0);
    // tilt is gone: asked again, it is a new, empty record.
    expect(store.channel('d1', 'tilt')).toMatchObject({ value: null, ts: null, version: 0 });
    // A value corrected at the same instant is taken.
    store.take([{ type: 'snapshot', ...viewOf(snapshot(7_000, 1.5)), reason: 'resync' }]);
    expect(store.channel('d1', 'crack')).toMatchObject({ value: 1.5, ts: 1_000 });
    expect(calls.crack).toBe(1);
  });

  it('takes later snapshots of the same points (kept by the page) in their remembered order, and still forgets', () => {
    const store = new ScreenChannels();
    const joined: JoinedShapes = new Map();
    const first = viewOf(snapshot(5_000), joined);
    store.take([{ type: 'snapshot', ...first, reason: 'connect' }]);
    const later = viewOf(snapshot(6_000, 2, 5_500), joined);
    expect(later.data.projects[0].points).toBe(first.data.projects[0].points);
    store.take([{ type: 'snapshot', ...later, reason: 'resync' }]);
    expect(store.channel('d1', 'crack')).toMatchObject({ value: 2, ts: 5_500 });
    expect(store.channel('d1', 'tilt')).toMatchObject({ value: 5, ts: 5_500 });
    // A channel a tile asked for that no snapshot has is forgotten at the next one.
    store.channel('d9', 'ghost').value = 1;
    store.take([{ type: 'snapshot', ...viewOf(snapshot(7_000, 3, 6_500), joined), reason: 'resync' }]);
    expect(store.channel('d9', 'ghost').value).toBeNull();
    expect(store.channel('d1', 'crack')).toMatchObject({ value: 3, ts: 6_500 });
  });

  it('forgets a channel no snapshot has when another channel is shown by two points', () => {
    const store = new ScreenChannels();
    const twice = snapshot(5_000);
    const [first] = twice.projects[0].points;
    twice.projects[0].points.push({ ...first, id: 'm2', name: 'm2', channels: [first.channels[0]] });
    store.take([{ type: 'snapshot', ...viewOf(twice), reason: 'connect' }]);
    store.channel('d9', 'ghost').value = 1;
    store.take([{ type: 'snapshot', ...viewOf(twice), reason: 'resync' }]);
    expect(store.channel('d9', 'ghost').value).toBeNull();
  });
});
