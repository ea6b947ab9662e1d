import { expect } from 'vitest';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import type { ApiClient, Envelope, Reply } from '../../support/client';
import type { TestServer } from '../../support/server';

/** Fixtures and checks shared by the people suites (users, departments, posts, registration). */

export type Row = Record<string, unknown> & { id: string };

export interface PageData<T = Row> {
  records: T[];
  total: number;
}

export function expectOk<T>(reply: Reply<Envelope<T>>): T {
  expect(reply.body, `expected success, got ${reply.status} ${JSON.stringify(reply.body)}`).toMatchObject({ code: 200, success: true });
  expect(reply.status).toBe(200);
  return reply.body.data;
}

/** A refused call: HTTP 400 and the envelope carrying `message` (exactly, or contained when `partial`). */
export function expectRefused(reply: Reply<Envelope<unknown>>, message: string, partial = false): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.success).toBe(false);
  if (partial) expect(reply.body.msg).toContain(message);
  else expect(reply.body.msg).toBe(message);
}

/** POST with the parameters in the query string, as BladeX's @RequestParam calls are sent. */
export const postParams = <T = unknown>(api: ApiClient, path: string, query: Record<string, string>) =>
  api.request<Envelope<T>>('POST', path, { query });

/**
 * A role written straight to the database: role management belongs to another module, and these suites only
 * need a second role to grant.
 */
export async function insertRole(server: TestServer, tenantId: string, alias: string): Promise<string> {
  const now = formatDateTime();
  const id = nextId();
  await server.app.platform.db
    .insertInto('blade_role')
    .values({ id, tenantId, parentId: '0', roleName: `角色 ${alias}`, roleAlias: alias, sort: 9, createTime: now, updateTime: now, status: 1, isDeleted: 0 })
    .execute();
  return id;
}

/** Sets a tenant's account quota (tenant management belongs to another module). */
export async function setAccountQuota(server: TestServer, tenantId: string, accountNumber: number): Promise<void> {
  await server.app.platform.db.updateTable('blade_tenant').set({ accountNumber }).where('tenantId', '=', tenantId).execute();
}

export async function findByAccount(api: ApiClient, account: string): Promise<Row | undefined> {
  const page = expectOk(await api.get<PageData>('/api/blade-user/page', { account_equal: account }));
  return page.records[0];
}
