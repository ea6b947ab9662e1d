import { describe, expect, it } from 'vitest';
import type { ScreenChannel, ScreenData, ScreenPoint } from '../resources/wire/screen';
import { decodeSnapshot, type JoinedShapes, joinSnapshot, knownOf, orNull, splitSnapshot, VALUES_PER_CHANNEL, viewOf } from './screenSnapshot';

const channel = (deviceId: string, pointKey: string, value: number | null, ts: number | null, level: number | null = null): ScreenChannel => ({
  deviceId,
  pointKey,
  name: pointKey,
  unit: 'mm',
  precision: 2,
  value,
  previous: value === null ? null : value - 1,
  ts,
  level,
});

const point = (id: string, channels: ScreenChannel[], online = true): ScreenPoint => ({ id, name: id, x: 0.5, y: null, online, channels });

function snapshot(change: { level?: number | null; online?: boolean; pointName?: string; crack?: number } = {}): ScreenData {
  return {
    link: { id: 'l', name: 'wall', layout: 'values', rotateSeconds: 30, expiresAt: null },
    projects: [
      {
        id: 'p1',
        name: 'bridge',
        image: null,
        points: [
          { ...point('m1', [channel('d1', 'crack', change.crack ?? 1.5, 1_000, change.level ?? null), channel('d1', 'tilt', null, null)], change.online ?? true), name: change.pointName ?? 'm1' },
          point('m2', [channel('d2', 'crack', 3, 2_000, 2)]),
        ],
        devices: { total: 2, online: 2, offline: 0, never: 0 },
        pointsToday: 10,
        openAlarms: { '1': 0, '2': 1, '3': 0, '4': 0 },
        trends: ['d1:crack'],
      },
    ],
    alarms: [],
    at: 5_000,
  };
}

/** The data without the channels' values, as the page keeps it. */
const withoutValues = (data: ScreenData) => ({
  ...data,
  projects: data.projects.map((p) => ({
    ...p,
    shape: expect.any(String),
    points: p.points.map((pt) => ({ ...pt, channels: pt.channels.map(({ value: _v, previous: _p, ts: _t, ...c }) => c) })),
  })),
});

/** A snapshot through the worker's and the page's halves, as the page fetches it with what it joined before. */
const throughWorker = (data: ScreenData, joined: JoinedShapes) => joinSnapshot(splitSnapshot(data, knownOf(joined)), joined);

describe('a wall-screen snapshot split off the page and joined on it', () => {
  it('keeps every figure, and every channel value in the values array (none as NaN)', () => {
    const data = snapshot();
    const { data: view, values } = viewOf(data);
    expect(view).toEqual(withoutValues(data));
    const channels = data.projects[0].points.flatMap((p) => p.channels);
    expect(values).toHaveLength(channels.length * VALUES_PER_CHANNEL);
    const read = channels.map((_, i) => [...values.subarray(i * VALUES_PER_CHANNEL, (i + 1) * VALUES_PER_CHANNEL)].map(orNull));
    expect(read).toEqual([
      [1.5, 0.5, 1_000],
      [null, null, null],
      [3, 2, 2_000],
    ]);
  });

  it('sends a shape the page has only by its hash, and the page keeps its objects when nothing changed', () => {
    const joined: JoinedShapes = new Map();
    const first = throughWorker(snapshot(), joined);
    const parts = splitSnapshot(snapshot({ crack: 2 }), knownOf(joined));
    expect([parts.projects[0].points, parts.projects[0].changed]).toEqual([undefined, []]);
    const second = joinSnapshot(parts, joined);
    // The same project object: no panel renders again; the new value is in the values only.
    expect(second.data.projects[0]).toBe(first.data.projects[0]);
    expect(orNull(second.values[0])).toBe(2);
  });

  it('renews only the point whose channel level or presence changed, and the project holding it', () => {
    const joined: JoinedShapes = new Map();
    const first = throughWorker(snapshot(), joined).data.projects[0];
    const part = splitSnapshot(snapshot({ level: 1 }), knownOf(joined)).projects[0];
    expect([part.points, part.changed]).toEqual([undefined, [0]]);
    const raised = throughWorker(snapshot({ level: 1 }), joined).data.projects[0];
    expect(raised).not.toBe(first);
    expect(raised.points[0]).not.toBe(first.points[0]);
    expect(raised.points[0].channels[0].level).toBe(1);
    // Its other channel and the other point are the objects they were.
    expect(raised.points[0].channels[1]).toBe(first.points[0].channels[1]);
    expect(raised.points[1]).toBe(first.points[1]);

    const offline = throughWorker(snapshot({ level: 1, online: false }), joined).data.projects[0];
    expect(offline.points[0]).not.toBe(raised.points[0]);
    expect(offline.points[0]).toMatchObject({ online: false });
    expect(offline.points[0].channels).toEqual(raised.points[0].channels);
    expect(offline.points[1]).toBe(raised.points[1]);
  });

  it('compares again a snapshot asked for before another was joined (the probe’s and the stream’s may cross)', () => {
    const joined: JoinedShapes = new Map();
    throughWorker(snapshot(), joined);
    const older = splitSnapshot(snapshot(), knownOf(joined));
    expect(older.projects[0].changed).toEqual([]);
    joinSnapshot(splitSnapshot(snapshot({ level: 1, online: false }), knownOf(joined)), joined);
    // Joined last, the older snapshot's truth is shown: its nothing-changed was against another join.
    const shown = joinSnapshot(older, joined).data.projects[0].points[0];
    expect(shown.online).toBe(true);
    expect(shown.channels[0].level).toBeNull();
  });

  it('renews a project whose figures changed, keeping its points', () => {
    const joined: JoinedShapes = new Map();
    const first = throughWorker(snapshot(), joined).data.projects[0];
    const data = snapshot();
    data.projects[0].pointsToday = 11;
    const next = throughWorker(data, joined).data.projects[0];
    expect(next).not.toBe(first);
    expect(next.pointsToday).toBe(11);
    expect(next.points).toBe(first.points);
  });

  it('sends a changed shape whole (a point renamed by an administrator)', () => {
    const joined: JoinedShapes = new Map();
    throughWorker(snapshot(), joined);
    const parts = splitSnapshot(snapshot({ pointName: 'north pier' }), knownOf(joined));
    expect(parts.projects[0].points?.map((p) => p.name)).toEqual(['north pier', 'm2']);
    expect(joinSnapshot(parts, joined).data).toEqual(withoutValues(snapshot({ pointName: 'north pier' })));
  });

  it('refuses parts that leave out a shape the page does not have, and forgets projects the snapshot no longer has', () => {
    const joined: JoinedShapes = new Map();
    throughWorker(snapshot(), joined);
    const parts = splitSnapshot(snapshot(), knownOf(joined));
    expect(() => joinSnapshot(parts, new Map())).toThrow(/shape of project p1/);
    joinSnapshot({ ...splitSnapshot({ ...snapshot(), projects: [] }, {}) }, joined);
    expect(joined.size).toBe(0);
  });

  it('decodes the call’s envelope: a refusal with its code and message, or the parts', () => {
    const encode = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer;
    expect(decodeSnapshot(encode({ code: 401, msg: '展示链接已撤销', success: false }), {})).toEqual({ refusal: { code: 401, msg: '展示链接已撤销' } });
    const decoded = decodeSnapshot(encode({ code: 200, msg: '操作成功', data: snapshot(), success: true }), {});
    expect('parts' in decoded && decoded.parts.projects[0].points).toHaveLength(2);
    expect(() => decodeSnapshot(encode('not an envelope').slice(1), {})).toThrow();
  });
});
