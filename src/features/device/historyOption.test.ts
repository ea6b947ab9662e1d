import { describe, expect, it } from 'vitest';
import type { HistoryChartData } from '../../../streams/history';
import { historyOption } from './historyOption';

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
    expect(option.yAxis.map((a) => a.name)).toEqual(['mm', '°C']);
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
});
