import { DEBUG_EVENTS, type DebugKind, type DebugMessage, type DebugPresence, type SubscribeAnswer, type SubscribeRequest } from '../resources/wire/debug';
import { connectedOf, fromSocketEvent, type SocketEvents } from './socket';
import {
  animationFrameScheduler,
  asyncScheduler,
  defer,
  filter,
  map,
  merge,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  Subscription,
  switchMap,
  catchError,
  of,
} from 'rxjs';

/** The live debug stream of a device or gateway (docs/live-and-history.md), as the console consumes it. */

// The wire types, shared with the server.
export type { DebugKind, DebugMessage, DebugPresence, DebugReading, SubscribeAnswer, SubscribeRequest } from '../resources/wire/debug';

export interface DebugTarget {
  kind: DebugKind;
  id: string;
}

/** What the stream needs of a socket: its connection state, the two pushed events, and the subscribe call. */
export interface DebugTransport {
  /** true on every (re)connect, false on every disconnect. */
  connected$: Observable<boolean>;
  messages$: Observable<DebugMessage>;
  presence$: Observable<DebugPresence>;
  subscribe(request: SubscribeRequest): Observable<SubscribeAnswer>;
}

export type DebugEvent =
  | { type: 'message'; message: DebugMessage }
  | { type: 'presence'; online: boolean; at: number; reason: string }
  /** `at`: when the link changed, so a lost link can say since when the screen is stale. */
  | { type: 'connection'; connected: boolean; at: number }
  | { type: 'subscribed'; answer: SubscribeAnswer };

/** Ids remembered for dropping repeats (a replay overlaps the live stream by design). */
const REMEMBERED_IDS = 2000;

const requestOf = (target: DebugTarget, since: number | undefined): SubscribeRequest => ({
  ...(target.kind === 'device' ? { deviceId: target.id } : { gatewayId: target.id }),
  ...(since === undefined ? {} : { since }),
});

/**
 * Collects values and hands them on once per scheduler tick (an animation frame in the browser). With `latest`, a
 * batch is handed on after that long on its scheduler if no tick came first: a browser gives a hidden or covered
 * window no animation frames, and a screen that must stay alive there cannot wait for one.
 */
export function batchFrames<T>(scheduler: SchedulerLike = animationFrameScheduler, latest?: { ms: number; scheduler: SchedulerLike }): OperatorFunction<T, T[]> {
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let batch: T[] = [];
      let pending: Subscription | undefined;
      const flush = () => {
        pending?.unsubscribe();
        pending = undefined;
        const out = batch;
        batch = [];
        if (out.length) subscriber.next(out);
      };
      const inner = source.subscribe({
        next: (value) => {
          batch.push(value);
          if (pending) return;
          pending = new Subscription();
          pending.add(scheduler.schedule(flush));
          if (latest) pending.add(latest.scheduler.schedule(flush, latest.ms));
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          pending?.unsubscribe();
          flush();
          subscriber.complete();
        },
      });
      return () => {
        inner.unsubscribe();
        pending?.unsubscribe();
      };
    });
}

/**
 * The events of one target, batched per frame. Every (re)connect subscribes again with the newest `receivedAt` seen
 * so far (starting at `since`, e.g. the newest message the HTTP state call returned), so the server replays what
 * was missed; messages seen twice are dropped by id.
 */
export function debugEvents(transport: DebugTransport, target: DebugTarget, since?: number, scheduler?: SchedulerLike): Observable<DebugEvent[]> {
  return defer(() => {
    let newest = since;
    const seen = new Set<string>();
    const fresh = (message: DebugMessage) => {
      if (message.kind !== target.kind || message.targetId !== target.id || seen.has(message.id)) return false;
      seen.add(message.id);
      if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
      if (newest === undefined || message.receivedAt > newest) newest = message.receivedAt;
      return true;
    };
    const now = () => (scheduler ?? asyncScheduler).now();
    const subscriptions = transport.connected$.pipe(
      switchMap((connected) =>
        connected
          ? merge(
              of<DebugEvent>({ type: 'connection', connected: true, at: now() }),
              transport.subscribe(requestOf(target, newest)).pipe(
                catchError(() => of<SubscribeAnswer>({ ok: false, msg: '订阅超时' })),
                map((answer): DebugEvent => ({ type: 'subscribed', answer })),
              ),
            )
          : of<DebugEvent>({ type: 'connection', connected: false, at: now() }),
      ),
    );
    const messages = transport.messages$.pipe(
      filter(fresh),
      map((message): DebugEvent => ({ type: 'message', message })),
    );
    const presence = transport.presence$.pipe(
      filter((p) => p.kind === target.kind && p.targetId === target.id && p.change.kind === target.kind && p.change.id === target.id),
      map((p): DebugEvent => ({ type: 'presence', online: p.change.online, at: p.change.at, reason: p.change.reason })),
    );
    return merge(subscriptions, messages, presence);
  }).pipe(batchFrames(scheduler));
}

export interface DebugState {
  /** Newest first. */
  messages: DebugMessage[];
  online?: boolean;
  connected: boolean;
  /**
   * Since when the live link has been lost after it was up: what the screen shows may be out of date (presence
   * included) until it reconnects and the missed messages are replayed.
   */
  staleSince?: number;
  /** Why the subscription was refused, if it was. */
  refused?: string;
  replayed: number;
}

export const MAX_SHOWN = 200;

export const initialDebugState = (messages: DebugMessage[] = [], online?: boolean): DebugState => ({ messages: [...messages].sort(newestFirst).slice(0, MAX_SHOWN), online, connected: false, replayed: 0 });

const newestFirst = (a: DebugMessage, b: DebugMessage) => b.receivedAt - a.receivedAt || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);

/** Folds a batch of events into what the debug view shows (at most MAX_SHOWN messages, newest first, no repeats). */
export function reduceDebug(state: DebugState, events: readonly DebugEvent[]): DebugState {
  let next = state;
  const arrived: DebugMessage[] = [];
  for (const event of events) {
    if (event.type === 'message') arrived.push(event.message);
    else if (event.type === 'presence') next = { ...next, online: event.online };
    else if (event.type === 'connection') next = { ...next, connected: event.connected, staleSince: linkLost(next, event) };
    else if (event.answer.ok) next = { ...next, refused: undefined, online: event.answer.online ?? next.online, replayed: next.replayed + (event.answer.replayed ?? 0) };
    else next = { ...next, refused: event.answer.msg ?? '订阅失败' };
  }
  if (arrived.length) {
    const known = new Set(next.messages.map((m) => m.id));
    const added = arrived.filter((m) => !known.has(m.id));
    next = { ...next, messages: [...added, ...next.messages].sort(newestFirst).slice(0, MAX_SHOWN) };
  }
  return next;
}

function linkLost(state: DebugState, event: { connected: boolean; at: number }): number | undefined {
  if (event.connected) return undefined;
  return state.staleSince ?? (state.connected ? event.at : undefined);
}

/** The part of a socket.io-client Socket the debug stream uses. */
export interface SocketLike extends SocketEvents {
  timeout(ms: number): { emit(event: string, payload: unknown, ack: (error: Error | null, answer: SubscribeAnswer) => void): unknown };
}

/** A socket.io-client socket as a DebugTransport (event names from gateway/getWebsocketUrl). */
export function socketTransport(socket: SocketLike, ackTimeoutMs = 10_000): DebugTransport {
  return {
    connected$: connectedOf(socket),
    messages$: fromSocketEvent<DebugMessage>(socket, DEBUG_EVENTS.message),
    presence$: fromSocketEvent<DebugPresence>(socket, DEBUG_EVENTS.presence),
    subscribe: (request) =>
      new Observable<SubscribeAnswer>((subscriber) => {
        socket.timeout(ackTimeoutMs).emit(DEBUG_EVENTS.subscribe, request, (error, answer) => {
          if (error) subscriber.error(error);
          else {
            subscriber.next(answer);
            subscriber.complete();
          }
        });
      }),
  };
}
