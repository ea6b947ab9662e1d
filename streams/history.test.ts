import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { coversLittle, dataBounds, fitExtent, type HistoryChartData, type HistoryCommand, type HistorySeries, historyStates, type TimeRange, zoomWindow } from './history';

const H = 3_600_000;
const chartOf = (range: TimeRange): HistoryChartData => ({ ...range, legend: [], series: [] });
const seriesOf = (data: Array<[number, number]>, bucketMs = 0): HistorySeries => ({ pointKey: 'k', name: 'k', unit: null, deviceCode: 'D', bucketMs, count: data.length, data });
const withData = (range: TimeRange, data: Array<[number, number]>): HistoryChartData => ({ ...chartOf(range), series: [seriesOf(data)] });
const zoom = (window: TimeRange): HistoryCommand => ({ kind: 'zoom', window });
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('historyStates', () => {
  it('debounces zooms and drops the answer of a range that was zoomed away from', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const initial = { start: 0, end: 1000 };
      const [a, b, c] = [{ start: 100, end: 900 }, { start: 200, end: 800 }, { start: 300, end: 400 }];
      const zooms = hot('10ms a 89ms b 399ms c', { a: zoom(a), b: zoom(b), c: zoom(c) });
      const slowB = cold('500ms x|', { x: chartOf(b) });
      const loads: TimeRange[] = [];
      const load = (range: TimeRange) => {
        loads.push(range);
        if (range === b) return slowB;
        return cold(range === initial ? '--x|' : '10ms x|', { x: chartOf(range) });
      };
      const view = (range: TimeRange) => ({ range, extent: initial, fitted: false });
      expectObservable(historyStates(initial, zooms, load, scheduler)).toBe('i-r 397ms l 399ms m 9ms n', {
        i: { status: 'loading', ...view(initial) },
        r: { status: 'ready', ...view(initial), chart: chartOf(initial), overview: chartOf(initial) },
        l: { status: 'loading', ...view(b), chart: chartOf(initial), overview: chartOf(initial) },
        m: { status: 'loading', ...view(c), chart: chartOf(initial), overview: chartOf(initial) },
        // The slider keeps previewing the whole extent's answer; the plot draws the zoomed one.
        n: { status: 'ready', ...view(c), chart: chartOf(c), overview: chartOf(initial) },
      });
      // b's request was running when c arrived: unsubscribed, its answer never shown.
      expectSubscriptions(slowB.subscriptions).toBe('400ms ^ 399ms !');
      scheduler.flush();
      expect(loads).toEqual([initial, b, c]);
    });
  });

  it('skips a zoom back to the range already shown, and reports a failure keeping the last chart', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const initial = { start: 0, end: 100_000 };
      const same = { start: 10, end: 100_010 };
      const other = { start: 0, end: 50_000 };
      const zooms = hot('1s a 1s b', { a: zoom(same), b: zoom(other) });
      const load = (range: TimeRange) => (range === other ? cold<HistoryChartData>('-#', undefined, new Error('网络异常')) : cold('x|', { x: chartOf(range) }));
      const shown = { chart: chartOf(initial), overview: chartOf(initial) };
      expectObservable(historyStates(initial, zooms, load, scheduler)).toBe('(ir) 2297ms l e', {
        i: { status: 'loading', range: initial, extent: initial, fitted: false },
        r: { status: 'ready', range: initial, extent: initial, fitted: false, ...shown },
        l: { status: 'loading', range: other, extent: initial, fitted: false, ...shown },
        e: { status: 'error', range: other, extent: initial, fitted: false, error: '网络异常', ...shown },
      });
    });
  });

  it('fits the axis to data covering little of the range at once, back to the full range and fitted again on demand', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const initial = { start: 0, end: 100 * H };
      // Two hours of data at the end of 100: 2 % of the range.
      const coarse = withData(initial, [[90 * H, 1], [92 * H, 2]]);
      const fit = fitExtent({ start: 90 * H, end: 92 * H }, initial);
      const fine = withData(fit, [[90 * H, 1], [91 * H, 5], [92 * H, 2]]);
      const load = (range: TimeRange) => cold('5ms x|', { x: range === initial ? coarse : range.start === fit.start && range.end === fit.end ? fine : chartOf(range) });
      const commands = hot<HistoryCommand>('100ms f 100ms z 99ms u', { f: { kind: 'full' }, z: zoom({ start: 0, end: 50 * H }), u: { kind: 'fit' } });
      const fitted = { range: fit, extent: fit, fitted: true };
      const whole = { range: initial, extent: initial, fitted: false };
      expectObservable(historyStates(initial, commands, load, scheduler)).toBe('i 4ms a 4ms b 89ms c 4ms d 195ms e 4ms g', {
        i: { status: 'loading', ...whole },
        // The coarse answer drawn on the fitted axis while the finer one loads.
        a: { status: 'loading', ...fitted, chart: coarse, overview: coarse },
        b: { status: 'ready', ...fitted, chart: fine, overview: fine },
        c: { status: 'loading', ...whole, chart: fine, overview: fine },
        // Asked for: the full range stays, not fitted again.
        d: { status: 'ready', ...whole, chart: coarse, overview: coarse },
        // A zoom pending when the fit came is dropped; the fit does not wait for the debounce.
        e: { status: 'loading', ...fitted, chart: coarse, overview: coarse },
        g: { status: 'ready', ...fitted, chart: fine, overview: fine },
      });
    });
  });

  it('keeps the full range when the data fills it, or when there is none', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, hot, expectObservable }) => {
      const initial = { start: 0, end: 10 * H };
      const spread = withData(initial, [[H, 1], [9 * H, 2]]);
      const never = hot<HistoryCommand>('');
      expectObservable(historyStates(initial, never, () => cold('x|', { x: spread }), scheduler)).toBe('(ir)', {
        i: { status: 'loading', range: initial, extent: initial, fitted: false },
        r: { status: 'ready', range: initial, extent: initial, fitted: false, chart: spread, overview: spread },
      });
      // A fit without data does nothing.
      const fits = hot<HistoryCommand>('5ms u', { u: { kind: 'fit' } });
      expectObservable(historyStates(initial, fits, () => cold('x|', { x: chartOf(initial) }), scheduler)).toBe('(ir)', {
        i: { status: 'loading', range: initial, extent: initial, fitted: false },
        r: { status: 'ready', range: initial, extent: initial, fitted: false, chart: chartOf(initial), overview: chartOf(initial) },
      });
    });
  });
});

describe('the data extent', () => {
  it('spans every series, a bucket to its end', () => {
    const chart: HistoryChartData = { start: 0, end: 100, legend: [], series: [seriesOf([[10, 1], [20, 1]], 5), seriesOf([[5, 1], [12, 1]]), seriesOf([])] };
    expect(dataBounds(chart)).toEqual({ start: 5, end: 24 });
    expect(dataBounds(chartOf({ start: 0, end: 1 }))).toBeUndefined();
  });

  it('fits with a margin inside the range; a single point gets a minute either side', () => {
    const range = { start: 0, end: 100 * H };
    expect(fitExtent({ start: 10 * H, end: 20 * H }, range)).toEqual({ start: 10 * H - 0.4 * H, end: 20 * H + 0.4 * H });
    expect(fitExtent({ start: 50 * H, end: 50 * H }, range)).toEqual({ start: 50 * H - 60_000, end: 50 * H + 60_000 });
    expect(fitExtent({ start: 0, end: 100 * H - 1 }, range)).toEqual(range);
  });

  it('fits at once below a third of the range', () => {
    const range = { start: 0, end: 30 };
    expect(coversLittle({ start: 0, end: 9 }, range)).toBe(true);
    expect(coversLittle({ start: 0, end: 10 }, range)).toBe(false);
  });
});

describe('zoomWindow', () => {
  it('reads percentages against the axis extent, or the values ECharts gives', () => {
    const extent = { start: 1000, end: 2000 };
    expect(zoomWindow(extent, { start: 25, end: 50 })).toEqual({ start: 1250, end: 1500 });
    expect(zoomWindow(extent, { batch: [{ start: 0, end: 10 }] })).toEqual({ start: 1000, end: 1100 });
    expect(zoomWindow(extent, { startValue: 1234.4, endValue: 1500 })).toEqual({ start: 1234, end: 1500 });
  });
});
