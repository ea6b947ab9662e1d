import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/client';
import { accessTokenOf, type ConsoleUnderTest, openConsole } from './support/console';

describe('token refresh', () => {
  let c: ConsoleUnderTest;
  beforeAll(async () => {
    c = await openConsole();
    // The page's clock is simulated so that 3000 s pass in an instant; the server's is real.
    await c.page.clock.install();
    await c.login();
  });
  afterAll(() => c?.stop());

  it('replaces both tokens once the token is tokenTime (3000 s) old, checked every 10000 ms', async () => {
    const first = await accessTokenOf(c.page);
    await c.page.clock.runFor(2_990_000);
    expect(await accessTokenOf(c.page)).toBe(first);
    await c.page.clock.runFor(20_000);
    await expect.poll(() => accessTokenOf(c.page), { timeout: 10_000 }).not.toBe(first);
    const refreshed = await accessTokenOf(c.page);
    // The new token works; the old refresh token was rotated away.
    const client = new ApiClient(c.server.url);
    client.token = refreshed;
    expect((await client.get('/api/blade-auth/oauth/user-info')).status).toBe(200);
    expect(c.page.url()).toMatch(/\/wel\/index$/);
  });
});
