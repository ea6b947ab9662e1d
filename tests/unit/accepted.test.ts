// @vitest-environment node
import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type Arrival, holdAccepted } from '../../server/ingest/accepted';

/**
 * The broker's accepted connections held as the listener's bare handles (server/ingest/accepted.ts), on real loopback
 * sockets. It replaces a handler internal to Node's net.Server: this file is what tells, at a Node.js upgrade, that the
 * broker fell back to Node's own sockets.
 */
describe('connections held as handles until they are let in', () => {
  const closing: Array<() => void> = [];
  afterEach(() => {
    for (const close of closing.splice(0)) close();
  });

  /** A listening server whose accepted connections are held: its port, the next arrival, and the sockets it emitted. */
  async function heldServer(): Promise<{ port: number; next(): Promise<Arrival>; held: boolean; emitted: Socket[] }> {
    const emitted: Socket[] = [];
    const server = createServer((socket) => emitted.push(socket)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    closing.push(() => server.close());
    let waiter: ((arrival: Arrival) => void) | undefined;
    const held = holdAccepted(server, (arrival) => waiter?.(arrival));
    const next = () => new Promise<Arrival>((resolve) => (waiter = resolve));
    return { port: (server.address() as AddressInfo).port, next, held, emitted };
  }

  const client = (port: number) => {
    const socket = connect(port, '127.0.0.1');
    closing.push(() => socket.destroy());
    return socket;
  };

  it("hands each accepted connection over as a handle, and its socket, once opened, reads what waited and writes", async () => {
    const { port, next, held, emitted } = await heldServer();
    expect(held).toBe(true);
    const arriving = next();
    const device = client(port);
    device.write('CONNECT');
    const arrival = await arriving;
    expect(emitted).toEqual([]);
    const socket = arrival.open();
    closing.push(() => socket.destroy());
    const [read] = await once(socket, 'data');
    expect(String(read)).toBe('CONNECT');
    socket.write('CONNACK');
    const [answer] = await once(device, 'data');
    expect(String(answer)).toBe('CONNACK');
    expect(socket.remotePort).toBe(device.localPort);
  });

  it('ends a held connection with a reset, once', async () => {
    const { port, next } = await heldServer();
    const arriving = next();
    const device = client(port);
    const ended = new Promise<string | undefined>((resolve) => {
      device.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
      device.once('close', () => resolve(undefined));
    });
    const arrival = await arriving;
    arrival.destroy();
    arrival.destroy();
    expect(arrival.destroyed).toBe(true);
    expect(await ended).toBe('ECONNRESET');
  });
});
