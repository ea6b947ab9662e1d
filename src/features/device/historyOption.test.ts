import { describe, expect, it } from 'vitest';
import type { HistoryChartData } from '../../../streams/history';
import { historyOption, imageOption } from './historyOption';

const chart: HistoryChartData = {
  start: 0,
  end: 1000,
  legend: ['裂缝宽度 (mm)', '温度 (℃)'],
  series: [
    { pointKey: 'crack', name: '裂缝宽度 (mm)', unit: 'mm', precision: 3, deviceCode: 'C', bucketMs: 100, count: 30, data: [[0, 2], [100, 3]], buckets: [[0, 1, 5, 2, 1, 4, 10], [100, 2, 9, 3, 2, 3, 20]] },
    { pointKey: 'temperature', name: '温度 (℃)', unit: '℃', deviceCode: 'C', bucketMs: 0, count: 2, data: [[0, 20], [500, 21]] },
  ],
};

describe('historyOption', () => {
  it('draws each line, a min/max band for bucketed series, one axis per unit, the zoom kept', () => {
    const option = historyOption(chart, { start: 0, end: 1000 }, { start: 10, end: 60 });
    expect(option.series.map((s) => s.id)).toEqual(['line-0', 'min-0', 'max-0', 'line-1']);
    const [line, min, max, raw] = option.series as Array<Record<string, unknown>>;
    expect(line.data).toEqual([[0, 2], [100, 3]]);
    expect(min).toMatchObject({ name: '裂缝宽度 (mm)', stack: 'band-0', data: [[0, 1], [100, 2]] });
    // Stacked on the min: the band's height is max - min, so its top edge is the max (the spike survives).
    expect(max).toMatchObject({ stack: 'band-0', data: [[0, 4], [100, 7]] });
    expect(raw).toMatchObject({ yAxisIndex: 1, data: [[0, 20], [500, 21]] });
    // ℃ is drawn as °C, which canvas fonts have.
    expect(option.yAxis.filter((a) => a.show).map((a) => a.name)).toEqual(['mm', '°C']);
    expect(option.legend.data).toEqual(['裂缝宽度 (mm)', '温度 (°C)']);
    expect(option.xAxis).toMatchObject({ type: 'time', min: 0, max: 1000 });
    expect(option.dataZoom.map((z) => [z.start, z.end])).toEqual([[10, 60], [10, 60]]);
  });

  it('lists only the lines in the tooltip, values with the point precision and unit', () => {
    const option = historyOption(chart, { start: 0, end: 1000 });
    const text = option.tooltip.formatter([
      { seriesId: 'line-0', seriesName: '裂缝宽度 (mm)', value: [0, 2.00049999999] },
      { seriesId: 'min-0', seriesName: '裂缝宽度 (mm)', value: [0, 1] },
      { seriesId: 'line-1', seriesName: '温度 (°C)', value: [0, 20.123456789] },
    ]);
    expect(text).toContain('裂缝宽度 (mm): 2.000 mm');
    expect(text).toContain('温度 (°C): 20.1235 °C');
    expect(text).not.toContain(': 1');
  });

  it('previews the one plotted series in the slider over the whole extent, on a hidden axis', () => {
    const one: HistoryChartData = { ...chart, legend: [chart.legend[0]], series: [chart.series[0]] };
    const overview: HistoryChartData = { ...one, series: [{ ...chart.series[0], data: [[-50, 9], [0, 1], [400, 2], [1200, 3]] }] };
    const option = historyOption(one, { start: 0, end: 1000 }, { start: 0, end: 50 }, overview);
    const [preview, line] = option.series as Array<Record<string, unknown>>;
    // First on the axis, so the slider draws it; its ends pinned to the extent, only the points inside it.
    expect(preview).toMatchObject({ id: 'preview', yAxisIndex: 1, data: [[0, null], [0, 1], [400, 2], [1000, null]], lineStyle: { opacity: 0 } });
    expect(line).toMatchObject({ id: 'line-0', yAxisIndex: 0 });
    expect(option.yAxis[1]).toMatchObject({ show: false });
    expect(option.dataZoom[1]).toMatchObject({ type: 'slider', showDataShadow: true });
  });

  it('shows no preview when several series share the chart (the slider could show only one)', () => {
    const option = historyOption(chart, { start: 0, end: 1000 });
    expect(option.series.some((s) => s.id === 'preview')).toBe(false);
    expect(option.dataZoom[1]).toMatchObject({ showDataShadow: false });
  });

  it('draws the image with a title on white, without the slider', () => {
    const one: HistoryChartData = { ...chart, series: [chart.series[0]] };
    const image = imageOption(historyOption(one, { start: 0, end: 1000 }, { start: 20, end: 40 }), 'QJ-CRACK-01 裂缝计', '2026-01-01 00:00:00 — 2026-01-02 00:00:00');
    expect(image).toMatchObject({ backgroundColor: '#fff', title: { text: 'QJ-CRACK-01 裂缝计', subtext: '2026-01-01 00:00:00 — 2026-01-02 00:00:00' } });
    expect(image.dataZoom).toEqual([{ type: 'inside', filterMode: 'none', start: 20, end: 40 }]);
    expect(image.series.map((s) => s.id)).toEqual(['line-0', 'min-0', 'max-0']);
    expect(image.legend.data).toEqual(['裂缝宽度 (mm)', '温度 (°C)']);
  });
});
