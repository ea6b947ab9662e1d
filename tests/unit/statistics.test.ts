// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { StatsChanged } from '../../resources/wire/statistics';
import { grainOf, nextSampleAt, SAMPLE_INTERVAL_MS } from '../../server/ingest/presence-sampler';
import { STATS_INTERVAL_MS, StatsThrottle, type ThrottleClock } from '../../server/realtime/stats';
import { tally } from '../../server/series/store';
import { daysBetween, grainFor, MAX_SAMPLES } from '../../server/modules/wit-xinde/statistics-figures';

/** The pieces of the statistics (docs/statistics.md) that need no server: the throttle, the grains, the days. */

/** A clock the test moves: timers fire when it passes them, in order. */
class FakeClock implements ThrottleClock {
  private time = 1_000_000;
  private readonly timers = new Set<{ at: number; run: () => void }>();

  now = () => this.time;

  later = (ms: number, run: () => void) => {
    const timer = { at: this.time + ms, run };
    this.timers.add(timer);
    return { stop: () => void this.timers.delete(timer) };
  };

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due);
      this.time = due.at;
      due.run();
    }
    this.time = until;
  }

  get pending(): number {
    return this.timers.size;
  }
}

describe('the stats.changed throttle', () => {
  const setup = () => {
    const clock = new FakeClock();
    const sent: StatsChanged[] = [];
    const throttle = new StatsThrottle((_tenant, body) => sent.push(body), clock);
    return { clock, sent, throttle };
  };

  it('tells a quiet tenant at once, then gathers what changes within two seconds into one event at their end', () => {
    const { clock, sent, throttle } = setup();
    throttle.changed('100001', 'readings');
    expect(sent).toEqual([{ tenantId: '100001', what: ['readings'], at: 1_000_000 }]);
    clock.advance(500);
    throttle.changed('100001', 'alarms');
    clock.advance(500);
    throttle.changed('100001', 'presence');
    throttle.changed('100001', 'readings');
    expect(sent).toHaveLength(1);
    clock.advance(STATS_INTERVAL_MS - 1000 - 1);
    expect(sent).toHaveLength(1);
    clock.advance(1);
    expect(sent[1]).toEqual({ tenantId: '100001', what: ['alarms', 'presence', 'readings'], at: 1_000_000 + STATS_INTERVAL_MS });
    expect(clock.pending).toBe(0);
  });

  it('sends at most one event per tenant every two seconds, and the last change is always told', () => {
    const { clock, sent, throttle } = setup();
    for (let i = 0; i < 100; i++) {
      throttle.changed('100001', i % 2 ? 'readings' : 'presence');
      clock.advance(170);
    }
    clock.advance(STATS_INTERVAL_MS);
    const times = sent.map((s) => s.at);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(STATS_INTERVAL_MS);
    // 17 s of changes: the first at once, then one every two seconds, the last one after the changes stopped.
    expect(sent).toHaveLength(10);
    expect(sent.at(-1)?.at).toBeGreaterThan(1_000_000 + 99 * 170);
  });

  it('keeps tenants apart', () => {
    const { clock, sent, throttle } = setup();
    throttle.changed('100001', 'readings');
    throttle.changed('100002', 'alarms');
    throttle.changed('100001', 'alarms');
    expect(sent.map((s) => [s.tenantId, s.what])).toEqual([
      ['100001', ['readings']],
      ['100002', ['alarms']],
    ]);
    clock.advance(STATS_INTERVAL_MS);
    expect(sent.map((s) => [s.tenantId, s.what])).toEqual([
      ['100001', ['readings']],
      ['100002', ['alarms']],
      ['100001', ['alarms']],
    ]);
  });

  it('stops its timers', () => {
    const { clock, sent, throttle } = setup();
    throttle.changed('100001', 'readings');
    throttle.changed('100001', 'alarms');
    throttle.stop();
    expect(clock.pending).toBe(0);
    clock.advance(STATS_INTERVAL_MS);
    expect(sent).toHaveLength(1);
  });
});

describe('online samples', () => {
  const at = (hour: number, minute: number) => new Date(2026, 2, 10, hour, minute).getTime();

  it('fall on ten-minute boundaries and know the coarsest boundary they are on', () => {
    expect(nextSampleAt(at(9, 3))).toBe(at(9, 10));
    expect(nextSampleAt(at(9, 10))).toBe(at(9, 20));
    expect(SAMPLE_INTERVAL_MS).toBe(600_000);
    expect([grainOf(at(9, 10)), grainOf(at(9, 0)), grainOf(at(12, 0)), grainOf(at(0, 0)), grainOf(at(18, 50))]).toEqual([0, 1, 2, 3, 0]);
  });

  it('are read at a grain that keeps a chart within its points', () => {
    const hour = 3_600_000;
    expect(grainFor(0, 24 * hour)).toBe(0);
    expect(grainFor(0, 10 * 24 * hour)).toBe(0);
    expect(grainFor(0, 11 * 24 * hour)).toBe(1);
    expect(grainFor(0, 31 * 24 * hour)).toBe(1);
    expect(grainFor(0, 366 * 24 * hour)).toBe(2);
    expect((366 * 24) / 6).toBeLessThanOrEqual(MAX_SAMPLES);
  });
});

describe('days of the counters', () => {
  it('lists the local days of a range, both ends included, across months and years', () => {
    expect(daysBetween(new Date(2025, 11, 30, 18).getTime(), new Date(2026, 0, 2, 1).getTime())).toEqual(['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
    expect(daysBetween(new Date(2026, 1, 3).getTime(), new Date(2026, 1, 3, 23, 59).getTime())).toEqual(['2026-02-03']);
  });

  it('counts a point under the local month and day of its time', () => {
    expect(tally.monthDay(new Date(2026, 0, 31, 23, 59, 59, 999).getTime())).toMatchObject({ month: '2026-01', day: 31 });
    expect(tally.monthDay(new Date(2026, 1, 1).getTime())).toMatchObject({ month: '2026-02', day: 1 });
    const counted = new tally.Tally();
    counted.add('D1', '100001', null, new Date(2026, 0, 31, 12).getTime());
    counted.add('D1', '100001', null, new Date(2026, 0, 31, 13).getTime());
    counted.add('D1', '100001', 'P1', new Date(2026, 1, 1, 0).getTime());
    const [devices, projects] = counted.rows();
    const row = (key: string[], total: number, days: Record<number, number>) => [...key, total, ...Array.from({ length: 31 }, (_, i) => days[i + 1] ?? 0)];
    expect(devices).toEqual([row(['D1', '2026-01'], 2, { 31: 2 }), row(['D1', '2026-02'], 1, { 1: 1 })]);
    expect(projects).toEqual([row(['100001', '0', '2026-01'], 2, { 31: 2 }), row(['100001', 'P1', '2026-02'], 1, { 1: 1 })]);
  });

  it("hands PostgreSQL's writer the counted days as arrays, in rounds in which no row comes twice", () => {
    const counted = new tally.Tally();
    for (const [device, day, hour] of [['D2', 3, 1], ['D1', 3, 1], ['D1', 3, 2], ['D1', 4, 1], ['D1', 5, 1]] as const) {
      counted.add(device, '100001', 'P1', new Date(2026, 1, day, hour).getTime());
    }
    const [devices, projects] = counted.dayRounds();
    expect(devices).toEqual([
      [['D1', 'D2'], ['2026-02', '2026-02'], [3, 3], [2, 1]],
      [['D1'], ['2026-02'], [4], [1]],
      [['D1'], ['2026-02'], [5], [1]],
    ]);
    expect(projects).toEqual([[['100001'], ['P1'], ['2026-02'], [3], [3]], [['100001'], ['P1'], ['2026-02'], [4], [1]], [['100001'], ['P1'], ['2026-02'], [5], [1]]]);
  });
});
