import { useLingui } from '@lingui/react/macro';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { memo, useEffect, useRef } from 'react';
import { animationFrameScheduler, auditTime, filter, from, map, type Observable, startWith, switchMap, of } from 'rxjs';
import { displayUnit } from '../../../resources/readings';
import type { ScreenProject, ScreenReading } from '../../../resources/wire/screen';
import type { ScreenStreamEvent } from '../../../streams/screen';
import { channelKey, parseChannel, TREND_HOURS, type TrendChannel, trendPoints } from '../../../streams/screenTrend';
import type { WallRuntime } from './wallRuntime';

// Only what the trend panel draws; the wall's chunk carries it, never the login bundle.
echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const COLOURS = ['#4cc9f0', '#f9c74f', '#90be6d', '#f8961e', '#c77dff', '#43aa8b', '#f94144', '#577590'];
const MIN_WIDTH = 100;
const MAX_WIDTH = 2000;

interface Line {
  channel: TrendChannel;
  name: string;
}

/** The charted channels of the project, named by point, channel and unit. */
function linesOf(project: ScreenProject): Line[] {
  const names = new Map(project.points.flatMap((p) => p.channels.map((c) => [channelKey(c), `${p.name} ${c.name}${c.unit ? ` (${displayUnit(c.unit)})` : ''}`] as const)));
  return project.trends.flatMap((key) => {
    const channel = parseChannel(key);
    return channel ? [{ channel, name: names.get(key) ?? key }] : [];
  });
}

function baseOption(lines: readonly Line[], scale: number): echarts.EChartsCoreOption {
  const font = Math.round(14 * scale);
  return {
    backgroundColor: 'transparent',
    color: COLOURS,
    animation: false,
    grid: { left: 16, right: 24, top: font * 3, bottom: 8, containLabel: true },
    legend: { top: 0, textStyle: { color: '#cfd8e6', fontSize: font } },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time', axisLabel: { color: '#9fb0c8', fontSize: font }, axisLine: { lineStyle: { color: '#3a4a63' } }, splitLine: { show: false } },
    yAxis: { type: 'value', scale: true, axisLabel: { color: '#9fb0c8', fontSize: font }, splitLine: { lineStyle: { color: '#243247' } } },
    series: lines.map((line) => ({ id: channelKey(line.channel), name: line.name, type: 'line', showSymbol: false, sampling: 'lttb', lineStyle: { width: Math.max(1.5, 2 * scale) }, data: [] })),
  };
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

/**
 * The trend charts of the project's chosen channels: each series' recent history, then its live readings appended
 * straight into the ECharts instance (at most once per frame) — the panel itself does not render again per reading.
 * Series are bounded (streams/screenTrend.ts) and the instance is disposed with the panel.
 */
export const TrendPanel = memo(function TrendPanel({ runtime, project, scale }: { runtime: WallRuntime; project: ScreenProject; scale: number }) {
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const lines = linesOf(project);
  // The chart is made again only when the project or its channels change, not when their values do.
  const identity = `${project.id}|${project.trends.join(',')}|${scale}`;
  useEffect(() => {
    const element = box.current;
    if (!element || lines.length === 0) return;
    const chart = echarts.init(element, undefined, { renderer: 'canvas' });
    chart.setOption(baseOption(lines, scale));
    const width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, element.clientWidth));
    const readings$ = readingsOf(runtime.batches$);
    const syncs$ = syncsOf(runtime.batches$);
    const subscriptions = lines.map(({ channel }) =>
      trendPoints(channel, syncs$, readings$, (c) => from(runtime.client.trend(c, TREND_HOURS, width)))
        .pipe(auditTime(0, animationFrameScheduler))
        .subscribe((points) => chart.setOption({ series: [{ id: channelKey(channel), data: points }] })),
    );
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(element);
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      observer.disconnect();
      chart.dispose();
    };
    // `lines` follows `identity`.
  }, [runtime, identity]);
  if (lines.length === 0) return <div className="vg-wall-empty">{t`暂无趋势曲线`}</div>;
  return <div className="vg-wall-trend" ref={box} data-series={lines.length} />;
});
