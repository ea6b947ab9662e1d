import { expect, it } from 'vitest';
import type { Right } from '../../../server/auth/rights';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD, OPERATOR_MENUS } from '../../../server/db/seed/operator';
import { OPERATOR_WORK_MENUS } from '../../../server/db/seed/workflow';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk } from '../../support/envelope';
import type { TestServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { DEMO, flatten, insertUser, menuId, PLATFORM, type Tree } from './support';

/**
 * The authorisation table walked route by route (docs/authorisation.md): every API route the server registered is
 * called by users of each kind, and answers exactly as the console's menus and buttons for that user say — refused
 * with 403 where the user holds none of the route's codes, never 401/403 where it does, never a 500 for the empty
 * call. The display routes refuse every user's token with 401: only a display link opens them.
 */

/** Logout ends the walking session; it is tested on its own (core/oauth.test.ts). */
const SKIPPED = new Set(['/blade-auth/oauth/logout']);

/** The menu and button codes the console sees for the signed-in user: its menu tree and its button tree. */
async function consoleCodes(client: ApiClient): Promise<Set<string>> {
  const routes = expectOk(await client.get<Tree[]>('/api/blade-system/menu/routes'));
  const buttons = expectOk(await client.get<Tree[]>('/api/blade-system/menu/buttons'));
  return new Set([...flatten(routes), ...flatten(buttons)].map((node) => String(node.code)));
}

function expectedAllowed(right: Right, codes: ReadonlySet<string>): boolean {
  if (right.kind === 'menu') return right.codes.some((code) => codes.has(code));
  if (right.kind === 'lookup') return codes.size > 0;
  // register-guest is a registering guest's only; the wall screen's calls a display link's only (screen/display.test.ts).
  return right.kind !== 'guest' && right.kind !== 'display';
}

/** A user refused a display route has no credential there (401); refused anything else, no right (403). */
const refusal = (right: Right) => (right.kind === 'display' ? 401 : 403);

interface Outcome {
  route: string;
  status: number;
  msg: unknown;
}

/** Calls every route once with no parameters; returns the calls that broke the rule. */
async function walk(server: TestServer, client: ApiClient, codes: ReadonlySet<string>): Promise<{ wrong: Outcome[]; failed: Outcome[]; counted: { allowed: number; refused: number } }> {
  const wrong: Outcome[] = [];
  const failed: Outcome[] = [];
  const counted = { allowed: 0, refused: 0 };
  for (const { method, url, right } of server.app.routes) {
    if (SKIPPED.has(url)) continue;
    const path = `/api${url.replace(/:[a-z]+/gi, 'x')}`;
    const reply = await client.request<{ code?: number; msg?: unknown }>(method, path, method === 'GET' ? {} : { json: {} });
    const allowed = expectedAllowed(right, codes);
    counted[allowed ? 'allowed' : 'refused'] += 1;
    const outcome = { route: `${method} ${url} (${right.kind === 'menu' ? right.codes.join('|') : right.kind})`, status: reply.status, msg: reply.body?.msg };
    if (allowed ? reply.status === 401 || reply.status === 403 : reply.status !== refusal(right)) wrong.push(outcome);
    if (reply.status >= 500) failed.push(outcome);
  }
  return { wrong, failed, counted };
}

/** A role granting the menus and buttons of `codes` (none: nothing), and a user `account` holding it. */
async function holding(server: TestServer, tenantId: string, account: string, codes: readonly string[] = []): Promise<ApiClient> {
  const roleId = nextId();
  const now = formatDateTime();
  const db = server.app.platform.db;
  await db.insertInto('blade_role').values({ id: roleId, tenantId, parentId: '0', roleName: account, roleAlias: account, sort: 9, createTime: now, updateTime: now, status: 1, isDeleted: 0 }).execute();
  for (const code of codes) await db.insertInto('blade_role_menu').values({ id: nextId(), roleId, menuId: menuId(code) }).execute();
  await insertUser(server, { tenantId, account, password: 'Low@12345', roleIds: [roleId] });
  return signedIn(server.url, account, 'Low@12345', tenantId);
}

const powerless = (server: TestServer, tenantId: string) => holding(server, tenantId, `low${tenantId}`);

onEveryStore('the route walk', (ctx) => {
  it('every API route declares a right, and the table is not trivially open', () => {
    const kinds = new Map<string, number>();
    for (const { right } of ctx.server.app.routes) kinds.set(right.kind, (kinds.get(right.kind) ?? 0) + 1);
    expect(ctx.server.app.routes.length).toBeGreaterThan(300);
    // most routes need a menu or button; only a handful are open to every signed-in user or to anyone
    expect(kinds.get('menu') ?? 0).toBeGreaterThan(ctx.server.app.routes.length * 0.75);
    expect(kinds.get('public')).toBeLessThanOrEqual(6);
    // The wall screen's reads (docs/wall-screen.md): data, trend, image.
    expect(ctx.server.app.routes.filter((r) => r.right.kind === 'display').map((r) => r.url).sort()).toEqual(['/wit-xinde/screen/data', '/wit-xinde/screen/image', '/wit-xinde/screen/trend']);
  });

  it('the demo duty operator sees the menus and buttons its role was seeded with, no more', async () => {
    const client = await signedIn(ctx.server.url, OPERATOR_ACCOUNT, OPERATOR_PASSWORD, DEMO);
    expect([...(await consoleCodes(client))].sort()).toEqual([...OPERATOR_MENUS, ...OPERATOR_WORK_MENUS].sort());
  });

  it.each([PLATFORM, DEMO])('a user of tenant %s whose role grants nothing reaches only self and public routes', async (tenantId) => {
    const client = await powerless(ctx.server, tenantId);
    const codes = await consoleCodes(client);
    expect(codes.size).toBe(0);
    const { wrong, failed, counted } = await walk(ctx.server, client, codes);
    expect(wrong).toEqual([]);
    expect(failed).toEqual([]);
    expect(counted.refused).toBeGreaterThan(counted.allowed * 10);
  });

  it("checks each write's own button: an editor of params changes one, but neither adds nor removes one", async () => {
    const demo = await signedIn(ctx.server.url, 'admin', 'admin', DEMO);
    const row = expectOk(await demo.post<{ id: string }>('/api/blade-system/param/submit', { paramName: '可编辑', paramKey: 'editor.only', paramValue: 'a' }));
    const editor = await holding(ctx.server, DEMO, 'param_editor', ['param', 'param_edit']);
    expectOk(await editor.post('/api/blade-system/param/submit', { id: row.id, paramValue: 'b' }));
    expectOk(await editor.post('/api/blade-system/param/update', { id: row.id, paramValue: 'c' }));
    const added = { paramName: '越权新增', paramKey: 'editor.added', paramValue: 'x' };
    for (const mode of ['submit', 'save']) expect((await editor.post(`/api/blade-system/param/${mode}`, added)).status, mode).toBe(403);
    expect((await editor.request('POST', '/api/blade-system/param/remove', { query: { ids: row.id } })).status).toBe(403);
    expect(expectOk(await demo.get<{ paramValue: string; isDeleted: number }>('/api/blade-system/param/detail', { id: row.id }))).toMatchObject({ paramValue: 'c', isDeleted: 0 });

    // And the add button alone adds, by either route, and edits nothing.
    const adder = await holding(ctx.server, DEMO, 'param_adder', ['param', 'param_add']);
    for (const mode of ['submit', 'save']) expectOk(await adder.post(`/api/blade-system/param/${mode}`, { paramName: '新增者', paramKey: `adder.${mode}`, paramValue: 'x' }));
    expect((await adder.post('/api/blade-system/param/submit', { id: row.id, paramValue: 'd' })).status).toBe(403);
  });

  it("keeps a menu's unpaged lists to its holders; only the pickers are any staff member's", async () => {
    const client = await signedIn(ctx.server.url, OPERATOR_ACCOUNT, OPERATOR_PASSWORD, DEMO);
    // The operator holds neither the push targets' projects nor the data comparisons, nor the push targets or the
    // device types it picks from.
    for (const path of ['/api/wit-xinde/tenantproject/nopage', '/api/wit-xinde/datacomparison/nopage']) expect((await client.get(path)).status, path).toBe(403);
    for (const path of ['/api/wit-xinde/mqttparam/select', '/api/wit-xinde/devicetype/selectList']) expectOk(await client.get(path));
  });

  it.each([
    ['the demo duty operator', DEMO, OPERATOR_ACCOUNT, OPERATOR_PASSWORD],
    ['the demo tenant administrator', DEMO, 'admin', 'admin'],
    ['the platform administrator', PLATFORM, 'admin', 'admin'],
  ])('%s reaches exactly the routes of the menus and buttons its console shows', async (_who, tenantId, account, password) => {
    const client = await signedIn(ctx.server.url, account, password, tenantId);
    const codes = await consoleCodes(client);
    const { wrong, failed } = await walk(ctx.server, client, codes);
    expect(wrong).toEqual([]);
    expect(failed).toEqual([]);
  });
});
