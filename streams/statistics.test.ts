import { NEVER, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { StatsChanged } from '../resources/wire/statistics';
import { liveStats, STATS_MAX_WAIT_MS, STATS_POLL_MS, STATS_QUIET_MS, type StatsReason, statsReasons, statsTransport, settle } from './statistics';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const change = (at: number): StatsChanged => ({ tenantId: '100001', what: ['readings'], at });
const changes = { a: change(1), b: change(2), c: change(3), d: change(4) };
const transportOf = (connected$: Observable<boolean>, changes$: Observable<StatsChanged>) => ({ connected$, changes$ });

describe('settle', () => {
  it('emits the last value of a burst once it has been quiet', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const source = hot('a 9ms b 9ms c 100ms d', { a: 1, b: 2, c: 3, d: 4 });
      // c at 20 ms, quiet for 50 ms: 3 at 70 ms; d at 121 ms alone: 4 at 171 ms.
      expectObservable(source.pipe(settle(50, 1_000))).toBe('70ms x 100ms y', { x: 3, y: 4 });
    });
  });

  it('ends a burst that never goes quiet after the longest wait, and starts the next with the following value', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      // A value every 30 ms: never 50 ms of quiet.
      const source = hot('a 29ms b 29ms c 29ms d 29ms e 29ms f|', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
      // The burst of a (0 ms) ends at 100 ms with d (90 ms); e (120 ms) opens the next, f (150 ms) ends it when the
      // source completes — the debounce emits its pending value.
      expectObservable(source.pipe(settle(50, 100))).toBe('100ms x 50ms (y|)', { x: 4, y: 6 });
    });
  });
});

describe('statsReasons', () => {
  it('loads at once, once per burst of changes, and polls only after a silence', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const t = STATS_QUIET_MS;
      // A burst of three changes 100 ms apart at 10 s, then nothing.
      const transport = transportOf(hot<boolean>('t', { t: true }), hot(`10s a 99ms b 99ms c`, changes));
      const reasons: Record<string, StatsReason> = { s: 'start', c: 'change', p: 'poll' };
      // The burst settles t after its last change (10.2 s); the poll comes STATS_POLL_MS after that load.
      const settledAt = 10_000 + 200 + t;
      expectObservable(statsReasons(transport), `^ ${settledAt + STATS_POLL_MS + 1}ms !`).toBe(`s ${settledAt - 1}ms c ${STATS_POLL_MS - 1}ms p`, reasons);
    });
  });

  it('loads at once after a reconnect, not on the first connection', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const transport = transportOf(hot('t 1s f 1s t 1s t', { t: true, f: false }), NEVER);
      expectObservable(statsReasons(transport), '^ 5s !').toBe('s 2001ms r', { s: 'start', r: 'reconnect' });
    });
  });

  it('loads when the screen asks, and the poll waits again from there', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const transport = transportOf(NEVER, NEVER);
      const poll = STATS_POLL_MS;
      expectObservable(statsReasons(transport, hot('30s x')), `^ ${30_000 + poll + 1}ms !`).toBe(`s 29999ms r ${poll - 1}ms p`, { s: 'start', r: 'refresh', p: 'poll' });
    });
  });

  it('polls every STATS_POLL_MS while nothing else happens', () => {
    newScheduler().run(({ expectObservable }) => {
      const transport = transportOf(NEVER, NEVER);
      const poll = STATS_POLL_MS;
      expectObservable(statsReasons(transport), `^ ${2 * poll + 1}ms !`).toBe(`s ${poll - 1}ms p ${poll - 1}ms p`, { s: 'start', p: 'poll' });
    });
  });

  it('refreshes a steady flow of changes at least every STATS_MAX_WAIT_MS', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      // A change every half second for twelve seconds: never a quiet second.
      const steady = Array.from({ length: 24 }, () => 'a').join(' 499ms ');
      const transport = transportOf(NEVER, hot(steady, changes));
      const max = STATS_MAX_WAIT_MS;
      // Bursts end at 5 s and 10.5 s (the next opened at 5.5 s); the flow stops at 11.5 s, quiet at 12.5 s.
      expectObservable(statsReasons(transport), '^ 13s !').toBe(`s ${max - 1}ms c ${max + 499}ms c 1999ms c`, { s: 'start', c: 'change' });
    });
  });
});

describe('liveStats', () => {
  it('shows loading, then each answer; a burst makes one load and a newer reason cancels a running one', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      // A burst a b c (2000 to 2002 ms), then d alone at 5003 ms.
      const transport = transportOf(hot('t', { t: true }), hot('2s abc 3s d', changes));
      let loads = 0;
      const slow = cold('5s x|', { x: 'slow' });
      const load = () => {
        loads += 1;
        // The first load answers quickly, the second (after the first burst) slowly, the third quickly.
        if (loads === 2) return slow;
        return cold('10ms x|', { x: `load ${loads}` });
      };
      const first = 2_002 + STATS_QUIET_MS;
      const second = 5_003 + STATS_QUIET_MS;
      expectObservable(liveStats(transport, load, NEVER, scheduler), `^ ${second + 100}ms !`).toBe(`l 9ms a ${second + 10 - 11}ms c`, {
        l: { status: 'loading' },
        a: { status: 'ready', data: 'load 1' },
        c: { status: 'ready', data: 'load 3' },
      });
      // The slow load of the first burst was still running when the second burst settled: dropped unanswered.
      expectSubscriptions(slow.subscriptions).toBe(`${first}ms ^ ${second - first - 1}ms !`);
    });
  });

  it('keeps the figures shown when a load fails, and recovers on the next reason', () => {
    newScheduler().run(({ hot, cold, expectObservable }) => {
      const transport = transportOf(hot('t 1s f 1s t 1s f 1s t', { t: true, f: false }), NEVER);
      let loads = 0;
      const load = () => {
        loads += 1;
        return loads === 2 ? cold<string>('-#', undefined, new Error('网络异常')) : cold('x|', { x: `load ${loads}` });
      };
      expectObservable(liveStats(transport, load), '^ 5s !').toBe('(la) 1999ms e 2000ms b', {
        l: { status: 'loading' },
        a: { status: 'ready', data: 'load 1' },
        e: { status: 'error', data: 'load 1', error: '网络异常' },
        b: { status: 'ready', data: 'load 3' },
      });
    });
  });
});

describe('statsTransport', () => {
  it('maps the socket event and the connection, and lets go of its listeners', () => {
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const socket = {
      connected: true,
      active: true,
      connect: () => undefined,
      on(event: string, listener: (...args: unknown[]) => void) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)?.add(listener);
      },
      off(event: string, listener: (...args: unknown[]) => void) {
        listeners.get(event)?.delete(listener);
      },
    };
    const emit = (event: string, value?: unknown) => {
      for (const listener of listeners.get(event) ?? []) listener(value);
    };
    const transport = statsTransport(socket);
    const seen: unknown[] = [];
    const a = transport.connected$.subscribe((up) => seen.push(up));
    const b = transport.changes$.subscribe((c) => seen.push(c.at));
    emit('stats.changed', change(7));
    emit('disconnect');
    expect(seen).toEqual([true, 7, false]);
    a.unsubscribe();
    b.unsubscribe();
    expect([...listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});
