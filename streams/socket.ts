import { Observable } from 'rxjs';

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
