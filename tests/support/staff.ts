import { hashPassword } from '../../server/auth/passwords';
import { seedId } from '../../server/db/seed/ids';
import { nextId } from '../../server/ids';
import { formatDateTime } from '../../server/time';
import { type ApiClient, signedIn } from './client';
import type { TestServer } from './server';

export interface Staff {
  userId: string;
  roleId: string;
  client: ApiClient;
}

/**
 * A plain staff user (role alias `staff`, not an administrator) of a tenant, signed in. Its role is granted the menus
 * and buttons of the tenant's administrator role, so the suites see what data and project scopes leave it, not what
 * rights refuse (those are tests/integration/access). `ownDept` puts it in a new department of its own.
 */
export async function createStaff(server: TestServer, tenantId: string, account: string, options: { password?: string; ownDept?: boolean } = {}): Promise<Staff> {
  const { password = 'Staff@123', ownDept = false } = options;
  const db = server.app.platform.db;
  const now = formatDateTime();
  const base = { createTime: now, updateTime: now, status: 1, isDeleted: 0, tenantId };
  const roleId = nextId();
  const userId = nextId();
  const deptId = ownDept ? nextId() : seedId(`dept:${tenantId}:root`);
  await db.insertInto('blade_role').values({ ...base, id: roleId, parentId: '0', roleName: `角色 ${account}`, roleAlias: 'staff', sort: 9 }).execute();
  const menus = await db.selectFrom('blade_role_menu').select('menuId').where('roleId', '=', seedId(`role:${tenantId}:administrator`)).execute();
  for (let i = 0; i < menus.length; i += 200) {
    await db.insertInto('blade_role_menu').values(menus.slice(i, i + 200).map((m) => ({ id: nextId(), roleId, menuId: m.menuId }))).execute();
  }
  if (ownDept) await db.insertInto('blade_dept').values({ ...base, id: deptId, parentId: '0', ancestors: '0', deptName: `部门 ${account}`, sort: 9 }).execute();
  await db
    .insertInto('blade_user')
    .values({ ...base, id: userId, account, password: await hashPassword(password), name: account, realName: account, roleId, deptId, userType: 1 })
    .execute();
  return { userId, roleId, client: await signedIn(server.url, account, password, tenantId) };
}
