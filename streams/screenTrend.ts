import { catchError, map, merge, mergeMap, type Observable, of, scan, filter, switchMap } from 'rxjs';
import type { ScreenReading, ScreenTrend } from '../resources/wire/screen';

/**
 * The trend charts of a wall screen: each chosen channel's recent history, fetched after every connect, with the live
 * readings appended as they come — bounded by a time window and the chart's resolution, so a screen that runs for
 * weeks holds about one point per pixel per series, however fast its channels report.
 */

export interface TrendChannel {
  deviceId: string;
  pointKey: string;
}

/** The key of a channel in a link's `trends`: `deviceId:pointKey` (a point key may itself hold colons). */
export const channelKey = (channel: TrendChannel): string => `${channel.deviceId}:${channel.pointKey}`;

export function parseChannel(key: string): TrendChannel | undefined {
  const at = key.indexOf(':');
  return at > 0 && at < key.length - 1 ? { deviceId: key.slice(0, at), pointKey: key.slice(at + 1) } : undefined;
}

export interface TrendBounds {
  /** Points older than this before the newest are dropped. */
  windowMs: number;
  /**
   * The chart's resolution: a live point in the same bucket as the newest point replaces it (a chart of 24 hours has
   * no pixel for every reading of a device that reports each second), so a series holds about windowMs / bucketMs
   * points however fast its channel reports, and its window stays whole.
   */
  bucketMs: number;
}

export const TREND_HOURS = 24;

/** The bounds of a chart `width` pixels wide over TREND_HOURS: about one point per pixel. */
export const trendBounds = (width: number): TrendBounds => {
  const windowMs = TREND_HOURS * 3_600_000;
  return { windowMs, bucketMs: Math.ceil(windowMs / Math.max(1, width)) };
};

/** The points not older than `windowMs` before the newest. */
export function bounded(points: ScreenTrend, bounds: TrendBounds): ScreenTrend {
  if (points.length === 0) return points;
  const oldest = points[points.length - 1][0] - bounds.windowMs;
  let from = 0;
  while (from < points.length && points[from][0] < oldest) from += 1;
  return from === 0 ? points : points.slice(from);
}

/**
 * A point added in time order, within the bounds: one at an instant already there replaces it, and one newer than
 * the newest, in the newest's bucket, replaces the newest (the bucket shows its latest value).
 */
export function withPoint(points: ScreenTrend, point: [number, number], bounds: TrendBounds): ScreenTrend {
  let at = points.length;
  while (at > 0 && points[at - 1][0] > point[0]) at -= 1;
  const before = points[at - 1];
  const bucketOf = (ts: number) => Math.floor(ts / bounds.bucketMs);
  const replace = before !== undefined && (before[0] === point[0] || (at === points.length && bucketOf(before[0]) === bucketOf(point[0])));
  const next = [...points.slice(0, replace ? at - 1 : at), point, ...points.slice(at)];
  return bounded(next, bounds);
}

type Step = { kind: 'history'; points: ScreenTrend } | { kind: 'point'; point: [number, number] };

interface Fold {
  loaded: boolean;
  points: ScreenTrend;
}

/**
 * One channel's series: on every sync its history is fetched (a failure leaves it empty), and the live readings of
 * the channel are appended — those that came while the history was on its way too. Emits the whole bounded series
 * after each change, for the chart to take as it is.
 */
export function trendPoints(
  channel: TrendChannel,
  syncs$: Observable<unknown>,
  readings$: Observable<readonly ScreenReading[]>,
  load: (channel: TrendChannel) => Observable<ScreenTrend>,
  bounds: TrendBounds,
): Observable<ScreenTrend> {
  const live = readings$.pipe(
    mergeMap((readings) =>
      readings
        .filter((r) => r.deviceId === channel.deviceId && typeof r.values[channel.pointKey] === 'number')
        .map((r): Step => ({ kind: 'point', point: [r.ts, r.values[channel.pointKey]] })),
    ),
  );
  return syncs$.pipe(
    switchMap(() =>
      merge(
        load(channel).pipe(
          catchError(() => of<ScreenTrend>([])),
          map((points): Step => ({ kind: 'history', points })),
        ),
        live,
      ).pipe(
        scan((fold: Fold, step: Step): Fold => {
          if (step.kind === 'point') return { ...fold, points: withPoint(fold.points, step.point, bounds) };
          // The live points that came first are newer than the history's end, or repeat its instants.
          const merged = fold.points.reduce((points, point) => withPoint(points, point, bounds), bounded(step.points, bounds));
          return { loaded: true, points: merged };
        }, { loaded: false, points: [] }),
        filter((fold) => fold.loaded),
        map((fold) => fold.points),
      ),
    ),
  );
}
