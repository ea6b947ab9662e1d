import { describe, expect, it } from 'vitest';
import type { Principal } from '../../server/auth/principal';
import { projectScope, projectScopeTables } from '../../server/db/project-scope';

/** A staff member of the demo tenant (not an administrator: limited by assignments). */
const STAFF: Principal = {
  userId: '1',
  tenantId: '100001',
  account: 'staff',
  userName: 'staff',
  nickName: 'staff',
  roleIds: ['9'],
  roleNames: ['staff'],
  deptId: '1',
  postId: '',
  clientId: 'saber',
  jti: 'j',
  sessionId: 's',
  exp: 0,
};

describe('the project scope (server/db/project-scope.ts)', () => {
  it('names the tables a scoped count reads: projects, assignments and every hop on the way', () => {
    expect(projectScopeTables()).toEqual(['wit_project', 'wit_user_project']);
    expect(projectScopeTables(['wit_device_point.device_id', 'wit_device.project_id'])).toEqual(['wit_project', 'wit_user_project', 'wit_device_point', 'wit_device']);
  });

  it('refuses a hop that is not a plain table.column: it goes into the SQL as it is', () => {
    for (const hop of ['wit_device.project_id; drop table x', 'wit_device', 'Wit_device.project_id', 'wit_device.project_id.x', '.project_id']) {
      expect(() => projectScope(STAFF, 'wit_device_point.device_id', [hop], false), hop).toThrow(`bad projectThrough hop ${hop}`);
    }
    expect(() => projectScope(STAFF, 'wit_device_point.device_id', ['wit_device.project_id'], false)).not.toThrow();
  });
});
