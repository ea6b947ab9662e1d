import { hashPassword } from '../../../server/auth/passwords';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { type ApiClient, type Envelope, type Reply, signedIn } from '../../support/client';
import type { TestServer } from '../../support/server';

/** Fixtures of the settings suites: users and roles written straight to the database, and envelope checks. */

export interface Staff {
  userId: string;
  roleId: string;
  client: ApiClient;
}

/** A user with a fresh role (alias `staff`) in a tenant, signed in. */
export async function createStaff(server: TestServer, tenantId: string, account: string, password = 'Staff@123'): Promise<Staff> {
  const db = server.app.platform.db;
  const now = formatDateTime();
  const base = { createTime: now, updateTime: now, status: 1, isDeleted: 0, tenantId };
  const roleId = nextId();
  const userId = nextId();
  const deptId = nextId();
  await db.insertInto('blade_role').values({ ...base, id: roleId, parentId: '0', roleName: `角色 ${account}`, roleAlias: 'staff', sort: 9 }).execute();
  await db.insertInto('blade_dept').values({ ...base, id: deptId, parentId: '0', ancestors: '0', deptName: `部门 ${account}`, sort: 9 }).execute();
  await db
    .insertInto('blade_user')
    .values({ ...base, id: userId, account, password: await hashPassword(password), name: account, realName: account, roleId, deptId, userType: 1 })
    .execute();
  return { userId, roleId, client: await signedIn(server.url, account, password, tenantId) };
}

/** Grants scopes to a role the way role/grant stores them (category 1 data, 2 api). */
export async function grantScope(server: TestServer, roleId: string, scopeId: string, category: 1 | 2): Promise<void> {
  const platform = server.app.platform;
  await platform.db.insertInto('blade_role_scope').values({ id: nextId(), scopeCategory: category, scopeId, roleId }).execute();
  platform.events.emit('changed', 'blade_role_scope');
}

export function expectOk<T>(reply: Reply<Envelope<T>>): T {
  if (reply.status !== 200 || reply.body.code !== 200) throw new Error(`expected success, got ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data;
}

export interface PageData<T = Record<string, unknown>> {
  records: T[];
  total: number;
  current: number;
  size: number;
}
