import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

// Only what the history chart uses (STACK.md): about half of the full bundle. The title is for exported images.
echarts.use([LineChart, GridComponent, DataZoomComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export interface EChartProps {
  option: object;
  onZoom?: (event: { start?: number; end?: number; startValue?: number; endValue?: number; batch?: Array<{ start?: number; end?: number }> }) => void;
  /** 'svg' in DOM tests (no canvas there); the SVG renderer must then be registered by the caller. */
  renderer?: 'canvas' | 'svg';
  className?: string;
}

/** An ECharts instance (loaded lazily with the history view, never in the login bundle). */
export default function EChart({ option, onZoom, renderer = 'canvas', className }: EChartProps) {
  return (
    <ReactEChartsCore
      echarts={echarts}
      option={option}
      lazyUpdate
      // A refetch may drop the band series (raw points): replace the series list, keep the zoom.
      replaceMerge={['series']}
      className={className}
      style={{ height: '100%', width: '100%' }}
      opts={{ renderer }}
      onEvents={onZoom ? { datazoom: onZoom } : {}}
    />
  );
}

/** A PNG (data URL) of an option drawn off screen: the image gets its own layout, the chart on screen is untouched. */
export function renderImage(option: echarts.EChartsCoreOption, width: number, height: number): string {
  const box = document.createElement('div');
  box.style.cssText = `position:fixed;left:-10000px;top:0;width:${width}px;height:${height}px`;
  document.body.append(box);
  const chart = echarts.init(box, undefined, { renderer: 'canvas', width, height });
  try {
    chart.setOption(option);
    return chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
  } finally {
    chart.dispose();
    box.remove();
  }
}
