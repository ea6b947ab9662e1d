import { useEffect, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { tokenCookies } from './storage';

/**
 * The console's one socket.io connection for live pushes to the user's and the tenant's rooms (alarms for the bell,
 * `stats.changed` for the home and the data board). Screens lease it; the last one to let go closes it, so signing
 * out (the layout unmounts) ends the connection.
 */
let shared: { socket: Socket; leases: number } | undefined;

export interface SocketLease {
  socket: Socket;
  release(): void;
}

export function leaseSocket(): SocketLease {
  if (!shared) {
    // Same origin as the console; the token is read again on every (re)connect, as it is refreshed meanwhile.
    const socket = io({ auth: (send) => send({ token: tokenCookies.access() ?? '' }), transports: ['websocket', 'polling'] });
    shared = { socket, leases: 0 };
  }
  const held = shared;
  held.leases += 1;
  let released = false;
  return {
    socket: held.socket,
    release() {
      if (released) return;
      released = true;
      held.leases -= 1;
      if (held.leases > 0 || shared !== held) return;
      shared = undefined;
      held.socket.close();
    },
  };
}

/** The shared socket while the component is mounted (undefined before its first effect). */
export function useLiveSocket(): Socket | undefined {
  const [socket, setSocket] = useState<Socket>();
  useEffect(() => {
    const lease = leaseSocket();
    setSocket(lease.socket);
    return () => lease.release();
  }, []);
  return socket;
}
