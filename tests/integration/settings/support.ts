import { nextId } from '../../../server/ids';
import type { TestServer } from '../../support/server';
import { createStaff as createStaffUser, type Staff } from '../../support/staff';

export type { Staff };

/** Fixtures of the settings suites: users and roles written straight to the database. */

/** A staff user in a department of its own (tests/support/staff.ts), for the data-scope suites. */
export const createStaff = (server: TestServer, tenantId: string, account: string, password = 'Staff@123'): Promise<Staff> =>
  createStaffUser(server, tenantId, account, { password, ownDept: true });

/** Grants scopes to a role the way role/grant stores them (category 1 data, 2 api). */
export async function grantScope(server: TestServer, roleId: string, scopeId: string, category: 1 | 2): Promise<void> {
  const platform = server.app.platform;
  await platform.db.insertInto('blade_role_scope').values({ id: nextId(), scopeCategory: category, scopeId, roleId }).execute();
  platform.events.emit('changed', 'blade_role_scope');
}
