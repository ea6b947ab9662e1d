import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import type { ApiClient } from '../../support/client';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import type { TestServer } from '../../support/server';

/** Fixtures shared by the people suites (users, departments, posts, registration). */

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

/** A node of a tree the server answers (depts, roles). */
export interface Node {
  id: string;
  children?: Node[];
}

/** Every id of a forest, depth first. */
export const treeIds = (nodes: readonly Node[]): string[] => nodes.flatMap((n) => [n.id, ...treeIds(n.children ?? [])]);

export async function findByAccount(api: ApiClient, account: string): Promise<Row | undefined> {
  const page = expectOk(await api.get<PageData>('/api/blade-user/page', { account_equal: account }));
  return page.records[0];
}
