import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { startPeer, startServer, type TestServer } from '../../support/server';
import { hasBinary, type Service, startRedis } from '../../support/services';
import { until } from '../../support/wait';

/**
 * A sign-out reaches every process of a deployment at once (server/auth/revocations.ts): the process that revokes a
 * token tells the others through Redis (server/cluster/relay.ts), and they read the revocations again. A server and
 * its peer on one store and one Redis, in this process; the suite of real processes is tests/integration/deployment.
 * Without the telling, the other process would refuse the token only at its periodic reload, 10 s later.
 */
const REDIS = hasBinary('redis-server');
if (!REDIS) console.warn('redis-server is not on this machine: the sign-out across processes is not tested.');

describe.runIf(REDIS).each(await storeKinds())('a sign-out across processes on %s', (store) => {
  let redis: Service;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    first = await startServer(store, { redisUrl: redis.url });
    second = await startPeer(first, {}, { redisUrl: redis.url });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await redis?.stop();
  });

  it('is refused by the other process within the relay, not its 10-s reload', async () => {
    const mine = await signedIn(first.url);
    const elsewhere = new ApiClient(second.url);
    elsewhere.token = mine.token;
    expect((await elsewhere.get('/api/blade-auth/oauth/user-info')).body.code).toBe(200);
    expect((await mine.get('/api/blade-auth/oauth/logout')).body.code).toBe(200);
    await until(async () => (await elsewhere.get('/api/blade-auth/oauth/user-info')).status === 401, 5000, 'the token refused by the other process');
  });
});
