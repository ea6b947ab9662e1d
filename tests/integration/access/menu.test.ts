import { expect, it } from 'vitest';
import { nextId } from '../../../server/ids';
import { expectOk, refused } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { adminRoleId, DEMO, flatten, menuId, PLATFORM, type Tree } from './support';
import { expectEvery } from '../../support/lists';

onEveryStore('menus', { signIn: ['admin', 'demo'] }, (ctx) => {
  it('routes: the platform administrator gets every menu as a sorted tree, without buttons', async () => {
    const routes = expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/menu/routes'));
    expect(routes[0].code).toBe('desk');
    const all = flatten(routes);
    expectEvery(all, (m) => m.category === 1);
    const system = routes.find((m) => m.code === 'system') as Tree;
    expect(system.hasChildren).toBe(true);
    expect(system.children?.map((c) => c.code).slice(0, 3)).toEqual(['user', 'dept', 'post']);
    const user = system.children?.find((c) => c.code === 'user') as Tree;
    expect(user).toMatchObject({ hasChildren: false, parentId: system.id });
    expect(user.children).toBeUndefined();
    expect(all.some((m) => m.code === 'tenant')).toBe(true);
    // the same call without the /api prefix
    expect(expectOk(await ctx.admin.get<Tree[]>('/blade-system/menu/routes'))).toHaveLength(routes.length);
  });

  it('routes of a tenant administrator stay inside its package', async () => {
    const codes = flatten(expectOk(await ctx.demo.get<Tree[]>('/api/blade-system/menu/routes'))).map((m) => m.code);
    expect(codes).toContain('user');
    expect(codes).not.toContain('tenant');
    expect(codes).not.toContain('menu');
  });

  it('buttons: granted buttons under their menus', async () => {
    const buttons = expectOk(await ctx.demo.get<Tree[]>('/api/blade-system/menu/buttons'));
    const user = buttons.find((b) => b.code === 'user') as Tree;
    expect(user.children?.map((b) => b.code)).toEqual(expect.arrayContaining(['user_add', 'user_edit', 'user_delete', 'user_view', 'user_reset']));
    expect(flatten(buttons).some((b) => b.code === 'tenant_add')).toBe(false);
    const all = flatten(expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/menu/buttons')));
    expect(all.some((b) => b.code === 'tenant_add')).toBe(true);
  });

  it('tree: menus only, as select nodes; for a tenant, its package', async () => {
    const tree = expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/menu/tree'));
    const nodes = flatten(tree) as Array<Tree & { key: string; value: string; title: string }>;
    const user = nodes.find((n) => n.id === menuId('user'));
    expect(user).toMatchObject({ title: '用户管理', key: menuId('user'), value: menuId('user'), parentId: menuId('system') });
    expect(nodes.some((n) => n.id === menuId('user_add'))).toBe(false);
    const demo = flatten(expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/menu/tree', { tenantId: DEMO })));
    expect(demo.some((n) => n.id === menuId('user'))).toBe(true);
    expect(demo.some((n) => n.id === menuId('tenant'))).toBe(false);
  });

  it('grant-tree: menus and scopes the caller may grant', async () => {
    const { db, events } = ctx.server.app.platform;
    const scope = { menuId: menuId('user'), resourceCode: 'blade-user/user', scopeType: 1, createTime: '2026-01-01 00:00:00', status: 1, isDeleted: 0 };
    const dataScopeId = nextId();
    const apiScopeId = nextId();
    const platformScopeId = nextId();
    await db.insertInto('blade_scope_data').values({ ...scope, id: dataScopeId, scopeName: '本部门可见', scopeType: 3 }).execute();
    await db.insertInto('blade_scope_api').values({ ...scope, id: apiScopeId, scopeName: '用户接口', scopePath: '/blade-user/**' }).execute();
    await db.insertInto('blade_scope_api').values({ ...scope, id: platformScopeId, menuId: menuId('tenant'), scopeName: '租户接口', scopePath: '/blade-system/tenant/**' }).execute();
    events.emit('changed', 'blade_scope_api');

    type Grant = { menu: Tree[]; dataScope: Tree[]; apiScope: Tree[] };
    const mine = expectOk(await ctx.admin.get<Grant>('/api/blade-system/menu/grant-tree'));
    expect(flatten(mine.menu).some((n) => n.id === menuId('tenant_add'))).toBe(true);
    const userNode = mine.dataScope.find((n) => n.id === menuId('user')) as Tree;
    expect(userNode.children).toEqual([expect.objectContaining({ id: dataScopeId, parentId: menuId('user'), title: '本部门可见' })]);
    expect(flatten(mine.apiScope).map((n) => n.id)).toEqual(expect.arrayContaining([apiScopeId, platformScopeId]));

    const theirs = expectOk(await ctx.demo.get<Grant>('/api/blade-system/menu/grant-tree'));
    const ids = flatten(theirs.menu).map((n) => n.id);
    expect(ids).toContain(menuId('user_add'));
    expect(ids).not.toContain(menuId('tenant'));
    expect(flatten(theirs.apiScope).map((n) => n.id)).toEqual([menuId('user'), apiScopeId]);
  });

  it('role-tree-keys: the granted ids of visible roles only', async () => {
    const keys = expectOk(await ctx.admin.get<{ menu: string[]; dataScope: string[]; apiScope: string[] }>('/api/blade-system/menu/role-tree-keys', { roleIds: adminRoleId(PLATFORM) }));
    const total = await ctx.server.app.platform.db.selectFrom('blade_menu').select('id').where('isDeleted', '=', 0).execute();
    expect(keys.menu).toHaveLength(total.length);
    expect(keys).toMatchObject({ dataScope: [], apiScope: [] });
    const foreign = expectOk(await ctx.demo.get<{ menu: string[] }>('/api/blade-system/menu/role-tree-keys', { roleIds: adminRoleId(PLATFORM) }));
    expect(foreign.menu).toEqual([]);
    refused(await ctx.demo.get('/api/blade-system/menu/role-tree-keys'), 400, 'roleIds');
  });

  it('lazy-list, lazy-menu-list and menu-list', async () => {
    type Row = { id: string; code: string; category: number; hasChildren: boolean };
    const roots = expectOk(await ctx.admin.get<Row[]>('/api/blade-system/menu/lazy-list', { parentId: 0 }));
    expect(roots.map((r) => r.code)[0]).toBe('desk');
    expectEvery(roots, (r) => r.hasChildren);
    const userLevel = expectOk(await ctx.admin.get<Row[]>('/api/blade-system/menu/lazy-list', { parentId: menuId('user') }));
    expect(userLevel.map((r) => r.code)).toContain('user_add');
    const systemMenus = expectOk(await ctx.admin.get<Row[]>('/api/blade-system/menu/lazy-menu-list', { parentId: menuId('system') }));
    expectEvery(systemMenus, (r) => r.category === 1 && r.hasChildren === false);
    expect(systemMenus.map((r) => r.code)).toContain('user');
    const found = expectOk(await ctx.admin.get<Row[]>('/api/blade-system/menu/lazy-list', { name: '用户管理' }));
    expect(found.map((r) => r.code)).toEqual(['user']);
    expect(found[0].hasChildren).toBe(true);

    const list = expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/menu/menu-list'));
    expectEvery(flatten(list), (m) => m.category === 1);
    expect(list.find((m) => m.code === 'system')?.children?.length).toBeGreaterThan(5);
  });

  it('CRUD with the tree rules; tenant administrators cannot write', async () => {
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { code: 'x', category: 1 }), 400, '请输入菜单名称');
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { code: 'x', name: 'x' }), 400, '请选择菜单类型');
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { code: 'x', name: 'x', category: 3 }), 400, '请选择菜单类型');
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { name: 'x', code: 'user', category: 1 }), 400, '菜单编号已存在');
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { name: 'x', code: 'x1', category: 1, parentId: menuId('user_add') }), 400, '上级节点只能选择菜单类型');
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { name: 'x', code: 'x1', category: 1, parentId: '123' }), 400, '上级菜单不存在');

    const parent = expectOk(await ctx.admin.post<{ id: string; parentId: string; sort: number }>('/api/blade-system/menu/submit', { name: '巡检报表', code: 'inspection', path: '/inspection', category: 1 }));
    expect(parent).toMatchObject({ parentId: '0', sort: 0 });
    const child = expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/menu/submit', { name: '日报', code: 'inspection_daily', path: '/inspection/daily', category: 1, parentId: parent.id, sort: 2 }));
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { id: parent.id, parentId: child.id }), 400, '上级菜单不能是自己或自己的下级');
    refused(await ctx.admin.post('/api/blade-system/menu/submit', { id: parent.id, category: 2 }), 400, '不能改为按钮');
    expect(expectOk(await ctx.admin.get<{ name: string }>('/api/blade-system/menu/detail', { id: child.id })).name).toBe('日报');
    expect(expectOk(await ctx.admin.get<{ total: number }>('/api/blade-system/menu/list', { code: 'inspection' })).total).toBe(2);

    refused(await ctx.demo.post('/api/blade-system/menu/submit', { name: '越权', code: 'evil', category: 1 }), 403);
    refused(await ctx.demo.post('/api/blade-system/menu/remove', undefined, { ids: child.id }), 403);
    refused(await ctx.admin.post('/api/blade-system/menu/remove', undefined, { ids: parent.id }), 400, '请先删除子节点');
    expectOk(await ctx.admin.post('/api/blade-system/menu/remove', undefined, { ids: `${child.id},${parent.id}` }));
    expect(expectOk(await ctx.admin.get('/api/blade-system/menu/detail', { id: parent.id }))).toBeNull();
  });
});
