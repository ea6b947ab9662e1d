import { NEVER } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { liveAlarm } from '../tests/support/alarms';
import { type AlarmSocket, type AlarmStreamEvent, alarmEvents, alarmTransport, REFUSED_RETRY_MS } from './alarms';

const alarm = (id: string, revision = 1, round = 0) => liveAlarm(id, { title: id, revision, round });
const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('alarmEvents', () => {
  it('passes alarms on once per change and asks for a resync after each reconnect', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const transport = {
        connected$: hot('t---f--t--f-t', { t: true, f: false }),
        alarms$: hot('--a-b-c--d----', { a: alarm('1'), b: alarm('1'), c: alarm('1', 2), d: alarm('1', 2, 1) }),
      };
      const events: Record<string, AlarmStreamEvent> = {
        A: { type: 'alarm', alarm: alarm('1') },
        C: { type: 'alarm', alarm: alarm('1', 2) },
        R: { type: 'resync' },
        D: { type: 'alarm', alarm: alarm('1', 2, 1) },
      };
      expectObservable(alarmEvents(transport)).toBe('--A---CR-D--R', events);
    });
  });

  it('does not resync on the first connection, nor on a repeated state', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const transport = { connected$: hot('-t-t-', { t: true }), alarms$: NEVER };
      expectObservable(alarmEvents(transport)).toBe('-----');
    });
  });
});

/** A socket.io-like socket driven by hand. */
function fakeSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket: AlarmSocket & { emit(event: string, ...args: unknown[]): void; connects: number } = {
    connected: false,
    active: true,
    connects: 0,
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    connect() {
      socket.connects++;
    },
    emit(event, ...args) {
      for (const l of listeners.get(event) ?? []) l(...args);
    },
  };
  return { socket, listeners };
}

describe('alarmTransport', () => {
  it('maps connect/disconnect and alarm events, and lets go of its listeners', () => {
    const { socket, listeners } = fakeSocket();
    const transport = alarmTransport(socket);
    const seen: unknown[] = [];
    const a = transport.connected$.subscribe((c) => seen.push(c));
    const b = transport.alarms$.subscribe((x) => seen.push(x.alarmId));
    socket.emit('connect');
    socket.emit('alarm', alarm('5'));
    socket.emit('disconnect');
    expect(seen).toEqual([true, '5', false]);
    a.unsubscribe();
    b.unsubscribe();
    expect([...listeners.values()].every((set) => set.size === 0)).toBe(true);
  });

  it('reconnects REFUSED_RETRY_MS after the server refused the token', () => {
    const scheduler = newScheduler();
    scheduler.run(({ flush }) => {
      const { socket } = fakeSocket();
      const subscription = alarmTransport(socket, scheduler).connected$.subscribe();
      socket.active = false;
      socket.emit('connect_error', new Error('请求未授权'));
      scheduler.schedule(() => expect(socket.connects).toBe(0), REFUSED_RETRY_MS - 1);
      scheduler.schedule(() => expect(socket.connects).toBe(1), REFUSED_RETRY_MS);
      flush();
      expect(socket.connects).toBe(1);
      // A transient error (the socket still active) is socket.io's own to retry.
      socket.active = true;
      socket.emit('connect_error', new Error('network'));
      flush();
      expect(socket.connects).toBe(1);
      subscription.unsubscribe();
    });
  });
});
