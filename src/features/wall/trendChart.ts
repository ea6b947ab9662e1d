import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { ScreenTrend } from '../../../resources/wire/screen';

/**
 * The wall screen's trend chart, drawn where the panel puts it: on an OffscreenCanvas in a worker (trendWorker.ts),
 * so that laying out and painting the chart never holds the page's main thread, or on the page where a browser
 * cannot hand a canvas to a worker. Nothing here touches the DOM but the element it is given. No tooltip: a wall
 * screen is looked at, not pointed at.
 */
echarts.use([LineChart, GridComponent, LegendComponent, CanvasRenderer]);

const COLOURS = ['#4cc9f0', '#f9c74f', '#90be6d', '#f8961e', '#c77dff', '#43aa8b', '#f94144', '#577590'];

export interface TrendLine {
  /** The channel's key (streams/screenTrend.ts channelKey). */
  id: string;
  name: string;
}

export interface TrendSpec {
  lines: TrendLine[];
  /** The screen's scale (format.ts wallScale): type sizes follow it. */
  scale: number;
}

/** CSS pixels, and device pixels per CSS pixel. */
export interface TrendSize {
  width: number;
  height: number;
  pixelRatio: number;
}

/** Series whose points changed, each the whole bounded series. */
export type TrendSeries = ReadonlyArray<{ id: string; points: ScreenTrend }>;

/** What the worker tells the panel: the chart finished drawing (after each update; the panel counts them). */
export type TrendDrawn = { type: 'drawn' };

/** What the panel tells a chart drawn in a worker. */
export type TrendMessage =
  | { type: 'open'; canvas: OffscreenCanvas; spec: TrendSpec; size: TrendSize }
  | { type: 'series'; series: TrendSeries }
  | { type: 'resize'; size: TrendSize };

export interface TrendChart {
  update(series: TrendSeries): void;
  resize(size: TrendSize): void;
  dispose(): void;
}

/** A worker's canvas (a browser without OffscreenCanvas has no such global, and draws on an element). */
const isOffscreen = (target: HTMLElement | OffscreenCanvas): target is OffscreenCanvas => typeof OffscreenCanvas !== 'undefined' && target instanceof OffscreenCanvas;

/** Sizes a worker's canvas in device pixels; ECharts sizes its own canvas in an element. */
function sizeCanvas(target: HTMLElement | OffscreenCanvas, size: TrendSize): void {
  if (isOffscreen(target)) Object.assign(target, { width: size.width * size.pixelRatio, height: size.height * size.pixelRatio });
}

function optionOf({ lines, scale }: TrendSpec): echarts.EChartsCoreOption {
  const font = Math.round(14 * scale);
  return {
    backgroundColor: 'transparent',
    color: COLOURS,
    animation: false,
    grid: { left: 16, right: 24, top: font * 3, bottom: 8, containLabel: true },
    legend: { top: 0, textStyle: { color: '#cfd8e6', fontSize: font } },
    xAxis: { type: 'time', axisLabel: { color: '#9fb0c8', fontSize: font }, axisLine: { lineStyle: { color: '#3a4a63' } }, splitLine: { show: false } },
    yAxis: { type: 'value', scale: true, axisLabel: { color: '#9fb0c8', fontSize: font }, splitLine: { lineStyle: { color: '#243247' } } },
    series: lines.map((line) => ({ id: line.id, name: line.name, type: 'line', showSymbol: false, lineStyle: { width: Math.max(1.5, 2 * scale) }, data: [] })),
  };
}

/**
 * A chart of `spec` in `target` (an element on the page, or a worker's OffscreenCanvas, which ECharts draws on as
 * on a canvas element). Updates arriving while one is drawn are taken together by the next: one layout and paint
 * for all the series that changed. `onDrawn` follows every finished paint.
 */
export function drawTrends(target: HTMLElement | OffscreenCanvas, spec: TrendSpec, size: TrendSize, onDrawn: () => void): TrendChart {
  sizeCanvas(target, size);
  // ECharts' types know only elements; it draws on any canvas-like target (its documented use with node-canvas).
  const chart = echarts.init(target as HTMLElement, undefined, { renderer: 'canvas', width: size.width, height: size.height, devicePixelRatio: size.pixelRatio });
  chart.on('finished', onDrawn);
  chart.setOption(optionOf(spec));
  const pending = new Map<string, ScreenTrend>();
  let scheduled = false;
  const draw = () => {
    scheduled = false;
    if (chart.isDisposed() || pending.size === 0) return;
    const series = [...pending].map(([id, data]) => ({ id, data }));
    pending.clear();
    chart.setOption({ series });
  };
  return {
    update(series) {
      for (const { id, points } of series) pending.set(id, points);
      if (scheduled) return;
      scheduled = true;
      setTimeout(draw, 0);
    },
    resize(next) {
      sizeCanvas(target, next);
      chart.resize({ width: next.width, height: next.height });
    },
    dispose: () => chart.dispose(),
  };
}
