import { expect } from 'vitest';
import { hashPassword } from '../../../server/auth/passwords';
import { seedId } from '../../../server/db/seed/ids';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { type ApiClient, type Envelope, type Reply, signedIn } from '../../support/client';
import type { TestServer } from '../../support/server';

/** Fixtures and checks of the monitoring suites. */

export type Row = Record<string, unknown> & { id: string };

export interface PageData<T = Row> {
  records: T[];
  total: number;
}

export const X = '/api/wit-xinde';
export const DEMO = '100001';

/** Ids of the demo tenant's seed rows (server/db/seed/monitoring.ts). */
export const demoId = (key: string) => seedId(`monitoring:${DEMO}:${key}`);

export function expectOk<T>(reply: Reply<Envelope<T>>): T {
  expect(reply.body, `expected success, got ${reply.status} ${JSON.stringify(reply.body)}`).toMatchObject({ code: 200, success: true });
  expect(reply.status).toBe(200);
  return reply.body.data;
}

/** A refused call: HTTP 400 (or `status`) and a message containing `message`. */
export function expectRefused(reply: Reply<Envelope<unknown>>, message: string, status = 400): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.success).toBe(false);
  expect(reply.body.msg).toContain(message);
}

/** POST with the parameters in the query string, as BladeX's @RequestParam calls are sent. */
export const postParams = <T = unknown>(api: ApiClient, path: string, query: Record<string, string>) =>
  api.request<Envelope<T>>('POST', path, { query });

/** Saves through submit and returns the stored row. */
export async function submit(api: ApiClient, resource: string, body: Record<string, unknown>): Promise<Row> {
  return expectOk(await api.post<Row>(`${X}/${resource}/submit`, body));
}

/**
 * A plain staff user (role alias `staff`, not an administrator) of a tenant, signed in. Its role is granted what the
 * tenant's administrator role is, so the suites see what data and project scopes leave it, not what rights refuse.
 */
export async function staffUser(server: TestServer, tenantId: string, account: string): Promise<{ userId: string; client: ApiClient }> {
  const db = server.app.platform.db;
  const now = formatDateTime();
  const base = { createTime: now, updateTime: now, status: 1, isDeleted: 0, tenantId };
  const roleId = nextId();
  const userId = nextId();
  await db.insertInto('blade_role').values({ ...base, id: roleId, parentId: '0', roleName: `角色 ${account}`, roleAlias: 'staff', sort: 9 }).execute();
  const menus = await db.selectFrom('blade_role_menu').select('menuId').where('roleId', '=', seedId(`role:${tenantId}:administrator`)).execute();
  await db.insertInto('blade_role_menu').values(menus.map((m) => ({ id: nextId(), roleId, menuId: m.menuId }))).execute();
  await db
    .insertInto('blade_user')
    .values({ ...base, id: userId, account, password: await hashPassword('Staff@123'), name: account, realName: account, roleId, deptId: seedId(`dept:${tenantId}:root`), userType: 1 })
    .execute();
  return { userId, client: await signedIn(server.url, account, 'Staff@123', tenantId) };
}
