import * as echarts from 'echarts/core';
import { drawTrends, type TrendChart, type TrendDrawn, type TrendMessage } from './trendChart';

/**
 * The trend chart's worker (trendChart.ts): it owns the panel's canvas and draws on it off the page's main thread.
 * ECharts measures text on a canvas it makes: here, an OffscreenCanvas.
 */
echarts.setPlatformAPI({ createCanvas: () => new OffscreenCanvas(1, 1) as unknown as HTMLCanvasElement });
// ECharts' non-production build (a `vite build` under NODE_ENV=test, as the e2e suite's) reads `window` or, where
// there is none, Node's `global`: a worker has neither.
(globalThis as { global?: unknown }).global ??= globalThis;

let chart: TrendChart | undefined;

// Typed with the page's lib (a worker lib beside DOM would clash): a worker's `self` takes messages the same way.
self.onmessage = ({ data }: MessageEvent<TrendMessage>) => {
  if (data.type === 'open') chart = drawTrends(data.canvas, data.spec, data.size, () => self.postMessage({ type: 'drawn' } satisfies TrendDrawn));
  else if (data.type === 'series') chart?.update(data.series);
  else chart?.resize(data.size);
};
