import { expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource } from '../../../resources/define';
import { text } from '../../../resources/fields';
import type { App } from '../../../server/app';
import { registerDeclared } from '../../../server/http/registry';
import { startServer } from '../../support/server';
import { createStaff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';

const INFO = '/api/blade-user/info';
const PUBLIC = '/api/blade-system/tenant/info';

/**
 * The edges of the API's gate (server/http/auth-hook.ts, docs/authorisation.md) that the suites' own client never
 * reaches: it always sends `Blade-Auth: bearer …` with a live token.
 */
onEveryStore('the API gate', { signIn: ['demo'] }, (ctx) => {
  const call = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(new URL(path, ctx.server.url), { headers });
    return { status: response.status, body: (await response.json()) as { data?: { account?: string } } };
  };
  const token = () => {
    if (!ctx.demo.token) throw new Error('not signed in');
    return ctx.demo.token;
  };

  it("takes a client's token from `Authorization: Bearer`, the word in any case", async () => {
    for (const scheme of ['Bearer', 'BEARER']) {
      const reply = await call(INFO, { authorization: `${scheme} ${token()}` });
      expect(reply.status, scheme).toBe(200);
      expect(reply.body.data?.account).toBe('admin');
    }
  });

  it('reads a token only as `bearer <token>`: that word first, nothing after, any run of spaces between', async () => {
    expect((await call(INFO, { 'blade-auth': `bearer   ${token()}` })).status).toBe(200);
    for (const value of [`xbearer ${token()}`, `bearer ${token()} extra`, token()]) expect((await call(INFO, { 'blade-auth': value })).status, value.slice(0, 12)).toBe(401);
  });

  it('answers a public route as for anyone when the token is not valid, and refuses it elsewhere', async () => {
    expect((await call(PUBLIC, { 'blade-auth': 'bearer not-a-token' })).status).toBe(200);
    expect((await call(INFO, { 'blade-auth': 'bearer not-a-token' })).status).toBe(401);
  });

  it("answers a public route as for anyone when the token's account is removed, and refuses it elsewhere", async () => {
    const staff = await createStaff(ctx.server, '100001', 'gate-gone');
    const headers = { 'blade-auth': `bearer ${staff.client.token}` };
    expect((await call(INFO, headers)).status).toBe(200);
    expect((await ctx.demo.request('POST', '/api/blade-user/remove', { query: { ids: staff.userId } })).status).toBe(200);
    expect((await call(PUBLIC, headers)).status).toBe(200);
    expect((await call(INFO, headers)).status).toBe(401);
  });

  it("keeps the first 500 characters of a caller's agent in the API log", async () => {
    const agent = `GateProbe/1.0 ${'y'.repeat(600)}`;
    expect((await call(INFO, { 'blade-auth': `bearer ${token()}`, 'user-agent': agent })).status).toBe(200);
    const { logs, db } = ctx.server.app.platform;
    await logs.flush();
    const rows = await db.selectFrom('blade_log_api').select('userAgent').where('userAgent', 'like', 'GateProbe/1.0%').execute();
    expect(rows.map((r) => r.userAgent)).toEqual([agent.slice(0, 500)]);
  });
});

it('refuses to start with a resource registered but missing from resources/index.ts', async () => {
  const stray = (name: string) => defineResource({ service: 'blade-test', name, menu: 'param', table: 'blade_param', tenancy: 'tenant', fields: z.object({ paramName: text() }) });
  // As modules registering their own routes for resources they forgot to list would leave them.
  const unlisted = ({ app, platform }: App) => {
    platform.resources.push(stray('stray'), stray('lost'));
    registerDeclared(app, platform);
  };
  await expect(startServer('sqlite', {}, unlisted)).rejects.toThrow('Resources missing from resources/index.ts: blade-test/stray, blade-test/lost');
});

it('refuses to start with an API route that declares no right', async () => {
  const undeclared = ({ app }: App) => {
    app.get('/blade-test/open', async () => ({ open: true }));
  };
  await expect(startServer('sqlite', {}, undeclared)).rejects.toThrow('GET /blade-test/open declares no right (server/auth/rights.ts)');
});
