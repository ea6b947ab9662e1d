import { beforeAll, describe, expect, it } from 'vitest';
import { ESCALATION } from '../../../server/auth/escalation';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, refused } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { adminRoleId, DEMO, flatten, insertUser, menuId, PLATFORM, type Tree } from './support';

/**
 * No escalation, whatever the grants (docs/authorisation.md): a user manager who is not an administrator cannot make
 * itself or anybody else more than it is, in the platform tenant and in an ordinary tenant. Each case was an attack
 * that worked before rights were checked.
 */

/** What the user manager's role is granted: users, roles and MQTT identities, no more. */
const CLERK_MENUS = [
  'system', 'user', 'user_add', 'user_edit', 'user_delete', 'user_reset', 'user_role', 'user_unlock',
  'authority', 'role', 'role_add', 'role_edit', 'role_setting', 'mqtt', 'mqtt_user', 'mqtt_user_add', 'mqtt_user_edit',
].map(menuId);

onEveryStore('no escalation', (ctx) => {
  describe.each([PLATFORM, DEMO])('in tenant %s', (tenantId) => {
    let admin: ApiClient;
    let clerk: ApiClient;
    let clerkRole: string;
    let clerkId: string;
    let plainId: string;

    beforeAll(async () => {
      admin = await signedIn(ctx.server.url, 'admin', 'admin', tenantId);
      clerkRole = expectOk(await admin.post<{ id: string }>('/api/blade-system/role/submit', { roleName: '用户管理员', roleAlias: `clerk${tenantId}`, sort: 2 })).id;
      expectOk(await admin.post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: CLERK_MENUS }));
      clerkId = await insertUser(ctx.server, { tenantId, account: 'clerk', password: 'Clerk@123', roleIds: [clerkRole] });
      plainId = await insertUser(ctx.server, { tenantId, account: 'plain', password: 'Plain@123', roleIds: [clerkRole] });
      clerk = await signedIn(ctx.server.url, 'clerk', 'Clerk@123', tenantId);
    });

    const administrator = () => adminRoleId(tenantId);
    const seededAdmin = async () => expectOk(await admin.get<{ id: string }>('/api/blade-user/info')).id;

    it('cannot make itself administrator, nor change its own roles or depts', async () => {
      refused(await clerk.post('/api/blade-user/update', { id: clerkId, roleId: administrator() }), 403, ESCALATION.ownAccount);
      refused(await clerk.post('/api/blade-user/submit', { id: clerkId, roleId: `${clerkRole},${administrator()}` }), 403, ESCALATION.ownAccount);
      refused(await clerk.request('POST', '/api/blade-user/grant', { query: { userIds: clerkId, roleIds: administrator() } }), 403, ESCALATION.ownAccount);
      const me = expectOk(await clerk.get<{ roleId: string }>('/api/blade-user/info'));
      expect(me.roleId).toBe(clerkRole);
    });

    it('cannot give anybody a role beyond its own rights, nor create administrators', async () => {
      refused(await clerk.post('/api/blade-user/update', { id: plainId, roleId: administrator() }), 403, ESCALATION.role);
      refused(await clerk.request('POST', '/api/blade-user/grant', { query: { userIds: plainId, roleIds: administrator() } }), 403, ESCALATION.role);
      const account = { account: 'newadmin', name: 'x', password: 'Newadmin@1', roleId: administrator(), deptId: undefined };
      refused(await clerk.post('/api/blade-user/submit', account), 403, ESCALATION.role);
      // its own role, or one it covers, it may hand out
      expectOk(await clerk.post('/api/blade-user/submit', { ...account, account: 'helper', roleId: clerkRole }));
    });

    it('cannot edit, reset, unlock or remove an administrator', async () => {
      const adminId = await seededAdmin();
      refused(await clerk.post('/api/blade-user/update', { id: adminId, realName: 'owned' }), 403, ESCALATION.user);
      refused(await clerk.request('POST', '/api/blade-user/reset-password', { query: { userIds: adminId } }), 403, ESCALATION.user);
      refused(await clerk.request('POST', '/api/blade-user/unlock', { query: { userIds: adminId } }), 403, ESCALATION.user);
      refused(await clerk.request('POST', '/api/blade-user/remove', { query: { ids: adminId } }), 403);
      // the administrator can still sign in with its password
      await signedIn(ctx.server.url, 'admin', 'admin', tenantId);
    });

    it('cannot turn a role into the administrator role or edit one that holds more', async () => {
      refused(await clerk.post('/api/blade-system/role/update', { id: clerkRole, roleAlias: 'administrator' }), 403, ESCALATION.administratorAlias);
      refused(await clerk.post('/api/blade-system/role/submit', { roleName: '伪管理员', roleAlias: 'administrator', sort: 3 }), 403, ESCALATION.administratorAlias);
      refused(await clerk.post('/api/blade-system/role/update', { id: administrator(), roleName: '改名' }), 403);
      // any other alias is its to give
      expectOk(await clerk.post('/api/blade-system/role/submit', { roleName: '巡检员', roleAlias: `patrol${tenantId}`, sort: 7 }));
    });

    it('grants only menus and scopes it holds', async () => {
      const target = expectOk(await admin.post<{ id: string }>('/api/blade-system/role/submit', { roleName: '目标', roleAlias: `target${tenantId}`, sort: 4 })).id;
      refused(await clerk.post('/api/blade-system/role/grant', { roleIds: [target], menuIds: [menuId('param')] }), 400, '无权分配本人未拥有的菜单');
      refused(await clerk.post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: [...CLERK_MENUS, menuId('param')] }), 400);
      const platform = await signedIn(ctx.server.url, 'admin', 'admin', PLATFORM);
      const scope = expectOk(
        await platform.post<{ id: string }>('/api/blade-system/api-scope/submit', { menuId: menuId('user'), resourceCode: `users${tenantId}`, scopeName: '用户接口', scopePath: '/blade-user/**', scopeType: 1 }),
      ).id;
      refused(await clerk.post('/api/blade-system/role/grant', { roleIds: [target], menuIds: [menuId('user')], apiScopeIds: [scope] }), 403, ESCALATION.role);
      expectOk(await clerk.post('/api/blade-system/role/grant', { roleIds: [target], menuIds: [menuId('user')] }));
      // data scopes likewise: one it does not hold is refused, one its own role holds it may pass on
      const dataScope = expectOk(
        await platform.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: menuId('user'), resourceCode: `users-all${tenantId}`, scopeName: '全部可见', scopeType: 1 }),
      ).id;
      refused(await clerk.post('/api/blade-system/role/grant', { roleIds: [target], menuIds: [menuId('user')], dataScopeIds: [dataScope] }), 403, ESCALATION.role);
      expectOk(await admin.post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: CLERK_MENUS, dataScopeIds: [dataScope] }));
      expectOk(await clerk.post('/api/blade-system/role/grant', { roleIds: [target], menuIds: [menuId('user')], dataScopeIds: [dataScope] }));
      // once named by a scope, /blade-user/** is for the scope's holders only: take it away for the other cases
      expectOk(await platform.request('POST', '/api/blade-system/api-scope/remove', { query: { ids: scope } }));
    });

    it('cannot manage a user or role holding a menu or an API scope it lacks, though neither is administrator', async () => {
      const roleOf = async (alias: string, grant: { menuIds: string[]; apiScopeIds?: string[] }) => {
        const id = expectOk(await admin.post<{ id: string }>('/api/blade-system/role/submit', { roleName: alias, roleAlias: `${alias}${tenantId}`, sort: 8 })).id;
        expectOk(await admin.post('/api/blade-system/role/grant', { roleIds: [id], ...grant }));
        return id;
      };
      const platform = await signedIn(ctx.server.url, 'admin', 'admin', PLATFORM);
      // a scope on calls no case here makes, so naming its path restricts nothing the others need
      const scope = expectOk(
        await platform.post<{ id: string }>('/api/blade-system/api-scope/submit', { menuId: menuId('user'), resourceCode: `dicts${tenantId}`, scopeName: '字典接口', scopePath: '/blade-system/dict-biz/**', scopeType: 1 }),
      ).id;
      for (const senior of [await roleOf('senior', { menuIds: [...CLERK_MENUS, menuId('param')] }), await roleOf('scoped', { menuIds: CLERK_MENUS, apiScopeIds: [scope] })]) {
        const seniorId = await insertUser(ctx.server, { tenantId, account: `u${senior.slice(-8)}`, password: 'Senior@123', roleIds: [senior] });
        refused(await clerk.post('/api/blade-user/update', { id: seniorId, realName: 'owned' }), 403, ESCALATION.user);
        refused(await clerk.request('POST', '/api/blade-user/reset-password', { query: { userIds: seniorId } }), 403, ESCALATION.user);
        refused(await clerk.post('/api/blade-user/update', { id: plainId, roleId: senior }), 403, ESCALATION.role);
        refused(await clerk.post('/api/blade-system/role/update', { id: senior, roleName: '改名' }), 403, ESCALATION.roleEdit);
      }
      // one holding a part of what it holds is its to manage
      const junior = await roleOf('junior', { menuIds: [menuId('system'), menuId('user')] });
      const juniorId = await insertUser(ctx.server, { tenantId, account: 'junior', password: 'Junior@123', roleIds: [junior] });
      expectOk(await clerk.post('/api/blade-user/update', { id: juniorId, realName: '见习' }));
      expectOk(await clerk.post('/api/blade-system/role/update', { id: junior, roleName: '见习员' }));
      expectOk(await platform.request('POST', '/api/blade-system/api-scope/remove', { query: { ids: scope } }));
    });

    it('mints no MQTT superuser or gateway identity; an administrator can', async () => {
      const identity = (name: string, extra: Record<string, unknown>) => ({ username: `${name}${tenantId}`, password: 'Identity#123', clientType: 1, ...extra });
      refused(await clerk.post('/api/wit-xinde/mqttuser/submit', identity('super', { clientType: 3, isSuperuser: 1 })), 403, ESCALATION.mqttPrivileged);
      refused(await clerk.post('/api/wit-xinde/mqttuser/submit', identity('gw', { clientType: 2 })), 403, ESCALATION.mqttPrivileged);
      const device = expectOk(await clerk.post<{ id: string }>('/api/wit-xinde/mqttuser/submit', identity('dev', { clientId: 'D1' })));
      refused(await clerk.post('/api/wit-xinde/mqttuser/submit', { id: device.id, isSuperuser: 1 }), 403, ESCALATION.mqttPrivileged);
      expectOk(await admin.post('/api/wit-xinde/mqttuser/submit', identity('gwok', { clientType: 2 })));
    });

    it('changes only safe fields of its own profile', async () => {
      refused(await clerk.post('/api/blade-user/update-info', {}), 400);
      refused(await clerk.post('/api/blade-user/update-info', { id: clerkId, roleId: administrator() }), 400, 'roleId');
      refused(await clerk.post('/api/blade-user/update-info', { id: plainId, realName: 'other' }), 400);
      expectOk(await clerk.post('/api/blade-user/update-info', { id: clerkId, realName: '书记员' }));
      expect(expectOk(await clerk.get<{ realName: string }>('/api/blade-user/info')).realName).toBe('书记员');
    });

    it('loses its rights at once when its role is taken away', async () => {
      expectOk(await clerk.get('/api/blade-user/page'));
      const other = await signedIn(ctx.server.url, 'plain', 'Plain@123', tenantId);
      expectOk(await other.get('/api/blade-user/page'));
      const empty = expectOk(await admin.post<{ id: string }>('/api/blade-system/role/submit', { roleName: '空角色', roleAlias: `empty${tenantId}`, sort: 5 })).id;
      expectOk(await admin.request('POST', '/api/blade-user/grant', { query: { userIds: plainId, roleIds: empty } }));
      refused(await other.get('/api/blade-user/page'), 403);
      expectOk(await admin.post('/api/blade-user/update', { id: plainId, status: 2 }));
      refused(await other.get('/api/blade-user/info'), 401);
      // and an account removed is refused as one disabled, not failed on
      const helper = await signedIn(ctx.server.url, 'helper', 'Newadmin@1', tenantId);
      const helperId = expectOk(await helper.get<{ id: string }>('/api/blade-user/info')).id;
      expectOk(await admin.request('POST', '/api/blade-user/remove', { query: { ids: helperId } }));
      refused(await helper.get('/api/blade-user/info'), 401);
    });

    it('loses what an administrator role gave its token at once, and keeps what its other role grants', async () => {
      await insertUser(ctx.server, { tenantId, account: 'twohats', password: 'Twohats@1', roleIds: [administrator(), clerkRole] });
      const twohats = await signedIn(ctx.server.url, 'twohats', 'Twohats@1', tenantId);
      const shownRoles = async () => flatten(expectOk(await twohats.get<Tree[]>('/api/blade-system/role/tree'))).map((node) => node.id);
      expect(await shownRoles()).toEqual(expect.arrayContaining([administrator(), clerkRole]));
      const { id } = expectOk(await twohats.get<{ id: string }>('/api/blade-user/info'));
      expectOk(await admin.request('POST', '/api/blade-user/grant', { query: { userIds: id, roleIds: clerkRole } }));
      // the same token: the administrator role is hidden from it now, as from any clerk, and the clerk's menus still work
      const after = await shownRoles();
      expect(after).toContain(clerkRole);
      expect(after).not.toContain(administrator());
      expectOk(await twohats.get('/api/blade-user/page'));
      // and the other way round: keeping the administrator role keeps its standing
      expectOk(await admin.request('POST', '/api/blade-user/grant', { query: { userIds: id, roleIds: administrator() } }));
      expect(await shownRoles()).toContain(administrator());
    });

    it('is refused everything by a role that grants nothing, the way the original attack went', async () => {
      const empty = expectOk(await admin.post<{ id: string }>('/api/blade-system/role/submit', { roleName: '零权限', roleAlias: `zero${tenantId}`, sort: 6 })).id;
      const lowId = await insertUser(ctx.server, { tenantId, account: 'low0', password: 'Low0@1234', roleIds: [empty] });
      const low = await signedIn(ctx.server.url, 'low0', 'Low0@1234', tenantId);
      refused(await low.post('/api/blade-user/update', { id: lowId, roleId: administrator() }), 403);
      refused(await low.post('/api/blade-user/submit', { account: 'x1', name: 'x', password: 'X1@abcdef', roleId: administrator() }), 403);
      refused(await low.request('POST', '/api/blade-user/reset-password', { query: { userIds: await seededAdmin() } }), 403);
      refused(await low.post('/api/blade-system/role/grant', { roleIds: [empty], menuIds: [menuId('user')] }), 403);
      refused(await low.post('/api/blade-system/param/submit', { paramName: 'a', paramKey: 'b', paramValue: 'c' }), 403);
      refused(await low.post('/api/wit-xinde/mqttuser/submit', { username: `x${tenantId}`, password: 'Identity#123', clientType: 3, isSuperuser: 1 }), 403);
      for (const path of ['/api/blade-user/page', '/api/wit-xinde/mqttuser/list', '/api/blade-log/api/list', '/api/blade-system/tenant/list', '/api/wit-xinde/device/list']) {
        refused(await low.get(path), 403);
      }
    });

  });
});
