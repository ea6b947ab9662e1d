import { formatDateTime } from '../../../resources/datetime';
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

/**
 * `overview` is the answer for the whole extent (the plot may hold a zoomed, finer one): the zoom slider previews it.
 */
export function historyOption(chart: HistoryChartData, extent: TimeRange, zoom: ZoomPercent = { start: 0, end: 100 }, overview: HistoryChartData = chart) {
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
  const valueAxes = units.slice(0, 2).map((unit, i) => ({ type: 'value', scale: true, show: true, name: displayUnit(units.length > 2 && i === 1 ? units.slice(1).join(' / ') : unit), position: i === 0 ? 'left' : 'right', splitLine: { show: i === 0 } }));
  const preview = chart.series.length === 1 ? previewSeries(overview, extent) : undefined;
  return {
    animation: false,
    legend: { data: chart.legend.map(displayUnit), top: 0 },
    grid: { left: 56, right: 56, top: 36, bottom: 72 },
    tooltip: {
      trigger: 'axis',
      formatter: (params: TooltipParam[]) => {
        const lines = params.filter((p) => p.seriesId?.startsWith('line-'));
        if (!lines.length) return '';
        const time = formatDateTime(new Date(lines[0].value?.[0] ?? 0));
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
    yAxis: [...valueAxes, PREVIEW_AXIS],
    dataZoom: [
      { type: 'inside', filterMode: 'none', start: zoom.start, end: zoom.end },
      { type: 'slider', filterMode: 'none', start: zoom.start, end: zoom.end, bottom: 16, showDataShadow: !!preview },
    ],
    series: preview ? [{ ...preview, yAxisIndex: valueAxes.length }, ...series] : series,
  };
}

/** The axis of the slider's preview: hidden, so the preview's values never stretch the plotted axes. */
const PREVIEW_AXIS = { type: 'value', show: false, scale: true, name: '' };

/**
 * The zoom slider previews the first series on the x axis, stretched over the slider whatever the axis extent
 * (ECharts draws the shadow from the series' own data extent). So the preview is a series of its own, first,
 * invisible: the plotted line's data over the whole extent, its ends pinned to the extent by empty points so the
 * shadow lines up with the plot. With several series it would show only one of them: then there is none.
 */
function previewSeries(overview: HistoryChartData, extent: TimeRange) {
  if (overview.series.length !== 1) return undefined;
  const inside = overview.series[0].data.filter(([time]) => time >= extent.start && time <= extent.end);
  const data: Array<[number, number | null]> = [[extent.start, null], ...inside, [extent.end, null]];
  return { id: 'preview', type: 'line', data, symbol: 'none', silent: true, lineStyle: { opacity: 0 }, tooltip: { show: false }, z: 0 };
}

/**
 * The chart as an image file shows: a title, white behind it, no slider (the zoomed window is kept by the inside
 * zoom), the legend and plot moved down under the title.
 */
export function imageOption(option: ReturnType<typeof historyOption>, title: string, subtitle: string) {
  return {
    ...option,
    backgroundColor: '#fff',
    title: { text: title, subtext: subtitle, left: 'center', top: 8, textStyle: { fontSize: 16 } },
    legend: { ...option.legend, top: 60 },
    grid: { ...option.grid, top: 100, bottom: 40 },
    dataZoom: option.dataZoom.filter((zoom) => zoom.type === 'inside'),
    series: option.series.filter((s) => s.id !== 'preview'),
  };
}
