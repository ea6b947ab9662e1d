import { useLingui } from '@lingui/react/macro';
import { memo, useEffect, useMemo, useRef } from 'react';
import { filter, from, map, merge, type Observable, of, startWith, switchMap } from 'rxjs';
import { displayUnit } from '../../../resources/readings';
import type { ScreenReading } from '../../../resources/wire/screen';
import type { ProjectView } from '../../../streams/screenSnapshot';
import { batchFrames } from '../../../streams/debug';
import type { ScreenStreamEvent } from '../../../streams/screen';
import { channelKey, parseChannel, TREND_HOURS, type TrendChannel, trendBounds, trendPoints } from '../../../streams/screenTrend';
import { drawTrends, type TrendChart, type TrendDrawn, type TrendMessage, type TrendSeries, type TrendSize, type TrendSpec } from './trendChart';
import type { WallRuntime } from './wallRuntime';

const MIN_WIDTH = 100;
const MAX_WIDTH = 2000;

interface Line {
  channel: TrendChannel;
  name: string;
}

/** The charted channels of the project, named by point, channel and unit. */
function linesOf(project: ProjectView): Line[] {
  const chosen = new Set(project.trends);
  const names = new Map<string, string>();
  for (const p of project.points) {
    for (const c of p.channels) if (chosen.has(channelKey(c))) names.set(channelKey(c), `${p.name} ${c.name}${c.unit ? ` (${displayUnit(c.unit)})` : ''}`);
  }
  return project.trends.flatMap((key) => {
    const channel = parseChannel(key);
    return channel ? [{ channel, name: names.get(key) ?? key }] : [];
  });
}

/** The readings of the screen's batches. */
const readingsOf = (batches$: Observable<readonly ScreenStreamEvent[]>): Observable<ScreenReading[]> =>
  batches$.pipe(
    map((batch) => batch.flatMap((event) => (event.type === 'readings' ? event.readings : []))),
    filter((readings) => readings.length > 0),
  );

/** A history fetch now (the panel just appeared), then after every reconnect (what the drop missed). */
const syncsOf = (batches$: Observable<readonly ScreenStreamEvent[]>): Observable<unknown> =>
  batches$.pipe(
    switchMap((batch) => of(...batch)),
    filter((event) => event.type === 'snapshot' && event.reason === 'connect'),
    startWith(undefined),
  );

const sizeOf = (element: HTMLElement): TrendSize => ({ width: element.clientWidth, height: element.clientHeight, pixelRatio: window.devicePixelRatio || 1 });

/**
 * The chart in `element`: drawn by a worker on a canvas handed to it where the browser can (OffscreenCanvas), so a
 * chart's layout and paint never hold the page; on the page otherwise. The element's `data-drawn` counts the
 * finished paints (what a test or a benchmark can wait for).
 */
function openChart(element: HTMLElement, spec: TrendSpec): TrendChart {
  const size = sizeOf(element);
  let drawn = 0;
  const onDrawn = () => {
    element.dataset.drawn = String(++drawn);
  };
  const canvas = document.createElement('canvas');
  if (typeof Worker === 'undefined' || !('transferControlToOffscreen' in canvas)) return drawTrends(element, spec, size, onDrawn);
  element.replaceChildren(canvas);
  const offscreen = canvas.transferControlToOffscreen();
  const worker = new Worker(new URL('./trendWorker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }: MessageEvent<TrendDrawn>) => data.type === 'drawn' && onDrawn();
  const post = (message: TrendMessage, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  post({ type: 'open', canvas: offscreen, spec, size }, [offscreen]);
  return {
    update: (series) => post({ type: 'series', series }),
    resize: (next) => post({ type: 'resize', size: next }),
    dispose: () => {
      worker.terminate();
      canvas.remove();
    },
  };
}

/**
 * The trend charts of the project's chosen channels: each series' recent history, then its live readings, bounded to
 * about a point per pixel (streams/screenTrend.ts); the series that changed go to the chart together, at most once
 * per animation frame — the panel itself does not render again per reading.
 */
export const TrendPanel = memo(function TrendPanel({ runtime, project, scale }: { runtime: WallRuntime; project: ProjectView; scale: number }) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  // The chart is made again only when the project or its channels change, not when their values do.
  const identity = `${project.id}|${project.trends.join(',')}|${scale}`;
  // `project` follows `identity`.
  const lines = useMemo(() => linesOf(project), [identity]);
  useEffect(() => {
    const element = box.current;
    if (!element || lines.length === 0) return;
    const chart = openChart(element, { lines: lines.map((line) => ({ id: channelKey(line.channel), name: line.name })), scale });
    const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, element.clientWidth));
    const readings$ = readingsOf(runtime.batches$);
    const syncs$ = syncsOf(runtime.batches$);
    const series$ = merge(
      ...lines.map(({ channel }) =>
        trendPoints(channel, syncs$, readings$, (c) => from(runtime.client.trend(c, TREND_HOURS, width)), trendBounds(width)).pipe(map((points) => ({ id: channelKey(channel), points }))),
      ),
    );
    const subscription = series$.pipe(batchFrames()).subscribe((changes: TrendSeries) => chart.update(changes));
    const observer = new ResizeObserver(() => chart.resize(sizeOf(element)));
    observer.observe(element);
    return () => {
      subscription.unsubscribe();
      observer.disconnect();
      chart.dispose();
    };
  }, [runtime, lines, scale]);
  if (lines.length === 0) return <div className="vg-wall-empty">{t`暂无趋势曲线`}</div>;
  return <div className="vg-wall-trend" ref={box} data-series={lines.length} />;
});
