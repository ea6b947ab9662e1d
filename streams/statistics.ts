import {
  asyncScheduler,
  catchError,
  concat,
  connect,
  debounceTime,
  defer,
  distinctUntilChanged,
  exhaustMap,
  filter,
  from,
  map,
  merge,
  NEVER,
  type Observable,
  type OperatorFunction,
  of,
  race,
  type SchedulerLike,
  skip,
  startWith,
  switchMap,
  take,
  tap,
  timer,
} from 'rxjs';
import { STATS_EVENT, type StatsChanged } from '../resources/wire/statistics';
import { connectionOf, fromSocketEvent, type RetryingSocket } from './socket';

/**
 * Live figures of the home and the data board (docs/console-screens.md "Home and data board"). The server says
 * `stats.changed` to the tenant's room when alarms, presence or stored readings moved (at most one per tenant every
 * two seconds); the screen loads its figures again within its own scope. A burst of changes makes one load, a
 * reconnect one at once (changes sent meanwhile were lost), and a poll fills the silences: a platform administrator
 * watching other tenants, or a socket that cannot connect.
 */

/** A burst ends after this much quiet… */
export const STATS_QUIET_MS = 1_000;
/** …or this long after it began, so a steady flow of changes still refreshes the figures. */
export const STATS_MAX_WAIT_MS = 5_000;
/** The poll: this long after the last load, whatever started it. */
export const STATS_POLL_MS = 60_000;

/** What the stream needs of a socket: its connection state and the pushed changes. */
export interface StatsTransport {
  /** true on every (re)connect, false on every disconnect. */
  connected$: Observable<boolean>;
  changes$: Observable<StatsChanged>;
}

/** A socket.io-client socket as a StatsTransport (a refused handshake is retried, as for alarms). */
export function statsTransport(socket: RetryingSocket, scheduler: SchedulerLike = asyncScheduler): StatsTransport {
  return { connected$: connectionOf(socket, scheduler), changes$: fromSocketEvent<StatsChanged>(socket, STATS_EVENT) };
}

/**
 * One value per burst: a burst begins with a value and ends after `quietMs` without one (a debounce), or `maxMs`
 * after it began, whichever comes first. Emits the burst's last value.
 */
export function settle<T>(quietMs: number, maxMs: number, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<T, T> {
  return (source) =>
    source.pipe(
      connect((shared) =>
        shared.pipe(
          // The first value opens the burst; the inner stream sees the rest of it through `shared`.
          exhaustMap((first) => {
            let last = first;
            const quiet = shared.pipe(
              startWith(first),
              tap((value) => {
                last = value;
              }),
              debounceTime(quietMs, scheduler),
            );
            const longest = timer(maxMs, scheduler).pipe(map(() => last));
            return race(quiet, longest).pipe(take(1));
          }),
        ),
      ),
    );
}

/**
 * Why the figures are loaded: the screen opened, the server said they changed, the socket came back, the screen
 * asked (a refresh button, notices marked read), the poll.
 */
export type StatsReason = 'start' | 'change' | 'reconnect' | 'refresh' | 'poll';

/**
 * When to load: at once, then after every settled burst of changes, every reconnect, every refresh asked and every
 * poll.
 */
export function statsReasons(transport: StatsTransport, refresh$: Observable<unknown> = NEVER, scheduler: SchedulerLike = asyncScheduler): Observable<StatsReason> {
  return defer(() => {
    const changes = transport.changes$.pipe(
      settle(STATS_QUIET_MS, STATS_MAX_WAIT_MS, scheduler),
      map((): StatsReason => 'change'),
    );
    const reconnects = transport.connected$.pipe(
      distinctUntilChanged(),
      filter(Boolean),
      // The first connection needs no load: the screen loads at start anyway.
      skip(1),
      map((): StatsReason => 'reconnect'),
    );
    const refreshes = refresh$.pipe(map((): StatsReason => 'refresh'));
    return merge(changes, reconnects, refreshes).pipe(
      startWith<StatsReason>('start'),
      // Every load restarts the poll: it only ever fills a silence of STATS_POLL_MS.
      switchMap((reason) => timer(0, STATS_POLL_MS, scheduler).pipe(map((n): StatsReason => (n === 0 ? reason : 'poll')))),
    );
  });
}

/**
 * What a screen shows: `loading` until the first answer, then the latest figures. A failed load keeps the figures
 * shown (marked stale) and the next reason tries again.
 */
export type StatsState<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; data?: T; error: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The figures of one scope, kept live. A newer reason cancels a load still running (its answer would be older).
 * Loads after the first emit only their result, so a refresh renders once.
 */
export function liveStats<T>(
  transport: StatsTransport,
  load: () => Promise<T> | Observable<T>,
  refresh$: Observable<unknown> = NEVER,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<StatsState<T>> {
  return defer(() => {
    let shown: T | undefined;
    const fetch = () =>
      from(defer(load)).pipe(
        map((data): StatsState<T> => {
          shown = data;
          return { status: 'ready', data };
        }),
        catchError((error: unknown) => of<StatsState<T>>({ status: 'error', ...(shown === undefined ? {} : { data: shown }), error: messageOf(error) })),
      );
    return concat(of<StatsState<T>>({ status: 'loading' }), statsReasons(transport, refresh$, scheduler).pipe(switchMap(fetch)));
  });
}
