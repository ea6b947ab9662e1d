import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

// Only what the history chart uses (STACK.md): about half of the full bundle.
echarts.use([LineChart, GridComponent, DataZoomComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

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
