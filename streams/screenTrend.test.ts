import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { ScreenReading, ScreenTrend } from '../resources/wire/screen';
import { bounded, channelKey, parseChannel, type TrendChannel, trendPoints, withPoint } from './screenTrend';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const reading = (deviceId: string, ts: number, values: Record<string, number>): ScreenReading[] => [{ projectId: 'p', deviceId, ts, values }];

describe('trend buffers', () => {
  it('keeps the points within the window before the newest', () => {
    const points: ScreenTrend = [[0, 1], [10, 2], [20, 3], [30, 4]];
    expect(bounded(points, { windowMs: 15, bucketMs: 1 })).toEqual([[20, 3], [30, 4]]);
    expect(bounded(points, { windowMs: 1_000, bucketMs: 1 })).toBe(points);
  });

  it('adds points in time order, one at a known instant replacing it, and drops what falls out of the window', () => {
    const bounds = { windowMs: 100, bucketMs: 1 };
    let points: ScreenTrend = [[10, 1], [20, 2]];
    points = withPoint(points, [15, 9], bounds);
    expect(points).toEqual([[10, 1], [15, 9], [20, 2]]);
    points = withPoint(points, [20, 5], bounds);
    expect(points).toEqual([[10, 1], [15, 9], [20, 5]]);
    points = withPoint(points, [115, 7], bounds);
    expect(points).toEqual([[15, 9], [20, 5], [115, 7]]);
  });

  it("holds one point per bucket at the live end, so a fast channel keeps the chart's whole window", () => {
    const bounds = { windowMs: 1_000, bucketMs: 100 };
    let points: ScreenTrend = [[0, 1], [100, 2]];
    // Ten readings per bucket for ten buckets: each bucket keeps its newest; [0, 1] falls out of the window.
    for (let ts = 110; ts < 1_100; ts += 10) points = withPoint(points, [ts, ts], bounds);
    expect(points).toEqual(Array.from({ length: 10 }, (_, i) => [190 + i * 100, 190 + i * 100]));
    // A late point inside the series is inserted, not folded into a bucket.
    expect(withPoint(points, [295, -1], bounds)).toHaveLength(11);
  });

  it('names channels deviceId:pointKey, keys holding colons too', () => {
    const channel: TrendChannel = { deviceId: '186', pointKey: 'a:b' };
    expect(parseChannel(channelKey(channel))).toEqual(channel);
    expect(parseChannel('nokey:')).toBeUndefined();
    expect(parseChannel(':x')).toBeUndefined();
  });
});

describe('trendPoints', () => {
  it("fetches the history on every sync, appends the channel's live readings (those before the history too), and ignores others", () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const channel: TrendChannel = { deviceId: 'd1', pointKey: 'crack' };
      const histories = [cold<ScreenTrend>('---h|', { h: [[100, 1], [200, 2]] }), cold<ScreenTrend>('-h|', { h: [[100, 1], [200, 2], [300, 3], [400, 4]] })];
      let loads = 0;
      const syncs = hot('s---------s----', { s: 1 });
      const readings = hot('-a-b-c------d--', {
        a: reading('d1', 300, { crack: 3 }),
        b: reading('d2', 350, { crack: 9 }),
        c: reading('d1', 400, { crack: 4, tilt: 1 }),
        d: reading('d1', 500, { crack: 5 }),
      });
      const points = trendPoints(channel, syncs, readings, () => histories[loads++], { windowMs: 10_000, bucketMs: 1 });
      expectObservable(points).toBe('---x-y-----wz--', {
        x: [[100, 1], [200, 2], [300, 3]],
        y: [[100, 1], [200, 2], [300, 3], [400, 4]],
        // The second sync starts again from its own history.
        w: [[100, 1], [200, 2], [300, 3], [400, 4]],
        z: [[100, 1], [200, 2], [300, 3], [400, 4], [500, 5]],
      });
    });
  });

  it('shows live points even when the history cannot be fetched', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const points = trendPoints({ deviceId: 'd1', pointKey: 'crack' }, hot('s', { s: 1 }), hot('--a', { a: reading('d1', 1, { crack: 1 }) }), () => cold<ScreenTrend>('-#'), { windowMs: 10, bucketMs: 1 });
      expectObservable(points).toBe('-xy', { x: [], y: [[1, 1]] });
    });
  });
});
