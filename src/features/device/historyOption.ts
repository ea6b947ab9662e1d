import { displayUnit, formatReading } from '../../../resources/readings';
import type { HistoryChartData, TimeRange } from '../../../streams/history';

/** ECharts option of a history chart: one line per series, and its min/max band when the server bucketed it. */

const PALETTE = ['#409eff', '#e6a23c', '#67c23a', '#f56c6c', '#909399', '#9c27b0', '#00bcd4', '#795548'];

export interface ZoomPercent {
  start: number;
  end: number;
}

interface TooltipParam {
  seriesId?: string;
  seriesName?: string;
  marker?: string;
  value?: [number, number];
}

export function historyOption(chart: HistoryChartData, extent: TimeRange, zoom: ZoomPercent = { start: 0, end: 100 }) {
  // One value axis per unit: the first on the left, the others share the right.
  const units = [...new Set(chart.series.map((s) => s.unit ?? ''))];
  const axisOf = (unit: string | null) => Math.min(1, units.indexOf(unit ?? ''));
  const series = chart.series.flatMap((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const line = { id: `line-${i}`, name: displayUnit(s.name), type: 'line', yAxisIndex: axisOf(s.unit), data: s.data, showSymbol: s.bucketMs === 0 && s.data.length < 200, symbolSize: 4, color, lineStyle: { width: 1.5 }, z: 3 };
    if (!s.buckets?.length) return [line];
    // The band: min stacked with (max - min); same name as the line so the legend toggles both.
    const band = { name: displayUnit(s.name), type: 'line', yAxisIndex: axisOf(s.unit), stack: `band-${i}`, symbol: 'none', silent: true, color, lineStyle: { opacity: 0 }, z: 2 };
    return [
      line,
      { ...band, id: `min-${i}`, data: s.buckets.map((b) => [b[0], b[1]]) },
      { ...band, id: `max-${i}`, data: s.buckets.map((b) => [b[0], b[2] - b[1]]), areaStyle: { color, opacity: 0.18 } },
    ];
  });
  const byId = new Map(chart.series.map((s, i) => [`line-${i}`, s]));
  return {
    animation: false,
    legend: { data: chart.legend.map(displayUnit), top: 0 },
    grid: { left: 56, right: 56, top: 36, bottom: 72 },
    tooltip: {
      trigger: 'axis',
      formatter: (params: TooltipParam[]) => {
        const lines = params.filter((p) => p.seriesId?.startsWith('line-'));
        if (!lines.length) return '';
        const time = new Date(lines[0].value?.[0] ?? 0).toLocaleString();
        return [
          time,
          ...lines.map((p) => {
            const s = byId.get(p.seriesId ?? '');
            return `${p.marker ?? ''}${p.seriesName}: ${formatReading(p.value?.[1], s?.precision, s?.unit)}`;
          }),
        ].join('<br/>');
      },
    },
    xAxis: { type: 'time', min: extent.start, max: extent.end },
    yAxis: units.slice(0, 2).map((unit, i) => ({ type: 'value', scale: true, name: displayUnit(units.length > 2 && i === 1 ? units.slice(1).join(' / ') : unit), position: i === 0 ? 'left' : 'right', splitLine: { show: i === 0 } })),
    dataZoom: [
      { type: 'inside', filterMode: 'none', start: zoom.start, end: zoom.end },
      { type: 'slider', filterMode: 'none', start: zoom.start, end: zoom.end, bottom: 16 },
    ],
    series,
  };
}
