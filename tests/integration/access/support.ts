import { hashPassword } from '../../../server/auth/passwords';
import { seedId } from '../../../server/db/seed/ids';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import type { TestServer } from '../../support/server';

/** Helpers shared by the access suites. */

export const PLATFORM = '000000';
export const DEMO = '100001';

/** Seeded rows have ids derived from their code (server/db/seed/ids.ts). */
export const menuId = (code: string) => seedId(`menu:${code}`);
export const adminRoleId = (tenantId: string) => seedId(`role:${tenantId}:administrator`);
export const rootDeptId = (tenantId: string) => seedId(`dept:${tenantId}:root`);

/** Inserts a user straight into the database (the users module is tested on its own). */
export async function insertUser(server: TestServer, user: { tenantId: string; account: string; password: string; roleIds: string[]; deptId?: string }): Promise<string> {
  const id = nextId();
  const now = formatDateTime();
  await server.app.platform.db
    .insertInto('blade_user')
    .values({
      id, tenantId: user.tenantId, code: user.account, userType: 1, account: user.account, password: await hashPassword(user.password),
      name: user.account, realName: user.account, roleId: user.roleIds.join(','), deptId: user.deptId ?? rootDeptId(user.tenantId),
      createTime: now, updateTime: now, status: 1, isDeleted: 0,
    })
    .execute();
  return id;
}

export interface Tree {
  id: string;
  parentId: string;
  code?: string;
  title?: string;
  category?: number;
  hasChildren: boolean;
  children?: Tree[];
}

/** Every node of a forest, depth first. */
export function flatten(nodes: readonly Tree[]): Tree[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);
}
