import {
  asyncScheduler,
  catchError,
  concat,
  debounce,
  defer,
  filter,
  from,
  map,
  type Observable,
  of,
  type SchedulerLike,
  startWith,
  switchMap,
  timer,
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
  /** The device's code and name (device charts). */
  code?: string;
  name?: string;
  start: number;
  end: number;
  legend: string[];
  series: HistorySeries[];
}

/** What the operator does to the chart: zoom (the visible window), fit the axis to the data, or back to the full range. */
export type HistoryCommand = { kind: 'zoom'; window: TimeRange } | { kind: 'fit' } | { kind: 'full' };

interface View {
  /** The window to fetch. */
  range: TimeRange;
  /** The x axis: the chosen range, or the data's extent once fitted. */
  extent: TimeRange;
  fitted: boolean;
}

interface Shown {
  /** The last answer: what the plot draws. */
  chart?: HistoryChartData;
  /** The last answer covering the whole extent: what the zoom slider previews. */
  overview?: HistoryChartData;
}

export type HistoryState = View &
  (
    | ({ status: 'loading' } & Shown)
    | ({ status: 'ready'; chart: HistoryChartData } & Shown)
    | ({ status: 'error'; error: string } & Shown)
  );

export const ZOOM_DEBOUNCE_MS = 300;
/** Ranges differing by less than this fraction of their span are the same request. */
const SAME_RANGE = 0.002;
/** Data spanning less than this share of the range is fitted to at once. */
const FIT_BELOW = 1 / 3;
/** Margin around fitted data: a share of its span, at least a minute (a single point still gets a window). */
const FIT_MARGIN = 0.04;
const MIN_FIT_MARGIN_MS = 60_000;

const sameRange = (a: TimeRange, b: TimeRange) => {
  const tolerance = Math.max(1, (a.end - a.start) * SAME_RANGE);
  return Math.abs(a.start - b.start) <= tolerance && Math.abs(a.end - b.end) <= tolerance;
};
const sameView = (a: View, b: View) => sameRange(a.range, b.range) && sameRange(a.extent, b.extent);

/** First..last instant of the chart's data over all series; a bucket reaches to its end, not its start. */
export function dataBounds(chart: HistoryChartData): TimeRange | undefined {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const s of chart.series) {
    if (!s.data.length) continue;
    start = Math.min(start, s.data[0][0]);
    end = Math.max(end, s.data[s.data.length - 1][0] + Math.max(0, s.bucketMs - 1));
  }
  return start <= end ? { start, end } : undefined;
}

/** The data's extent with a small margin, inside the chosen range. */
export function fitExtent(bounds: TimeRange, range: TimeRange): TimeRange {
  const margin = Math.max(MIN_FIT_MARGIN_MS, (bounds.end - bounds.start) * FIT_MARGIN);
  return { start: Math.max(range.start, bounds.start - margin), end: Math.min(range.end, bounds.end + margin) };
}

/** Whether the data fills so little of the range that the line would be a thin strip. */
export function coversLittle(bounds: TimeRange, range: TimeRange): boolean {
  return bounds.end - bounds.start < (range.end - range.start) * FIT_BELOW;
}

/**
 * The chart's states: the initial range at once (fitted to its data when that covers little of it), then each
 * command — a zoom after it settled for ZOOM_DEBOUNCE_MS, a fit or a return to the full range at once. A new window
 * cancels the request of the previous one (switchMap), so a slow, stale answer never overwrites a newer one; the
 * chart shown stays until its replacement arrives.
 */
export function historyStates(
  initial: TimeRange,
  commands$: Observable<HistoryCommand>,
  load: (range: TimeRange) => Promise<HistoryChartData> | Observable<HistoryChartData>,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<HistoryState> {
  return defer(() => {
    const full: View = { range: initial, extent: initial, fitted: false };
    let current = full;
    let shown: Shown = {};
    /** The data's extent over the whole range (from the answer for it): what a fit fits to. */
    let bounds: TimeRange | undefined;
    const fitted = (): View | undefined => {
      const extent = bounds && fitExtent(bounds, initial);
      return extent && { range: extent, extent, fitted: true };
    };

    const fetch = (view: View, autoFit: boolean): Observable<HistoryState> => {
      current = view;
      return concat(
        of<HistoryState>({ status: 'loading', ...view, ...shown }),
        from(load(view.range)).pipe(
          switchMap((chart) => {
            shown = { chart, overview: sameRange(view.range, view.extent) ? chart : shown.overview };
            if (view === full) bounds = dataBounds(chart);
            const fit = autoFit && bounds && coversLittle(bounds, initial) ? fitted() : undefined;
            // Fitting at once: the full range's answer is drawn on the fitted axis while the finer one loads.
            if (fit) return fetch(fit, false);
            return of<HistoryState>({ status: 'ready', ...view, chart, overview: shown.overview });
          }),
          catchError((error: unknown) => of<HistoryState>({ status: 'error', ...view, error: error instanceof Error ? error.message : String(error), ...shown })),
        ),
      );
    };

    const viewOf = (command: HistoryCommand): View | undefined => {
      if (command.kind === 'zoom') return { ...current, range: command.window };
      return command.kind === 'full' ? full : fitted();
    };

    return commands$.pipe(
      debounce((command) => (command.kind === 'zoom' ? timer(ZOOM_DEBOUNCE_MS, scheduler) : of(command))),
      map(viewOf),
      filter((view): view is View => !!view && !sameView(view, current)),
      map((view) => ({ view, autoFit: false })),
      startWith({ view: full, autoFit: true }),
      switchMap(({ view, autoFit }) => fetch(view, autoFit)),
    );
  });
}

/** The visible time window of a dataZoom event, given the axis extent (ECharts reports percentages or values). */
export function zoomWindow(extent: TimeRange, event: { start?: number; end?: number; startValue?: number; endValue?: number; batch?: Array<{ start?: number; end?: number; startValue?: number; endValue?: number }> }): TimeRange {
  const z = event.batch?.[0] ?? event;
  if (typeof z.startValue === 'number' && typeof z.endValue === 'number') return { start: Math.round(z.startValue), end: Math.round(z.endValue) };
  const span = extent.end - extent.start;
  return { start: Math.round(extent.start + (span * (z.start ?? 0)) / 100), end: Math.round(extent.start + (span * (z.end ?? 100)) / 100) };
}
