import {
  asyncScheduler,
  catchError,
  concat,
  debounceTime,
  distinctUntilChanged,
  from,
  map,
  type Observable,
  of,
  type SchedulerLike,
  startWith,
  switchMap,
} from 'rxjs';

/** History charts (docs/live-and-history.md): the zoom of a chart drives refetches of its visible range. */

export interface TimeRange {
  start: number;
  end: number;
}

/** [start, min, max, avg, first, last, count] */
export type Bucket = [number, number, number, number, number, number, number];

export interface HistorySeries {
  pointKey: string;
  name: string;
  unit: string | null;
  /** Decimal places of the point, if declared. */
  precision?: number | null;
  deviceCode: string;
  bucketMs: number;
  count: number;
  data: Array<[number, number]>;
  buckets?: Bucket[];
}

export interface HistoryChartData {
  start: number;
  end: number;
  legend: string[];
  series: HistorySeries[];
}

export type HistoryState =
  | { status: 'loading'; range: TimeRange; chart?: HistoryChartData }
  | { status: 'ready'; range: TimeRange; chart: HistoryChartData }
  | { status: 'error'; range: TimeRange; error: string; chart?: HistoryChartData };

export const ZOOM_DEBOUNCE_MS = 300;
/** Ranges differing by less than this fraction of their span are the same request. */
const SAME_RANGE = 0.002;

const sameRange = (a: TimeRange, b: TimeRange) => {
  const tolerance = Math.max(1, (a.end - a.start) * SAME_RANGE);
  return Math.abs(a.start - b.start) <= tolerance && Math.abs(a.end - b.end) <= tolerance;
};

/**
 * The chart's states: the initial range at once, then each zoom after it settled for ZOOM_DEBOUNCE_MS. A new range
 * cancels the request of the previous one (switchMap), so a slow, stale answer never overwrites a newer one; the
 * chart shown stays until its replacement arrives.
 */
export function historyStates(
  initial: TimeRange,
  zooms$: Observable<TimeRange>,
  load: (range: TimeRange) => Promise<HistoryChartData> | Observable<HistoryChartData>,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<HistoryState> {
  let shown: HistoryChartData | undefined;
  return zooms$.pipe(
    debounceTime(ZOOM_DEBOUNCE_MS, scheduler),
    startWith(initial),
    distinctUntilChanged(sameRange),
    switchMap((range) =>
      concat(
        of<HistoryState>({ status: 'loading', range, chart: shown }),
        from(load(range)).pipe(
          map((chart): HistoryState => {
            shown = chart;
            return { status: 'ready', range, chart };
          }),
          catchError((error: unknown) => of<HistoryState>({ status: 'error', range, error: error instanceof Error ? error.message : String(error), chart: shown })),
        ),
      ),
    ),
  );
}

/** The visible time window of a dataZoom event, given the axis extent (ECharts reports percentages or values). */
export function zoomWindow(extent: TimeRange, event: { start?: number; end?: number; startValue?: number; endValue?: number; batch?: Array<{ start?: number; end?: number; startValue?: number; endValue?: number }> }): TimeRange {
  const z = event.batch?.[0] ?? event;
  if (typeof z.startValue === 'number' && typeof z.endValue === 'number') return { start: Math.round(z.startValue), end: Math.round(z.endValue) };
  const span = extent.end - extent.start;
  return { start: Math.round(extent.start + (span * (z.start ?? 0)) / 100), end: Math.round(extent.start + (span * (z.end ?? 100)) / 100) };
}
