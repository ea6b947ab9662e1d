import { NEVER, type Observable, type SchedulerLike, Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { batchFrames, type DebugEvent, type DebugMessage, type DebugPresence, type DebugTransport, debugEvents, initialDebugState, MAX_SHOWN, reduceDebug, type SubscribeAnswer, type SubscribeRequest } from './debug';

const message = (id: string, receivedAt: number, targetId = '1'): DebugMessage => ({
  id,
  kind: 'device',
  targetId,
  code: 'QJ-CRACK-01',
  topic: 'vigil/100001/device/QJ-CRACK-01/data',
  payload: '{}',
  receivedAt,
  receivedTime: '',
  readings: [],
  error: null,
});

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('debugEvents', () => {
  it('subscribes on every connect with the newest receivedAt seen, drops repeats, batches per tick', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const requests: SubscribeRequest[] = [];
      const ok: SubscribeAnswer = { ok: true, online: true, replayed: 0 };
      const transport: DebugTransport = {
        connected$: hot('-t----f--t-----', { t: true, f: false }),
        messages$: hot('---a-b-----c-d--', { a: message('a', 100), b: message('b', 200), c: message('b', 200), d: message('d', 300) }),
        presence$: NEVER,
        subscribe: (request) => {
          requests.push(request);
          return cold('-r|', { r: ok });
        },
      };
      const events: Record<string, DebugEvent[]> = {
        A: [{ type: 'connection', connected: true, at: 1 }],
        B: [{ type: 'subscribed', answer: ok }],
        C: [{ type: 'message', message: message('a', 100) }],
        D: [{ type: 'message', message: message('b', 200) }],
        E: [{ type: 'connection', connected: false, at: 6 }],
        F: [{ type: 'connection', connected: true, at: 9 }],
        G: [{ type: 'subscribed', answer: ok }],
        H: [{ type: 'message', message: message('d', 300) }],
      };
      expectObservable(debugEvents(transport, { kind: 'device', id: '1' }, undefined, scheduler)).toBe('-ABC-DE--FG--H--', events);
      scheduler.flush();
      expect(requests).toEqual([{ deviceId: '1' }, { deviceId: '1', since: 200 }]);
    });
  });

  it('starts from the given receivedAt, keeps to its target and hands same-tick events over together', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, cold, expectObservable }) => {
      const requests: SubscribeRequest[] = [];
      const online: DebugPresence = { kind: 'gateway', targetId: '7', change: { tenantId: '100001', kind: 'gateway', id: '7', code: 'GW', online: true, reason: 'connect', at: 5 } };
      const transport: DebugTransport = {
        connected$: hot('t', { t: true }),
        messages$: hot('------(ab)-c', { a: { ...message('a', 1, '7'), kind: 'gateway' }, b: { ...message('b', 2, '7'), kind: 'gateway' }, c: message('c', 3, '7') }),
        presence$: hot('--------p--', { p: online }) as Observable<DebugPresence>,
        subscribe: (request) => {
          requests.push(request);
          return cold('#', undefined, new Error('timeout'));
        },
      };
      expectObservable(debugEvents(transport, { kind: 'gateway', id: '7' }, 50, scheduler)).toBe('(xw)--y-z', {
        // The refused acknowledgement is a later scheduler action than the connection, so its own batch.
        x: [{ type: 'connection', connected: true, at: 0 }],
        w: [{ type: 'subscribed', answer: { ok: false, msg: '订阅超时' } }],
        y: [
          { type: 'message', message: { ...message('a', 1, '7'), kind: 'gateway' } },
          { type: 'message', message: { ...message('b', 2, '7'), kind: 'gateway' } },
        ],
        z: [{ type: 'presence', online: true, at: 5, reason: 'connect' }],
      });
      scheduler.flush();
      expect(requests).toEqual([{ gatewayId: '7', since: 50 }]);
    });
  });
});

describe('batchFrames', () => {
  it('hands a batch on after the latest delay when no frame comes (a hidden window gets none)', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // Frames that never come.
      const noFrames: SchedulerLike = { now: () => scheduler.now(), schedule: () => new Subscription() };
      const values = hot('-a-b------c--', { a: 1, b: 2, c: 3 });
      expectObservable(values.pipe(batchFrames(noFrames, { ms: 5, scheduler }))).toBe('------x--------y', { x: [1, 2], y: [3] });
    });
  });

  it('hands a batch on at the frame when one comes, once', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const values = hot('-a-b--', { a: 1, b: 2 });
      expectObservable(values.pipe(batchFrames(scheduler, { ms: 5, scheduler }))).toBe('-x-y--', { x: [1], y: [2] });
    });
  });
});

describe('reduceDebug', () => {
  it('keeps the newest messages first, without repeats, and follows presence and refusals', () => {
    let state = initialDebugState([message('a', 100)], false);
    state = reduceDebug(state, [
      { type: 'connection', connected: true, at: 10 },
      { type: 'subscribed', answer: { ok: true, online: true, replayed: 2 } },
      { type: 'message', message: message('c', 300) },
      { type: 'message', message: message('a', 100) },
      { type: 'message', message: message('b', 200) },
    ]);
    expect(state.messages.map((m) => m.id)).toEqual(['c', 'b', 'a']);
    expect(state).toMatchObject({ connected: true, online: true, replayed: 2, refused: undefined });
    state = reduceDebug(state, [{ type: 'presence', online: false, at: 1, reason: 'will' }, { type: 'connection', connected: false, at: 20 }]);
    expect(state).toMatchObject({ online: false, connected: false, staleSince: 20 });
    state = reduceDebug(state, [{ type: 'subscribed', answer: { ok: false, msg: '设备不存在或无权查看' } }]);
    expect(state.refused).toBe('设备不存在或无权查看');
    const many = Array.from({ length: MAX_SHOWN + 10 }, (_, i): DebugEvent => ({ type: 'message', message: message(`m${i}`, 1000 + i) }));
    const full = reduceDebug(state, many);
    expect(full.messages).toHaveLength(MAX_SHOWN);
    expect(full.messages[0].id).toBe(`m${MAX_SHOWN + 9}`);
  });

  it('is stale from the first loss of an established link until it is back, not while first connecting', () => {
    const lost = (at: number): DebugEvent => ({ type: 'connection', connected: false, at });
    let state = reduceDebug(initialDebugState(), [lost(1)]);
    expect(state.staleSince).toBeUndefined();
    state = reduceDebug(state, [{ type: 'connection', connected: true, at: 2 }, lost(5)]);
    expect(state.staleSince).toBe(5);
    // Failed reconnection attempts keep the first loss.
    state = reduceDebug(state, [lost(9)]);
    expect(state.staleSince).toBe(5);
    state = reduceDebug(state, [{ type: 'connection', connected: true, at: 12 }]);
    expect(state).toMatchObject({ connected: true, staleSince: undefined });
  });
});
