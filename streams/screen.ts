import {
  asyncScheduler,
  concat,
  defer,
  filter,
  interval,
  map,
  merge,
  Observable,
  of,
  repeat,
  retry,
  type SchedulerLike,
  startWith,
  switchMap,
  timer,
} from 'rxjs';
import type { Refusal, ScreenEvent } from '../machines/screen';
import { SCREEN_EVENTS, type ScreenAlarm, type ScreenPresence, type ScreenReading } from '../resources/wire/screen';
import { batchFrames } from './debug';
import type { ChannelValues, ScreenView, SnapshotView } from './screenSnapshot';
import { connectedOf, fromSocketEvent, type SocketEvents } from './socket';

/**
 * The data of a wall screen (docs/console-screens.md "The wall screen"): the socket's events, and the snapshot
 * fetched on every (re)connect, when the link changed, every RESYNC_MS and after local midnight (today's counts start
 * again) — so whatever a drop missed is fetched again, and small drifts of the folded counts never last.
 * The lifecycle (stale, reconnecting, refused) is machines/screen.ts; this stream tells it what happened.
 */

/** What the stream needs of a socket. */
export interface ScreenTransport {
  /** true on every (re)connect, false on every disconnect. */
  connected$: Observable<boolean>;
  /** The server refused the handshake (a bad, revoked or expired link); socket.io does not retry that. */
  refused$: Observable<void>;
  /** The server's heartbeats: the link is alive although nothing happens. */
  heartbeats$: Observable<void>;
  readings$: Observable<ScreenReading[]>;
  alarms$: Observable<ScreenAlarm>;
  presence$: Observable<ScreenPresence>;
  revoked$: Observable<void>;
  changed$: Observable<void>;
}

/** The screen call's answer: the snapshot, or why the link is refused. A failure to answer is an error. */
export type SnapshotAnswer = ({ kind: 'data' } & SnapshotView) | { kind: 'refused'; reason: Refusal };

/** Why a snapshot was fetched: trends refetch their history only after a connect (a periodic resync misses nothing). */
export type SyncReason = 'connect' | 'changed' | 'resync';

/** A live change of the screen's data. */
export type LiveEvent =
  | { type: 'readings'; readings: ScreenReading[] }
  | { type: 'alarm'; alarm: ScreenAlarm }
  | { type: 'presence'; presence: ScreenPresence };

export type ScreenStreamEvent =
  | LiveEvent
  | { type: 'connection'; connected: boolean; at: number }
  /** A snapshot is being fetched: live events from now on are applied again on top of it. */
  | { type: 'syncing' }
  | { type: 'snapshot'; data: ScreenView; values: ChannelValues; reason: SyncReason }
  | { type: 'refused'; reason: Refusal }
  | { type: 'handshakeRefused' }
  | { type: 'revoked' }
  | { type: 'heartbeat'; at: number };

/** A resync at least this often while connected. */
export const RESYNC_MS = 300_000;
/** Seconds after local midnight at which today's counts are fetched again (the server's day has turned too). */
export const AFTER_MIDNIGHT_MS = 5_000;
/** How long events wait for an animation frame before they are handed on anyway. */
export const HIDDEN_FLUSH_MS = 250;
/** The first retry of a failed snapshot; it doubles up to SNAPSHOT_RETRY_MAX_MS. */
export const SNAPSHOT_RETRY_MS = 2_000;
export const SNAPSHOT_RETRY_MAX_MS = 60_000;

/** When the next resync is due: RESYNC_MS from now, or just after the coming local midnight if that is sooner. */
export function nextResyncAt(now: number): number {
  const midnight = new Date(now);
  midnight.setHours(24, 0, 0, 0);
  return Math.min(now + RESYNC_MS, midnight.getTime() + AFTER_MIDNIGHT_MS);
}

/** The snapshot with its retries: a failure to answer is tried again with a growing delay, a refusal is final. */
function fetchSnapshot(load: () => Observable<SnapshotAnswer>, reason: SyncReason, scheduler: SchedulerLike): Observable<ScreenStreamEvent> {
  const answer = defer(load).pipe(
    retry({ delay: (_error, count) => timer(Math.min(SNAPSHOT_RETRY_MS * 2 ** (count - 1), SNAPSHOT_RETRY_MAX_MS), scheduler) }),
    map((answer): ScreenStreamEvent => (answer.kind === 'data' ? { type: 'snapshot', data: answer.data, values: answer.values, reason } : { type: 'refused', reason: answer.reason })),
  );
  return concat(of<ScreenStreamEvent>({ type: 'syncing' }), answer);
}

/** The resync triggers while connected: the link changed, RESYNC_MS passed, or the day turned. */
function resyncs(transport: ScreenTransport, scheduler: SchedulerLike): Observable<SyncReason> {
  const periodic = defer(() => timer(nextResyncAt(scheduler.now()) - scheduler.now(), scheduler)).pipe(
    repeat(),
    map((): SyncReason => 'resync'),
  );
  return merge(transport.changed$.pipe(map((): SyncReason => 'changed')), periodic);
}

/**
 * The events of a wall screen, batched per scheduler tick (an animation frame in the browser): the connection's
 * changes, the snapshots (a newer sync cancels an older one still under way; a disconnect cancels it too), the live
 * events and heartbeats, and the refusals.
 */
export function screenEvents(transport: ScreenTransport, load: () => Observable<SnapshotAnswer>, scheduler?: SchedulerLike): Observable<ScreenStreamEvent[]> {
  const clock = scheduler ?? asyncScheduler;
  const now = () => clock.now();
  const sessions = transport.connected$.pipe(
    switchMap((connected) =>
      connected
        ? merge(
            of<ScreenStreamEvent>({ type: 'connection', connected: true, at: now() }),
            resyncs(transport, clock).pipe(
              startWith<SyncReason>('connect'),
              switchMap((reason) => fetchSnapshot(load, reason, clock)),
            ),
          )
        : of<ScreenStreamEvent>({ type: 'connection', connected: false, at: now() }),
    ),
  );
  const live = merge(
    transport.readings$.pipe(map((readings): ScreenStreamEvent => ({ type: 'readings', readings }))),
    transport.alarms$.pipe(map((alarm): ScreenStreamEvent => ({ type: 'alarm', alarm }))),
    transport.presence$.pipe(map((presence): ScreenStreamEvent => ({ type: 'presence', presence }))),
    transport.heartbeats$.pipe(map((): ScreenStreamEvent => ({ type: 'heartbeat', at: now() }))),
    transport.revoked$.pipe(map((): ScreenStreamEvent => ({ type: 'revoked' }))),
    transport.refused$.pipe(map((): ScreenStreamEvent => ({ type: 'handshakeRefused' }))),
  );
  // Per animation frame, or every HIDDEN_FLUSH_MS when the window gets no frames (hidden, covered, minimised).
  return merge(sessions, live).pipe(batchFrames(scheduler, { ms: HIDDEN_FLUSH_MS, scheduler: clock }));
}

/** The snapshots of a screen's events, with why each was fetched (the trend charts follow them). */
export const snapshotsOf = (events$: Observable<ScreenStreamEvent[]>): Observable<{ data: ScreenView; reason: SyncReason }> =>
  events$.pipe(
    switchMap((batch) => of(...batch)),
    filter((event): event is Extract<ScreenStreamEvent, { type: 'snapshot' }> => event.type === 'snapshot'),
    map(({ data, reason }) => ({ data, reason })),
  );

/** The part of a socket.io-client Socket the screen uses. */
export interface ScreenSocket extends SocketEvents {
  /** False after the server refused the handshake. */
  active: boolean;
  /** The socket's Manager: it emits the server's heartbeats (`ping`). */
  io: { on(event: 'ping', listener: () => void): unknown; off(event: 'ping', listener: () => void): unknown };
}

/** A socket.io-client socket as a ScreenTransport (events of resources/wire/screen.ts). */
export function screenTransport(socket: ScreenSocket): ScreenTransport {
  return {
    connected$: connectedOf(socket),
    refused$: fromSocketEvent<unknown>(socket, 'connect_error').pipe(
      filter(() => !socket.active),
      map(() => undefined),
    ),
    heartbeats$: new Observable<void>((subscriber) => {
      const beat = () => subscriber.next();
      socket.io.on('ping', beat);
      return () => socket.io.off('ping', beat);
    }),
    readings$: fromSocketEvent<ScreenReading[]>(socket, SCREEN_EVENTS.readings),
    alarms$: fromSocketEvent<ScreenAlarm>(socket, SCREEN_EVENTS.alarm),
    presence$: fromSocketEvent<ScreenPresence>(socket, SCREEN_EVENTS.presence),
    revoked$: fromSocketEvent<unknown>(socket, SCREEN_EVENTS.revoked).pipe(map(() => undefined)),
    changed$: fromSocketEvent<unknown>(socket, SCREEN_EVENTS.changed).pipe(map(() => undefined)),
  };
}

/**
 * What a batch of the stream's events tells the lifecycle machine (machines/screen.ts): the connection's changes,
 * syncs, refusals, and — once per batch — that the link is alive.
 */
export function lifecycleEvents(batch: readonly ScreenStreamEvent[], now: number): ScreenEvent[] {
  const out: ScreenEvent[] = [];
  let alive = false;
  for (const event of batch) {
    if (event.type === 'connection') out.push({ type: event.connected ? 'socket.up' : 'socket.down', at: event.at });
    else if (event.type === 'snapshot') out.push({ type: 'data.synced', at: now });
    else if (event.type === 'refused') out.push({ type: 'data.refused', reason: event.reason });
    else if (event.type === 'handshakeRefused') out.push({ type: 'socket.refused' });
    else if (event.type === 'revoked') out.push({ type: 'link.revoked' });
    else if (event.type !== 'syncing') alive = true;
  }
  if (alive) out.push({ type: 'socket.activity', at: now });
  return out;
}

/** Which of `count` projects a screen shows: the first at once, then the next every `seconds`, round and round. */
export function rotation(count: number, seconds: number, scheduler: SchedulerLike = asyncScheduler): Observable<number> {
  if (count < 2) return of(0);
  return interval(Math.max(1, seconds) * 1000, scheduler).pipe(
    map((tick) => (tick + 1) % count),
    startWith(0),
  );
}
