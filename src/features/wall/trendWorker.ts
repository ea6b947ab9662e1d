import * as echarts from 'echarts/core';
import { drawTrends, type TrendChart, type TrendMessage } from './trendChart';

/**
 * The trend chart's worker (trendChart.ts): it owns the panel's canvas and draws on it off the page's main thread.
 * ECharts measures text on a canvas it makes: here, an OffscreenCanvas.
 */
echarts.setPlatformAPI({ createCanvas: () => new OffscreenCanvas(1, 1) as unknown as HTMLCanvasElement });

let chart: TrendChart | undefined;

// Typed with the page's lib (a worker lib beside DOM would clash): a worker's `self` takes messages the same way.
self.onmessage = ({ data }: MessageEvent<TrendMessage>) => {
  if (data.type === 'open') chart = drawTrends(data.canvas, data.spec, data.size);
  else if (data.type === 'series') chart?.update(data.series);
  else chart?.resize(data.size);
};
