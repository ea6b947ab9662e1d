import { NEVER, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { ScreenData, ScreenReading } from '../resources/wire/screen';
import { AFTER_MIDNIGHT_MS, lifecycleEvents, nextResyncAt, rotation, RESYNC_MS, type ScreenStreamEvent, type ScreenTransport, type SnapshotAnswer, screenEvents, SNAPSHOT_RETRY_MS } from './screen';
import { viewOf } from './screenSnapshot';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

const data = (at: number): ScreenData => ({
  link: { id: 'l1', name: '大屏', layout: 'structure', rotateSeconds: 30, expiresAt: null },
  projects: [],
  alarms: [],
  at,
});

/** A transport whose streams the test gives; the rest never emit. */
function transport(parts: Partial<ScreenTransport>): ScreenTransport {
  return { connected$: NEVER, refused$: NEVER, heartbeats$: NEVER, readings$: NEVER, alarms$: NEVER, presence$: NEVER, revoked$: NEVER, changed$: NEVER, ...parts };
}

describe('screenEvents', () => {
  it('fetches the snapshot on every connect, cancels a fetch the link dropped under, and passes live events on', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const reading: ScreenReading = { projectId: 'p', deviceId: 'd', ts: 5, values: { crack: 0.3 } };
      let fetches = 0;
      const answers = [cold<SnapshotAnswer>('--a|', { a: { kind: 'data', ...viewOf(data(1)) } }), cold<SnapshotAnswer>('----a|', { a: { kind: 'data', ...viewOf(data(2)) } }), cold<SnapshotAnswer>('-a|', { a: { kind: 'data', ...viewOf(data(3)) } })];
      const events = screenEvents(
        transport({
          connected$: hot('-t-----f-t---f-t----', { t: true, f: false }),
          readings$: hot('-----r--------------', { r: [reading] }),
        }),
        () => answers[fetches++],
        scheduler,
      );
      const up = (at: number): ScreenStreamEvent => ({ type: 'connection', connected: true, at });
      const down = (at: number): ScreenStreamEvent => ({ type: 'connection', connected: false, at });
      expectObservable(events, '^ 25ms !').toBe('-a-b-c-d-e---f-gh', {
        a: [up(1), { type: 'syncing' }],
        b: [{ type: 'snapshot', ...viewOf(data(1)), reason: 'connect' }],
        c: [{ type: 'readings', readings: [reading] }],
        d: [down(7)],
        e: [up(9), { type: 'syncing' }],
        // The second fetch would answer at 13: the drop at 13 cancelled it.
        f: [down(13)],
        g: [up(15), { type: 'syncing' }],
        h: [{ type: 'snapshot', ...viewOf(data(3)), reason: 'connect' }],
      });
    });
  });

  it('fetches again when the link changed, retries a fetch that got no answer, and passes a refusal on', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      let fetches = 0;
      const answers: Observable<SnapshotAnswer>[] = [
        cold('#', undefined, new Error('网络异常')),
        cold('a|', { a: { kind: 'data', ...viewOf(data(1)) } }),
        cold('a|', { a: { kind: 'refused', reason: 'revoked' } }),
      ];
      const events = screenEvents(transport({ connected$: hot('t', { t: true }), changed$: hot(`${SNAPSHOT_RETRY_MS + 10}ms c`, { c: undefined }) }), () => answers[fetches++], scheduler);
      expectObservable(events, `^ ${SNAPSHOT_RETRY_MS + 20}ms !`).toBe(`a ${SNAPSHOT_RETRY_MS - 1}ms b 9ms (cd)`, {
        a: [{ type: 'connection', connected: true, at: 0 }, { type: 'syncing' }],
        b: [{ type: 'snapshot', ...viewOf(data(1)), reason: 'connect' }],
        c: [{ type: 'syncing' }],
        d: [{ type: 'refused', reason: 'revoked' }],
      });
    });
  });

  it('resyncs every RESYNC_MS while connected', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const events = screenEvents(transport({ connected$: hot('t', { t: true }) }), () => cold('a|', { a: { kind: 'data', ...viewOf(data(0)) } as SnapshotAnswer }), scheduler);
      // The timer's syncing and the answer are two scheduler actions of the same instant: two batches.
      expectObservable(events, `^ ${2 * RESYNC_MS + 1}ms !`).toBe(`(ab) ${RESYNC_MS - 4}ms (cd) ${RESYNC_MS - 4}ms (cd)`, {
        a: [{ type: 'connection', connected: true, at: 0 }, { type: 'syncing' }],
        b: [{ type: 'snapshot', ...viewOf(data(0)), reason: 'connect' }],
        c: [{ type: 'syncing' }],
        d: [{ type: 'snapshot', ...viewOf(data(0)), reason: 'resync' }],
      });
    });
  });

  it('passes heartbeats, a revocation and a refused handshake on', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const events = screenEvents(
        transport({ heartbeats$: hot('-h----', { h: undefined }), revoked$: hot('---r--', { r: undefined }), refused$: hot('-----x', { x: undefined }) }),
        () => NEVER,
        scheduler,
      );
      expectObservable(events).toBe('-a-b-c', { a: [{ type: 'heartbeat', at: 1 }], b: [{ type: 'revoked' }], c: [{ type: 'handshakeRefused' }] });
    });
  });
});

describe('nextResyncAt', () => {
  it('is RESYNC_MS away, or just after the coming local midnight when that is sooner', () => {
    const morning = new Date(2026, 0, 10, 10, 0, 0).getTime();
    expect(nextResyncAt(morning)).toBe(morning + RESYNC_MS);
    const late = new Date(2026, 0, 10, 23, 58, 0).getTime();
    expect(nextResyncAt(late)).toBe(new Date(2026, 0, 11, 0, 0, 0).getTime() + AFTER_MIDNIGHT_MS);
  });
});

describe('lifecycleEvents', () => {
  it('tells the machine of connections, syncs and refusals, and once per batch that the link is alive', () => {
    const reading: ScreenReading = { projectId: 'p', deviceId: 'd', ts: 5, values: { crack: 0.3 } };
    expect(
      lifecycleEvents(
        [
          { type: 'connection', connected: true, at: 1 },
          { type: 'syncing' },
          { type: 'snapshot', ...viewOf(data(2)), reason: 'connect' },
          { type: 'readings', readings: [reading] },
          { type: 'heartbeat', at: 3 },
        ],
        9,
      ),
    ).toEqual([{ type: 'socket.up', at: 1 }, { type: 'data.synced', at: 9 }, { type: 'socket.activity', at: 9 }]);
    expect(lifecycleEvents([{ type: 'connection', connected: false, at: 4 }, { type: 'refused', reason: 'expired' }, { type: 'handshakeRefused' }, { type: 'revoked' }], 9)).toEqual([
      { type: 'socket.down', at: 4 },
      { type: 'data.refused', reason: 'expired' },
      { type: 'socket.refused' },
      { type: 'link.revoked' },
    ]);
    expect(lifecycleEvents([{ type: 'syncing' }], 9)).toEqual([]);
  });
});

describe('rotation', () => {
  it('shows the first project at once, then the next every rotateSeconds, round and round', () => {
    const scheduler = newScheduler();
    scheduler.run(({ expectObservable }) => {
      expectObservable(rotation(3, 10, scheduler), '^ 40000ms !').toBe('a 9999ms b 9999ms c 9999ms a 9999ms b', { a: 0, b: 1, c: 2 });
      expectObservable(rotation(1, 10, scheduler)).toBe('(a|)', { a: 0 });
    });
  });
});
