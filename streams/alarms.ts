import { connectionOf, fromSocketEvent, REFUSED_RETRY_MS, type RetryingSocket } from './socket';
import { asyncScheduler, defer, distinctUntilChanged, filter, map, merge, type Observable, type SchedulerLike, skip } from 'rxjs';
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
export type AlarmSocket = RetryingSocket;

export { REFUSED_RETRY_MS };

/**
 * A socket.io-client socket as an AlarmTransport. A handshake the server refused (an expired token) is tried again
 * after REFUSED_RETRY_MS while someone listens (connectionOf).
 */
export function alarmTransport(socket: AlarmSocket, scheduler: SchedulerLike = asyncScheduler): AlarmTransport {
  return { connected$: connectionOf(socket, scheduler), alarms$: fromSocketEvent<LiveAlarm>(socket, ALARM_EVENT) };
}
