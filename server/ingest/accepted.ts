import { type Server, Socket, type SocketConstructorOpts } from 'node:net';

/** What the admission queue holds of an accepted connection: whether it is gone, its end, and its socket when let in. */
export interface Arrival {
  readonly destroyed: boolean;
  /** Ends it with a reset: a connection ended waiting leaves no TIME_WAIT behind (broker.ts, close). */
  destroy(): void;
  open(): Socket;
}

/** Node's TCP handle (TCPWrap) of a connection its listener accepted, before a net.Socket is made of it. */
interface TcpHandle {
  /** Closes it with a reset; non-zero where it cannot (then `close` does). */
  reset(onClose: () => void): number;
  close(): void;
}

type OnConnection = (this: unknown, status: number, handle?: TcpHandle) => void;

/**
 * An accepted connection kept as the listener's bare handle until it is let in. Node makes a net.Socket of every
 * connection it accepts (a stream with its readable and writable states, ~20-50 µs each): a fleet reconnecting
 * at once made 20,000 of them within the first second or two after the broker listened, while the devices
 * already let in waited for their acknowledgements (bench:connections). As a handle it costs the accept alone; the
 * socket is made at its turn, at the admission's even rate.
 */
class HeldConnection implements Arrival {
  destroyed = false;

  constructor(private readonly handle: TcpHandle) {}

  open(): Socket {
    // `handle` is the option net.Server itself makes sockets of its accepted connections with; Node's types omit it.
    return new Socket({ handle: this.handle, readable: true, writable: true } as SocketConstructorOpts);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.handle.reset(() => undefined) !== 0) this.handle.close();
  }
}

/** A socket Node made at its accept, paused until its turn (where connections cannot be held as handles). */
export function pausedArrival(socket: Socket): Arrival {
  return {
    get destroyed() {
      return socket.destroyed;
    },
    destroy: () => void socket.resetAndDestroy(),
    open: () => socket,
  };
}

/**
 * From now on hands `server`'s accepted connections to `arrive` as handles, made sockets when opened, instead of
 * emitting 'connection' with a socket each. Call it once listening: Node set its handler then, and accepts nothing
 * before the next turn of the event loop. False, and nothing changed, where this Node.js's listener has no such
 * handler to replace (then 'connection' is emitted as usual).
 */
export function holdAccepted(server: Server, arrive: (arrival: Arrival) => void): boolean {
  // The listening handle is net.Server's own; Node calls its `onconnection` for every connection accepted.
  const handle = (server as unknown as { _handle?: { onconnection?: OnConnection } })._handle;
  const nodes = handle?.onconnection;
  if (!handle || typeof nodes !== 'function') return false;
  handle.onconnection = function (status, accepted) {
    // An error (too many open files…) is Node's to report, as the server's 'error'.
    if (status !== 0 || !accepted) return nodes.call(this, status, accepted);
    arrive(new HeldConnection(accepted));
  };
  return true;
}
