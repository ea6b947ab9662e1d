import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../support/client';
import { storeKinds } from '../support/databases';
import { startServer, type TestServer } from '../support/server';

describe.each(await storeKinds())('server on %s', (store) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(() => server.stop());

  it('signs in and lists params', async () => {
    const api = await signedIn(server.url);
    const reply = await api.get<{ total: number }>('/api/blade-system/param/list');
    expect(reply.body.code).toBe(200);
    expect(reply.body.data.total).toBeGreaterThan(0);
  });
});
