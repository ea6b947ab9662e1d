import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../support/server';
import { hasBinary, type Service, startRedis } from '../../support/services';

/**
 * A process of a deployment closing (SIGTERM) while the others ask it, through socket.io's Redis adapter, for its rooms
 * (server/realtime/rooms.ts asks every few seconds). The adapter answers on its publisher whatever its subscriber still
 * hands it until Redis confirms the unsubscribe; with the publisher closed first, an answer was a rejection nobody
 * caught, and the process ended with exit code 1 in the middle of its shutdown (tests/integration/deployment).
 */
const REDIS = hasBinary('redis-server');
if (!REDIS) console.warn('redis-server is not on this machine: a process closing while others ask it for its rooms is not tested.');

/** What socket.io's Redis adapter of the default namespace listens to for requests, and its "all rooms" request. */
const REQUESTS = 'socket.io-request#/#';
const ALL_ROOMS = 1;

describe.runIf(REDIS)('a process closing while others ask it for its rooms', () => {
  let redis: Service;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('closes without an unhandled rejection however many requests arrive meanwhile', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const asker = createClient({ url: redis.url });
    await asker.connect();
    try {
      for (let round = 0; round < 5; round++) {
        const server = await startServer('sqlite', { redisUrl: redis.url });
        // Another process's requests, as fast as Redis takes them, until this one has closed.
        let closed = false;
        let n = 0;
        const asking = (async () => {
          while (!closed) await asker.publish(REQUESTS, JSON.stringify({ uid: 'another-process', requestId: `r${round}-${n++}`, type: ALL_ROOMS }));
        })();
        await server.stop();
        closed = true;
        await asking;
      }
      // A rejection is reported on the turn after it: one more round trip to Redis gives it that turn.
      await asker.ping();
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await asker.quit();
    }
  });
});
