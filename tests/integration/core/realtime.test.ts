import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../support/client';
import { startServer, type TestServer } from '../../support/server';

describe('socket.io live push', () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.stop();
  });

  const open = (token: string) => {
    const socket = connect(server.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    return socket;
  };

  it('refuses a socket without a valid token', async () => {
    const socket = open('forged');
    const error = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(error.message).toBe('请求未授权');
  });

  it('pushes to a user and to a tenant, never to another tenant', async () => {
    const platformAdmin = await signedIn(server.url);
    const tenantAdmin = await signedIn(server.url, 'admin', 'admin', '100001');
    const mine = open(platformAdmin.token ?? '');
    const theirs = open(tenantAdmin.token ?? '');
    await Promise.all([mine, theirs].map((s) => new Promise<void>((resolve) => s.once('connect', () => resolve()))));
    const leaked: unknown[] = [];
    theirs.on('notice', (payload) => leaked.push(payload));
    const received = new Promise((resolve) => mine.once('notice', resolve));
    const user = (await platformAdmin.get<{ userId: string }>('/api/blade-auth/oauth/user-info')).body.data.userId;
    server.app.realtime.toUser(user, 'notice', { title: 'to the user' });
    expect(await received).toEqual({ title: 'to the user' });
    const tenantWide = new Promise((resolve) => mine.once('notice', resolve));
    server.app.realtime.toTenant('000000', 'notice', { title: 'to the tenant' });
    expect(await tenantWide).toEqual({ title: 'to the tenant' });
    // Barrier: one socket's events arrive in order, so a later event to the other tenant comes after any leak.
    const barrier = new Promise((resolve) => theirs.once('barrier', resolve));
    server.app.realtime.toTenant('100001', 'barrier', {});
    await barrier;
    expect(leaked).toEqual([]);
  });
});
