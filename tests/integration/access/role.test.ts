import { expect, it } from 'vitest';
import { seedId } from '../../../server/db/seed/ids';
import { nextId } from '../../../server/ids';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, refused } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { adminRoleId, DEMO, flatten, insertUser, menuId, PLATFORM, type Tree } from './support';

interface Role {
  id: string;
  parentId: string;
  roleName: string;
  roleAlias: string;
  tenantId: string;
}

type Keys = { menu: string[]; dataScope: string[]; apiScope: string[] };

onEveryStore('roles and top menus', { signIn: ['admin', 'demo'] }, (ctx) => {
  let inspector: Role;
  let trainee: Role;

  it('CRUD: alias unique per tenant, messages, tree parent', async () => {
    refused(await ctx.demo.post('/api/blade-system/role/submit', { roleAlias: 'x' }), 400, '请输入角色名称');
    refused(await ctx.demo.post('/api/blade-system/role/submit', { roleName: '管理员二号', roleAlias: 'administrator' }), 400, '角色别名已存在');
    inspector = expectOk(await ctx.demo.post<Role>('/api/blade-system/role/submit', { roleName: '巡检员', roleAlias: 'inspector', sort: 2 }));
    expect(inspector).toMatchObject({ tenantId: DEMO, parentId: '0' });
    // the same alias in another tenant is fine
    expectOk(await ctx.admin.post<Role>('/api/blade-system/role/submit', { roleName: '巡检员', roleAlias: 'inspector' }));
    trainee = expectOk(await ctx.demo.post<Role>('/api/blade-system/role/submit', { roleName: '见习巡检员', roleAlias: 'trainee', parentId: inspector.id }));
    refused(await ctx.demo.post('/api/blade-system/role/submit', { id: inspector.id, parentId: trainee.id }), 400, '上级角色不能是自己或自己的下级');
    refused(await ctx.demo.post('/api/blade-system/role/submit', { roleName: 'x', roleAlias: 'y', parentId: adminRoleId(PLATFORM) }), 400, '上级角色不存在');
    refused(await ctx.demo.post('/api/blade-system/role/submit', { id: adminRoleId(DEMO), roleAlias: 'boss' }), 400, '别名不可修改');
    const page = expectOk(await ctx.demo.get<{ records: Role[] }>('/api/blade-system/role/list', { roleAlias: 'inspector' }));
    expect(page.records.map((r) => r.id)).toEqual([inspector.id]);
    expect(expectOk(await ctx.admin.get<Role>('/api/blade-system/role/detail', { id: trainee.id })).roleName).toBe('见习巡检员');
    expect(expectOk(await ctx.demo.get('/api/blade-system/role/detail', { id: adminRoleId(PLATFORM) }))).toBeNull();
  });

  it('tree, tree-by-id and select', async () => {
    const tree = expectOk(await ctx.demo.get<Tree[]>('/api/blade-system/role/tree'));
    const node = tree.find((n) => n.id === inspector.id) as Tree;
    expect(node).toMatchObject({ title: '巡检员', hasChildren: true });
    expect(node.children?.map((c) => c.id)).toEqual([trainee.id]);
    expect(tree.some((n) => n.id === adminRoleId(DEMO))).toBe(true);
    // asking for another tenant only works for the platform administrator
    expect(flatten(expectOk(await ctx.demo.get<Tree[]>('/api/blade-system/role/tree', { tenantId: PLATFORM }))).some((n) => n.id === adminRoleId(PLATFORM))).toBe(false);
    expect(flatten(expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/role/tree', { tenantId: DEMO }))).map((n) => n.id)).toContain(trainee.id);

    const forParent = flatten(expectOk(await ctx.demo.get<Tree[]>('/api/blade-system/role/tree-by-id', { roleId: inspector.id }))).map((n) => n.id);
    expect(forParent).toContain(adminRoleId(DEMO));
    expect(forParent).not.toContain(inspector.id);
    expect(forParent).not.toContain(trainee.id);
    refused(await ctx.demo.get('/api/blade-system/role/tree-by-id', { roleId: adminRoleId(PLATFORM) }), 400, '角色不存在');

    const all = expectOk(await ctx.demo.get<Role[]>('/api/blade-system/role/select'));
    expect(all.map((r) => r.id).sort()).toEqual([adminRoleId(DEMO), seedId(`role:${DEMO}:operator`), seedId(`role:${DEMO}:engineer`), inspector.id, trainee.id].sort());
    const userId = await insertUser(ctx.server, { tenantId: DEMO, account: 'select_probe', password: 'Pass@1234', roleIds: [trainee.id] });
    expect(expectOk(await ctx.demo.get<Role[]>('/api/blade-system/role/select', { userId })).map((r) => r.id)).toEqual([trainee.id]);
    refused(await ctx.admin.get('/api/blade-system/role/select', { userId: '42' }), 400, '用户不存在');
  });

  it('grant: replaces grants, refuses menus outside the package, foreign roles and unknown ids', async () => {
    const grant = (client: ApiClient, body: Record<string, unknown>) => client.post('/api/blade-system/role/grant', body);
    refused(await grant(ctx.demo, { roleIds: [inspector.id], menuIds: [menuId('tenant')] }), 400, '所选菜单不在租户产品包内');
    refused(await grant(ctx.admin, { roleIds: [inspector.id], menuIds: [menuId('client')] }), 400, '所选菜单不在租户产品包内');
    refused(await grant(ctx.demo, { roleIds: [adminRoleId(PLATFORM)], menuIds: [menuId('user')] }), 400, '角色不存在或无权操作');
    refused(await grant(ctx.demo, { roleIds: [inspector.id], menuIds: ['999'] }), 400, '菜单不存在');
    refused(await grant(ctx.demo, { menuIds: [menuId('user')] }), 400, '请选择角色');

    expectOk(await grant(ctx.demo, { roleIds: [inspector.id], menuIds: [menuId('desk'), menuId('notice'), menuId('notice_view')] }));
    expectOk(await grant(ctx.demo, { roleIds: inspector.id, menuIds: `${menuId('user')},${menuId('dept')},${menuId('user_add')}`, dataScopeIds: '', apiScopeIds: [] }));
    const keys = expectOk(await ctx.demo.get<Keys>('/api/blade-system/menu/role-tree-keys', { roleIds: inspector.id }));
    expect(keys.menu.sort()).toEqual([menuId('user'), menuId('dept'), menuId('user_add')].sort());
    // a refused grant leaves the previous grants untouched
    refused(await grant(ctx.demo, { roleIds: [inspector.id], menuIds: [menuId('post'), menuId('tenant')] }), 400);
    expect(expectOk(await ctx.demo.get<Keys>('/api/blade-system/menu/role-tree-keys', { roleIds: inspector.id })).menu).toHaveLength(3);
  });

  it('routes and buttons follow the grants of a signed-in user', async () => {
    await insertUser(ctx.server, { tenantId: DEMO, account: 'zhang', password: 'Pass@1234', roleIds: [inspector.id] });
    const user = await signedIn(ctx.server.url, 'zhang', 'Pass@1234', DEMO);
    const routes = expectOk(await user.get<Tree[]>('/api/blade-system/menu/routes'));
    expect(routes.map((r) => r.code)).toEqual(['system']);
    expect(routes[0].children?.map((c) => c.code)).toEqual(['user', 'dept']);
    const buttons = expectOk(await user.get<Tree[]>('/api/blade-system/menu/buttons'));
    expect(buttons).toHaveLength(1);
    expect(buttons[0]).toMatchObject({ code: 'user', hasChildren: true });
    expect(buttons[0].children?.map((b) => b.code)).toEqual(['user_add']);
    // without the role menu's 权限设置 button nobody grants anything; with it, only what they hold
    refused(await user.post('/api/blade-system/role/grant', { roleIds: [trainee.id], menuIds: [menuId('user')] }), 403, '请求被拒绝');
    const granted = [menuId('user'), menuId('dept'), menuId('user_add'), menuId('authority'), menuId('role'), menuId('role_setting')];
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [inspector.id], menuIds: granted }));
    refused(await user.post('/api/blade-system/role/grant', { roleIds: [trainee.id], menuIds: [menuId('post')] }), 400, '无权分配本人未拥有的菜单');
    expectOk(await user.post('/api/blade-system/role/grant', { roleIds: [trainee.id], menuIds: [menuId('user')] }));
    refused(await user.post('/api/blade-system/role/grant', { roleIds: [adminRoleId(DEMO)], menuIds: [menuId('user')] }), 400, '无权配置超级管理员角色');
  });

  it('scope grants reach the API scope cache at once', async () => {
    const { db, events } = ctx.server.app.platform;
    const scope = { menuId: menuId('param'), resourceCode: 'blade-system/param', createTime: '2026-01-01 00:00:00', status: 1, isDeleted: 0 };
    const apiScopeId = nextId();
    const dataScopeId = nextId();
    const foreignScopeId = nextId();
    await db.insertInto('blade_scope_api').values({ ...scope, id: apiScopeId, scopeName: '参数接口', scopePath: '/blade-system/param/**', scopeType: 1 }).execute();
    await db.insertInto('blade_scope_data').values({ ...scope, id: dataScopeId, scopeName: '全部参数', scopeType: 1 }).execute();
    await db.insertInto('blade_scope_data').values({ ...scope, id: foreignScopeId, menuId: menuId('tenant'), scopeName: '租户数据', scopeType: 1 }).execute();
    events.emit('changed', 'blade_scope_api'); // what the scope module does on its writes

    await insertUser(ctx.server, { tenantId: DEMO, account: 'li', password: 'Pass@1234', roleIds: [trainee.id] });
    const user = await signedIn(ctx.server.url, 'li', 'Pass@1234', DEMO);
    refused(await user.get('/api/blade-system/param/list'), 403);

    refused(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [trainee.id], menuIds: [menuId('param')], dataScopeIds: [foreignScopeId] }), 400, '所选权限所属菜单不在可分配范围内');
    refused(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [trainee.id], menuIds: [menuId('param')], apiScopeIds: ['77'] }), 400, '所选权限不存在');
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', {
      roleIds: [trainee.id], menuIds: [menuId('param')], dataScopeIds: [menuId('param'), dataScopeId], apiScopeIds: [menuId('param'), apiScopeId],
    }));
    expect(expectOk(await ctx.demo.get<Keys>('/api/blade-system/menu/role-tree-keys', { roleIds: trainee.id }))).toEqual({ menu: [menuId('param')], dataScope: [dataScopeId], apiScope: [apiScopeId] });
    expect(expectOk(await user.get<{ total: number }>('/api/blade-system/param/list')).total).toBeGreaterThan(0);
    // the tenant administrator is not granted that scope: it is now refused that path too
    refused(await ctx.demo.get('/api/blade-system/param/list'), 403);
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [trainee.id], menuIds: [menuId('param')] }));
    refused(await user.get('/api/blade-system/param/list'), 403);
  });

  it('top menus: CRUD, grant, keys and routes per top menu', async () => {
    refused(await ctx.demo.post('/api/blade-system/topmenu/submit', { code: 'ops' }), 400, '请输入菜单名称');
    const top = expectOk(await ctx.demo.post<{ id: string }>('/api/blade-system/topmenu/submit', { code: 'ops', name: '运维', sort: 1 }));
    expectOk(await ctx.admin.post('/api/blade-system/topmenu/submit', { code: 'ops', name: '平台运维', sort: 1 }));
    expect(expectOk(await ctx.demo.get<Array<{ id: string }>>('/api/blade-system/menu/top-menu')).map((t) => t.id)).toEqual([top.id]);
    expect(expectOk(await ctx.demo.get<{ records: Array<{ id: string }> }>('/api/blade-system/topmenu/list')).records.map((t) => t.id)).toEqual([top.id]);
    expect(expectOk(await ctx.demo.get<{ name: string }>('/api/blade-system/topmenu/detail', { id: top.id })).name).toBe('运维');
    refused(await ctx.demo.post('/api/blade-system/topmenu/submit', { code: 'ops', name: '重复' }), 400, '顶部菜单编号已存在');
    expect(expectOk(await ctx.admin.get<Array<{ name: string }>>('/api/blade-system/menu/top-menu')).map((t) => t.name)).toEqual(['平台运维']);

    refused(await ctx.demo.post('/api/blade-system/topmenu/grant', { topMenuIds: [top.id], menuIds: ['1'] }), 400, '菜单不存在');
    expectOk(await ctx.demo.post('/api/blade-system/topmenu/grant', { topMenuIds: [top.id], menuIds: [menuId('system'), menuId('dept'), menuId('post')] }));
    expect(expectOk(await ctx.demo.get<{ menu: string[] }>('/api/blade-system/menu/top-tree-keys', { topMenuIds: top.id })).menu.sort()).toEqual(
      [menuId('system'), menuId('dept'), menuId('post')].sort(),
    );
    refused(await ctx.demo.post('/api/blade-system/topmenu/grant', { topMenuIds: ['5'], menuIds: [menuId('dept')] }), 400, '顶部菜单不存在');

    const zhang = await signedIn(ctx.server.url, 'zhang', 'Pass@1234', DEMO);
    const routes = expectOk(await zhang.get<Tree[]>('/api/blade-system/menu/routes', { topMenuId: top.id }));
    expect(routes.map((r) => r.code)).toEqual(['system']);
    expect(routes[0].children?.map((c) => c.code)).toEqual(['dept']);
    const topTree = expectOk(await ctx.demo.get<{ menu: Tree[] }>('/api/blade-system/menu/grant-top-tree'));
    const topIds = flatten(topTree.menu).map((n) => n.id);
    expect(topIds).toContain(menuId('user'));
    expect(topIds).not.toContain(menuId('user_add'));
    expect(topIds).not.toContain(menuId('tenant'));
    expectOk(await ctx.demo.post('/api/blade-system/topmenu/remove', undefined, { ids: top.id }));
    expect(expectOk(await ctx.demo.get('/api/blade-system/menu/top-menu'))).toEqual([]);
  });

  it('remove: refused for roles users hold, for the administrator role and for parents', async () => {
    refused(await ctx.demo.post('/api/blade-system/role/remove', undefined, { ids: inspector.id }), 400, '该角色已分配给用户');
    refused(await ctx.demo.post('/api/blade-system/role/remove', undefined, { ids: trainee.id }), 400, '该角色已分配给用户');
    refused(await ctx.demo.post('/api/blade-system/role/remove', undefined, { ids: adminRoleId(DEMO) }), 400, '超级管理员角色不可删除');
    refused(await ctx.demo.post('/api/blade-system/role/remove', undefined, { ids: adminRoleId(PLATFORM) }), 400, '数据不存在或无权操作');
    const spare = expectOk(await ctx.demo.post<Role>('/api/blade-system/role/submit', { roleName: '临时', roleAlias: 'temp' }));
    const child = expectOk(await ctx.demo.post<Role>('/api/blade-system/role/submit', { roleName: '临时子角色', roleAlias: 'temp_child', parentId: spare.id }));
    refused(await ctx.demo.post('/api/blade-system/role/remove', undefined, { ids: spare.id }), 400, '请先删除子节点');
    expectOk(await ctx.demo.post('/api/blade-system/role/remove', undefined, { ids: `${spare.id},${child.id}` }));
    expect(expectOk(await ctx.demo.get('/api/blade-system/role/detail', { id: spare.id }))).toBeNull();
  });
});
