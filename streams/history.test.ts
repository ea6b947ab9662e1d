import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { type HistoryChartData, historyStates, type TimeRange, zoomWindow } from './history';

const chartOf = (range: TimeRange): HistoryChartData => ({ ...range, legend: [], series: [] });
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('historyStates', () => {
  it('debounces zooms and drops the answer of a range that was zoomed away from', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const initial = { start: 0, end: 1000 };
      const [a, b, c] = [{ start: 100, end: 900 }, { start: 200, end: 800 }, { start: 300, end: 400 }];
      const zooms = hot('10ms a 89ms b 399ms c', { a, b, c });
      const slowB = cold('500ms x|', { x: chartOf(b) });
      const loads: TimeRange[] = [];
      const load = (range: TimeRange) => {
        loads.push(range);
        if (range === b) return slowB;
        return cold(range === initial ? '--x|' : '10ms x|', { x: chartOf(range) });
      };
      expectObservable(historyStates(initial, zooms, load, scheduler)).toBe('i-r 397ms l 399ms m 9ms n', {
        i: { status: 'loading', range: initial, chart: undefined },
        r: { status: 'ready', range: initial, chart: chartOf(initial) },
        l: { status: 'loading', range: b, chart: chartOf(initial) },
        m: { status: 'loading', range: c, chart: chartOf(initial) },
        n: { status: 'ready', range: c, chart: chartOf(c) },
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
      const zooms = hot('1s a 1s b', { a: same, b: other });
      const load = (range: TimeRange) => (range === other ? cold<HistoryChartData>('-#', undefined, new Error('网络异常')) : cold('x|', { x: chartOf(range) }));
      expectObservable(historyStates(initial, zooms, load, scheduler)).toBe('(ir) 2297ms l e', {
        i: { status: 'loading', range: initial, chart: undefined },
        r: { status: 'ready', range: initial, chart: chartOf(initial) },
        l: { status: 'loading', range: other, chart: chartOf(initial) },
        e: { status: 'error', range: other, error: '网络异常', chart: chartOf(initial) },
      });
    });
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
