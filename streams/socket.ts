import { asyncScheduler, EMPTY, Observable, type SchedulerLike, switchMap, timer } from 'rxjs';

/** Listeners as socket.io-client declares them: `any` because its untyped events take any payload. */
// biome-ignore lint/suspicious/noExplicitAny: matches socket.io-client's listener type
export type Listener = (...args: any[]) => void;

/** The part of a socket.io-client Socket every stream uses, so the streams do not depend on the library. */
export interface SocketEvents {
  connected: boolean;
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
}

/** A socket event as an Observable; listening stops when the last subscriber leaves. */
export const fromSocketEvent = <T>(socket: SocketEvents, event: string) =>
  new Observable<T>((subscriber) => {
    const listener = (value: T) => subscriber.next(value);
    socket.on(event, listener);
    return () => socket.off(event, listener);
  });

/** The socket's connection state: true on every connect (at once when already connected), false on disconnect. */
export const connectedOf = (socket: SocketEvents) =>
  new Observable<boolean>((subscriber) => {
    const up = () => subscriber.next(true);
    const down = () => subscriber.next(false);
    socket.on('connect', up);
    socket.on('disconnect', down);
    if (socket.connected) up();
    return () => {
      socket.off('connect', up);
      socket.off('disconnect', down);
    };
  });

/** A socket that can be told to connect again: socket.io does not retry a handshake the server refused by itself. */
export interface RetryingSocket extends SocketEvents {
  /** False after the server refused the handshake. */
  active: boolean;
  connect(): unknown;
}

/** How long after a refused handshake (an expired token, refreshed meanwhile) the socket tries again. */
export const REFUSED_RETRY_MS = 5_000;

/**
 * The socket's connection state (connectedOf). While someone listens, a handshake the server refused is tried again
 * after REFUSED_RETRY_MS; the socket reads the current token on every attempt.
 */
export function connectionOf(socket: RetryingSocket, scheduler: SchedulerLike = asyncScheduler): Observable<boolean> {
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
  return new Observable<boolean>((subscriber) => {
    const retrying = retries$.subscribe();
    const connection = connectedOf(socket).subscribe(subscriber);
    return () => {
      retrying.unsubscribe();
      connection.unsubscribe();
    };
  });
}
