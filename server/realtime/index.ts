import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Principal } from '../auth/principal';
import { closeRedis, watchRedis } from '../cache';
import { principalOf } from '../auth/tokens';
import type { Platform } from '../platform';
import { attachDebug } from './debug';
import { WatchedRooms } from './rooms';
import { attachScreen, authenticateDisplay, isDisplaySocket } from './screen';

/**
 * Live push to browsers over socket.io on the HTTP server. A socket authenticates with the user's access token
 * (`auth: {token}`) and joins the rooms of its user and tenant, or with a wall screen's display link
 * (`auth: {display}`, server/realtime/screen.ts) and joins only its screen's rooms; with REDIS_URL the Redis adapter
 * carries events between server processes.
 */
export interface Realtime {
  io: Server;
  toUser(userId: string, event: string, payload: unknown): void;
  toTenant(tenantId: string, event: string, payload: unknown): void;
  /**
   * Closes every browser's connection at the transport: socket.io-client then reconnects on its own (to another
   * process), which it would not after a socket.io disconnect. Their upgraded connections would otherwise hold the HTTP
   * server open until they time out.
   */
  disconnectAll(): void;
  close(): Promise<void>;
}

export const userRoom = (userId: string) => `user:${userId}`;
export const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;

export function principalOfSocket(socket: Socket): Principal {
  return socket.data.principal as Principal;
}

/** The adapter's publisher and subscriber, none without REDIS_URL. */
async function redisClients(url: string | undefined) {
  if (!url) return [];
  const { createClient } = await import('redis');
  // No command time-out: the adapter never catches its commands' rejections, and one under load ended the process.
  return [0, 1].map(() => createClient({ url, commandOptions: { timeout: 0 } }));
}

export async function startRealtime(app: FastifyInstance, platform: Platform): Promise<Realtime> {
  // Cross-origin pages as the API allows them (CORS_ORIGINS, docs/security.md): none by default.
  const origins = platform.config.corsOrigins;
  const io = new Server(app.server, { cors: origins.length ? { origin: origins, credentials: true } : undefined, serveClient: false });
  const redis = await redisClients(platform.config.redisUrl);
  if (redis.length) {
    // Loaded only with REDIS_URL: a single process does not pay for the clients at start.
    const { createAdapter } = await import('@socket.io/redis-adapter');
    watchRedis(redis[0], 'realtime publisher', platform.log);
    watchRedis(redis[1], 'realtime subscriber', platform.log);
    await Promise.all(redis.map((client) => client.connect()));
    io.adapter(createAdapter(redis[0], redis[1]));
  }

  io.use((socket, next) => {
    // A wall screen (docs/wall-screen.md): its display link decides, a token beside it counts for nothing.
    const display: unknown = socket.handshake.auth?.display;
    if (display !== undefined) {
      authenticateDisplay(platform, socket, display)
        .then((refusal) => next(refusal ? new Error(refusal) : undefined))
        .catch(() => next(new Error('请求未授权')));
      return;
    }
    const raw = socket.handshake.auth?.token ?? socket.handshake.headers['blade-auth'];
    const token = typeof raw === 'string' ? raw.replace(/^bearer\s+/i, '') : '';
    platform.tokens
      .verify(token, 'access_token')
      .then((verified) => {
        if (!('claims' in verified) || platform.revocations.isRevoked(verified.claims.jti, verified.claims.sid)) {
          return next(new Error('请求未授权'));
        }
        socket.data.principal = principalOf(verified.claims);
        next();
      })
      .catch(() => next(new Error('请求未授权')));
  });

  io.on('connection', (socket) => {
    if (isDisplaySocket(socket)) return;
    const principal = principalOfSocket(socket);
    void socket.join([userRoom(principal.userId), tenantRoom(principal.tenantId)]);
  });
  const rooms = new WatchedRooms(io, redis.length > 0, (error) => platform.logs.error('realtime', error, 'rooms of the deployment'), () => redis.every((client) => client.isReady));
  const detachDebug = attachDebug(io, platform, principalOfSocket, rooms);
  const detachScreen = attachScreen(io, platform, rooms);

  return {
    io,
    toUser: (userId, event, payload) => io.to(userRoom(userId)).emit(event, payload),
    toTenant: (tenantId, event, payload) => io.to(tenantRoom(tenantId)).emit(event, payload),
    disconnectAll: () => io.engine.close(),
    close: async () => {
      detachDebug();
      detachScreen();
      rooms.stop();
      await io.close();
      // The subscriber first. Until Redis confirms the adapter's unsubscribes, the subscriber still hands it the other
      // processes' requests, and the adapter answers on the publisher without catching: closed, every answer was an
      // unhandled rejection, and the process ended mid-shutdown with exit code 1 (tests/integration/live/closing.test.ts).
      const [publisher, subscriber] = redis;
      if (subscriber) await closeRedis(subscriber);
      if (publisher) await closeRedis(publisher);
    },
  };
}
