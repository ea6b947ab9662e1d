import { fromSocketEvent, type SocketEvents } from './socket';
import { distinctUntilChanged, filter, map, merge, Observable, type SchedulerLike, asyncScheduler, skip, timer, switchMap, EMPTY, defer } from 'rxjs';
import { ALARM_EVENT, type LiveAlarm } from '../resources/wire/alarms';

/**
 * The live alarm stream of the console (docs/alarms.md "Channels"): the server emits `alarm` to the user's room
 * of every socket authenticated with the user's token. A reconnect joins the room again by itself, but alarms
 * sent meanwhile are lost: the stream says `resync` so the notice centre reloads its summary.
 */

export type AlarmStreamEvent = { type: 'alarm'; alarm: LiveAlarm } | { type: 'resync' };

/** What the stream needs of a socket: its connection state and the pushed alarms. */
export interface AlarmTransport {
  /** true on every (re)connect, false on every disconnect. */
  connected$: Observable<boolean>;
  alarms$: Observable<LiveAlarm>;
}

/** Change keys remembered for dropping repeats (the same change through two strategies arrives once per socket). */
const REMEMBERED = 500;

const keyOf = (alarm: LiveAlarm) => `${alarm.alarmId}:${alarm.revision ?? ''}:${alarm.round ?? ''}`;

/** Alarms as they arrive (repeats dropped) and a `resync` after every reconnect that followed a disconnect. */
export function alarmEvents(transport: AlarmTransport): Observable<AlarmStreamEvent> {
  return defer(() => {
    const seen = new Set<string>();
    const fresh = (alarm: LiveAlarm) => {
      const key = keyOf(alarm);
      if (seen.has(key)) return false;
      seen.add(key);
      if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
      return true;
    };
    const resyncs = transport.connected$.pipe(
      distinctUntilChanged(),
      filter(Boolean),
      // The first connection needs no resync: the centre loads its summary at start anyway.
      skip(1),
      map((): AlarmStreamEvent => ({ type: 'resync' })),
    );
    const alarms = transport.alarms$.pipe(
      filter(fresh),
      map((alarm): AlarmStreamEvent => ({ type: 'alarm', alarm })),
    );
    return merge(alarms, resyncs);
  });
}

/** The part of a socket.io-client Socket the alarm stream uses. */
export interface AlarmSocket extends SocketEvents {
  /** False after the server refused the handshake (socket.io does not retry that by itself). */
  active: boolean;
  connect(): unknown;
}

/** How long after a refused handshake (an expired token, refreshed meanwhile) the socket tries again. */
export const REFUSED_RETRY_MS = 5_000;

/**
 * A socket.io-client socket as an AlarmTransport. A handshake the server refused (an expired token) is tried again
 * after REFUSED_RETRY_MS while someone listens; the socket reads the current token on every attempt.
 */
export function alarmTransport(socket: AlarmSocket, scheduler: SchedulerLike = asyncScheduler): AlarmTransport {
  const refused$ = new Observable<void>((subscriber) => {
    const listener = () => {
      if (!socket.active) subscriber.next();
    };
    socket.on('connect_error', listener);
    return () => socket.off('connect_error', listener);
  });
  const reconnect = () => {
    socket.connect();
    return EMPTY;
  };
  const retries$ = refused$.pipe(switchMap(() => timer(REFUSED_RETRY_MS, scheduler).pipe(switchMap(reconnect))));
  const connected$ = new Observable<boolean>((subscriber) => {
    const up = () => subscriber.next(true);
    const down = () => subscriber.next(false);
    socket.on('connect', up);
    socket.on('disconnect', down);
    if (socket.connected) up();
    const retrying = retries$.subscribe();
    return () => {
      retrying.unsubscribe();
      socket.off('connect', up);
      socket.off('disconnect', down);
    };
  });
  return { connected$, alarms$: fromSocketEvent<LiveAlarm>(socket, ALARM_EVENT) };
}
