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
  /** A click on a data item (a bar, a point): its series and data index (the data board's panels lead to lists). */
  onClick?: (event: { seriesIndex?: number; dataIndex?: number; name?: string }) => void;
  /** A registered theme ('dark' in the dark shell); the option's own colours still win. */
  theme?: string;
  /** 'svg' in DOM tests (no canvas there); the SVG renderer must then be registered by the caller. */
  renderer?: 'canvas' | 'svg';
  className?: string;
}

/** An ECharts instance (loaded lazily with the history view, never in the login bundle). */
export default function EChart({ option, onZoom, onClick, theme, renderer = 'canvas', className }: EChartProps) {
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
      theme={theme}
      onEvents={{ ...(onZoom ? { datazoom: onZoom } : {}), ...(onClick ? { click: onClick } : {}) }}
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
