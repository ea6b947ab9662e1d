import { expect, it } from 'vitest';
import { DEFAULT_INIT_PASSWORD } from '../../../server/db/seed';
import { seedId } from '../../../server/db/seed/ids';
// Helpers below name their tables at run time (introspection, lists): they use the untyped view.
import { loose } from '../../../server/db/tables';
import { nextId } from '../../../server/ids';
import { assertAccountQuota } from '../../../server/modules/blade-system/access/quota';
import { ApiClient, signedIn } from '../../support/client';
import { expectOk, refused } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, flatten, insertUser, menuId, PLATFORM, type Tree } from './support';

interface Tenant {
  id: string;
  tenantId: string;
  tenantName: string;
  domain: string | null;
  accountNumber: number;
  expireTime: string | null;
  packageId: string | null;
  datasourceId: string | null;
}

const STANDARD_PACKAGE = seedId('package:standard');
const PLATFORM_ROW = seedId(`tenant:${PLATFORM}`);

onEveryStore('tenants', { signIn: ['admin', 'demo'] }, (ctx) => {
  let bridge: Tenant;

  const count = async (table: string, tenantId: string) => {
    const [row] = await loose(ctx.server.app.platform.db).selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', tenantId).execute();
    return Number(row.n);
  };

  it('a tenant administrator may neither read tenants nor write tenants, packages or clients', async () => {
    for (const path of ['tenant/list', 'tenant/page', 'tenant/detail', 'tenant/recovery', 'tenant/package-detail', 'tenant-package/list', 'tenant-package/menu-tree', 'client/list']) {
      refused(await ctx.demo.get(`/api/blade-system/${path}`, { id: PLATFORM_ROW, tenantId: DEMO }), 403);
    }
    refused(await ctx.demo.post('/api/blade-system/tenant/submit', { tenantName: '越权租户' }), 403);
    refused(await ctx.demo.post('/api/blade-system/tenant/remove', undefined, { ids: PLATFORM_ROW }), 403);
    refused(await ctx.demo.post('/api/blade-system/tenant/setting', undefined, { ids: PLATFORM_ROW, accountNumber: 1 }), 403);
    refused(await ctx.demo.get('/api/blade-system/tenant/deleteTenantById', { tenantId: DEMO }), 403);
    refused(await ctx.demo.post('/api/blade-system/tenant-package/submit', { packageName: 'x', menuId: menuId('desk') }), 403);
    refused(await ctx.demo.post('/api/blade-system/client/submit', { clientId: 'x', clientSecret: 'y', authorizedGrantTypes: 'password', accessTokenValidity: 1, refreshTokenValidity: 1 }), 403);
    refused(await ctx.demo.post('/api/blade-system/client/remove', undefined, { ids: seedId('client:sword') }), 403);
  });

  it('submit creates a complete tenant whose administrator can sign in', async () => {
    refused(await ctx.admin.post('/api/blade-system/tenant/submit', { linkman: '王工' }), 400, '请输入租户名称');
    refused(await ctx.admin.post('/api/blade-system/tenant/submit', { tenantName: 'x', tenantId: DEMO }), 400, '租户编号已存在');
    refused(await ctx.admin.post('/api/blade-system/tenant/submit', { tenantName: 'x', tenantId: '12ab' }), 400, '租户编号应为6位数字');
    refused(await ctx.admin.post('/api/blade-system/tenant/submit', { tenantName: 'x', packageId: '404' }), 400, '产品包不存在');

    bridge = expectOk(await ctx.admin.post<Tenant>('/api/blade-system/tenant/submit', { tenantName: '长江大桥运营公司', linkman: '王工', packageId: STANDARD_PACKAGE, domain: 'http://bridge.example.com' }));
    expect(bridge).toMatchObject({ tenantId: '100002', accountNumber: -1, packageId: STANDARD_PACKAGE });
    for (const table of ['blade_role', 'blade_dept', 'blade_post', 'blade_user', 'blade_param']) expect(await count(table, bridge.tenantId)).toBe(1);

    const bridgeAdmin = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, bridge.tenantId);
    const routes = flatten(expectOk(await bridgeAdmin.get<Tree[]>('/api/blade-system/menu/routes'))).map((m) => m.code);
    expect(routes).toEqual(expect.arrayContaining(['user', 'role', 'project_list']));
    expect(routes).not.toContain('tenant');
    const grantable = flatten(expectOk(await bridgeAdmin.get<{ menu: Tree[] }>('/api/blade-system/menu/grant-tree')).menu).map((n) => n.id);
    expect(grantable).toContain(menuId('user_add'));
    expect(grantable).not.toContain(menuId('tenant_add'));
    expect(expectOk(await bridgeAdmin.get<Array<{ roleAlias: string }>>('/api/blade-system/role/select')).map((r) => r.roleAlias)).toEqual(['administrator']);

    // without a package the administrator gets every menu but the platform's own
    const plain = expectOk(await ctx.admin.post<Tenant>('/api/blade-system/tenant/save', { tenantName: '无产品包租户', tenantId: '200000' }));
    const plainAdmin = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, plain.tenantId);
    const plainRoutes = flatten(expectOk(await plainAdmin.get<Tree[]>('/api/blade-system/menu/routes'))).map((m) => m.code);
    expect(plainRoutes).toContain('user');
    expect(plainRoutes).not.toContain('client');
    expect(expectOk(await ctx.admin.post<Tenant>('/api/blade-system/tenant/submit', { tenantName: '再来一个' })).tenantId).toBe('200001');
  });

  it('list, page, detail and update', async () => {
    const page = expectOk(await ctx.admin.get<{ records: Tenant[]; total: number }>('/api/blade-system/tenant/list', { tenantName: '大桥' }));
    expect(page.records.map((t) => t.tenantId)).toEqual([bridge.tenantId]);
    expect(expectOk(await ctx.admin.get<{ total: number }>('/api/blade-system/tenant/page')).total).toBe(5);
    expect(expectOk(await ctx.admin.get<Tenant>('/api/blade-system/tenant/detail', { id: bridge.id })).tenantName).toBe('长江大桥运营公司');
    expect(expectOk(await ctx.admin.get<Tenant>('/api/blade-system/tenant/detail', { tenantId: DEMO })).tenantName).toBe('演示租户');

    refused(await ctx.admin.post('/api/blade-system/tenant/update', { id: bridge.id, tenantId: '300000' }), 400, '租户编号不可修改');
    refused(await ctx.admin.post('/api/blade-system/tenant/update', { tenantName: 'x' }), 400, '修改数据必须带编号');
    refused(await ctx.admin.post('/api/blade-system/tenant/submit', { tenantName: '抢域名', domain: 'bridge.example.com' }), 400, '域名已被其他租户使用');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/update', { id: bridge.id, contactNumber: '13900000000', backgroundUrl: 'http://cdn.example.com/bg.jpg' }));
    expect(expectOk(await ctx.admin.get<Tenant & { contactNumber: string }>('/api/blade-system/tenant/detail', { id: bridge.id }))).toMatchObject({ contactNumber: '13900000000', tenantName: '长江大桥运营公司' });
  });

  it('info by domain and getBgUrl answer without a token', async () => {
    const anonymous = new ApiClient(ctx.server.url);
    const info = expectOk(await anonymous.get('/api/blade-system/tenant/info', { domain: 'http://bridge.example.com/#/login' }));
    expect(info).toEqual({ tenantId: bridge.tenantId, domain: 'http://bridge.example.com', backgroundUrl: 'http://cdn.example.com/bg.jpg' });
    expect(expectOk(await anonymous.get('/api/blade-system/tenant/info', { domain: 'https://BRIDGE.example.com:8443' }))).toMatchObject({ tenantId: bridge.tenantId });
    expect(expectOk(await anonymous.get('/api/blade-system/tenant/info', { domain: 'http://unknown.example.com' }))).toEqual({});
    expect(expectOk(await anonymous.get('/api/blade-system/tenant/info'))).toEqual({});
    expect(expectOk(await anonymous.get('/api/blade-system/tenant/getBgUrl', { tenant_id: bridge.tenantId }))).toEqual({ tenantId: bridge.tenantId, backgroundUrl: 'http://cdn.example.com/bg.jpg' });
    expect(expectOk(await anonymous.get('/api/blade-system/tenant/getBgUrl', { tenant_id: '999999' }))).toEqual({});
    refused(await anonymous.get('/api/blade-system/tenant/list'), 401);
  });

  it('treeList: every tenant for the platform administrator, its own for others', async () => {
    const all = expectOk(await ctx.admin.get<Array<{ value: string; title: string }>>('/api/blade-system/tenant/treeList'));
    expect(all.map((t) => t.value)).toEqual(expect.arrayContaining([PLATFORM, DEMO, bridge.tenantId]));
    expect(expectOk(await ctx.demo.get('/api/blade-system/tenant/treeList'))).toEqual([{ id: DEMO, parentId: '0', title: '演示租户', key: DEMO, value: DEMO, hasChildren: false }]);
  });

  it('setting and chectNumber: the account quota and expiry', async () => {
    refused(await ctx.admin.post('/api/blade-system/tenant/setting', undefined, { ids: bridge.id, accountNumber: 'many' }), 400, '账号额度');
    refused(await ctx.admin.post('/api/blade-system/tenant/setting', undefined, { ids: bridge.id, expireTime: 'soon' }), 400, '过期时间格式');
    refused(await ctx.admin.post('/api/blade-system/tenant/setting', undefined, { ids: PLATFORM_ROW, expireTime: '2020-01-01 00:00:00' }), 400, '平台租户');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/setting', undefined, { ids: bridge.id, accountNumber: 2, expireTime: '2099-12-31 23:59:59' }));
    expect(expectOk(await ctx.admin.get<Tenant>('/api/blade-system/tenant/detail', { id: bridge.id }))).toMatchObject({ accountNumber: 2, expireTime: '2099-12-31 23:59:59' });

    const bridgeAdmin = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, bridge.tenantId);
    expect(expectOk(await bridgeAdmin.get('/api/blade-system/tenant/chectNumber', { type: 'user' }))).toEqual({ accountNumber: 2, used: 1, available: 1 });
    expect(expectOk(await ctx.demo.get('/api/blade-system/tenant/chectNumber', { type: 'user' }))).toMatchObject({ accountNumber: -1, available: -1 });
    refused(await bridgeAdmin.get('/api/blade-system/tenant/chectNumber', { type: 'device' }), 400, '不支持的额度类型');
    await expect(assertAccountQuota(ctx.server.app.platform.db, bridge.tenantId)).resolves.toBeUndefined();
    await insertUser(ctx.server, { tenantId: bridge.tenantId, account: 'engineer', password: 'Pass@1234', roleIds: [] });
    await expect(assertAccountQuota(ctx.server.app.platform.db, bridge.tenantId)).rejects.toThrow('当前租户已到最大账号额度');
    expect(expectOk(await bridgeAdmin.get('/api/blade-system/tenant/chectNumber', { type: 'user' }))).toEqual({ accountNumber: 2, used: 2, available: 0 });

    expectOk(await ctx.admin.post('/api/blade-system/tenant/setting', { ids: bridge.id, expireTime: '2020-01-01 00:00:00' }));
    const expired = await new ApiClient(ctx.server.url).login('admin', DEFAULT_INIT_PASSWORD, bridge.tenantId);
    expect(expired.error_description).toBe('租户授权已过期,请联系管理员');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/setting', undefined, { ids: bridge.id, accountNumber: -1, expireTime: '' }));
    expect(expectOk(await ctx.admin.get<Tenant>('/api/blade-system/tenant/detail', { id: bridge.id }))).toMatchObject({ accountNumber: -1, expireTime: null });
  });

  it('datasource, package-detail and package-setting', async () => {
    const datasourceId = nextId();
    await ctx.server.app.platform.db
      .insertInto('blade_datasource')
      .values({ id: datasourceId, name: '桥梁库', driverClass: 'org.postgresql.Driver', url: 'jdbc:postgresql://db/bridge', status: 1, isDeleted: 0 })
      .execute();
    refused(await ctx.admin.post('/api/blade-system/tenant/datasource', undefined, { tenantId: bridge.tenantId, datasourceId: '404' }), 400, '数据源不存在');
    refused(await ctx.admin.post('/api/blade-system/tenant/datasource', undefined, { tenantId: bridge.tenantId }), 400, 'datasourceId');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/datasource', undefined, { tenantId: bridge.tenantId, datasourceId }));
    expect(expectOk(await ctx.admin.get<Tenant>('/api/blade-system/tenant/detail', { id: bridge.id })).datasourceId).toBe(datasourceId);

    expect(expectOk(await ctx.admin.get<{ id: string }>('/api/blade-system/tenant/package-detail', { tenantId: bridge.id })).id).toBe(STANDARD_PACKAGE);
    const small = expectOk(await ctx.admin.post<{ id: string; menuId: string }>('/api/blade-system/tenant-package/submit', { packageName: '基础包', menuId: [menuId('desk'), menuId('notice')] }));
    expect(small.menuId).toBe(`${menuId('desk')},${menuId('notice')}`);
    refused(await ctx.admin.post('/api/blade-system/tenant/package-setting', undefined, { tenantId: bridge.tenantId, packageId: '404' }), 400, '产品包不存在');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/package-setting', undefined, { tenantId: bridge.tenantId, packageId: small.id }));
    expect(expectOk(await ctx.admin.get<{ packageName: string }>('/api/blade-system/tenant/package-detail', { tenantId: bridge.tenantId })).packageName).toBe('基础包');

    // a smaller package takes effect at once, whatever the roles were granted before
    const bridgeAdmin = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, bridge.tenantId);
    expect(flatten(expectOk(await bridgeAdmin.get<Tree[]>('/api/blade-system/menu/routes'))).map((m) => m.code)).toEqual(['desk', 'notice']);
    // and on every call: its roles keep their grants, but a menu outside the package is no right of theirs
    expectOk(await bridgeAdmin.get('/api/blade-desk/notice/list'));
    refused(await bridgeAdmin.get('/api/blade-user/page'), 403);
    refused(await ctx.admin.post('/api/blade-system/tenant-package/remove', undefined, { ids: small.id }), 400, '产品包正被租户');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/package-setting', undefined, { tenantId: bridge.tenantId }));
    expect(expectOk(await ctx.admin.get('/api/blade-system/tenant/package-detail', { tenantId: bridge.tenantId }))).toBeNull();
    expectOk(await bridgeAdmin.get('/api/blade-user/page'));
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/remove', undefined, { ids: small.id }));
  });

  it('remove, recovery and purge', async () => {
    refused(await ctx.admin.post('/api/blade-system/tenant/remove', undefined, { ids: PLATFORM_ROW }), 400, '平台租户不可删除');
    refused(await ctx.admin.get('/api/blade-system/tenant/deleteTenantById', { tenantId: bridge.tenantId }), 400, '只能彻底删除回收站中的租户');
    expectOk(await ctx.admin.post('/api/blade-system/tenant/remove', undefined, { ids: bridge.id }));
    expect(expectOk(await ctx.admin.get('/api/blade-system/tenant/detail', { id: bridge.id }))).toBeNull();
    expect((await new ApiClient(ctx.server.url).login('admin', DEFAULT_INIT_PASSWORD, bridge.tenantId)).error_description).toBe('租户信息错误');
    expect(expectOk(await new ApiClient(ctx.server.url).get('/api/blade-system/tenant/info', { domain: 'bridge.example.com' }))).toEqual({});

    const bin = expectOk(await ctx.admin.get<{ records: Tenant[]; total: number }>('/api/blade-system/tenant/recovery'));
    expect(bin.records.map((t) => t.tenantId)).toEqual([bridge.tenantId]);
    expect(bin).toMatchObject({ total: 1, current: 1, size: 10 });
    expect(expectOk(await ctx.admin.get<{ total: number }>('/api/blade-system/tenant/recovery', { tenantName: '不存在' })).total).toBe(0);

    expectOk(await ctx.admin.get('/api/blade-system/tenant/recovery', { ids: bridge.id }));
    await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, bridge.tenantId);
    refused(await ctx.admin.get('/api/blade-system/tenant/recovery', { ids: bridge.id }), 400, '回收站中没有这些租户');

    expectOk(await ctx.admin.post('/api/blade-system/tenant/remove', undefined, { ids: bridge.id }));
    expectOk(await ctx.admin.get('/api/blade-system/tenant/deleteTenantById', { tenantId: bridge.tenantId }));
    for (const table of ['blade_role', 'blade_dept', 'blade_user', 'blade_param', 'blade_log_usual']) expect(await count(table, bridge.tenantId)).toBe(0);
    const links = await ctx.server.app.platform.db.selectFrom('blade_role_menu').select('id').where('roleId', 'not in', ctx.server.app.platform.db.selectFrom('blade_role').select('id')).execute();
    expect(links).toEqual([]);
    expect(expectOk(await ctx.admin.get<{ total: number }>('/api/blade-system/tenant/recovery')).total).toBe(0);
    refused(await ctx.admin.get('/api/blade-system/tenant/deleteTenantById', { tenantId: bridge.tenantId }), 400, '租户不存在');
    // the code is free again once purged
    expect(expectOk(await ctx.admin.post<Tenant>('/api/blade-system/tenant/submit', { tenantName: '新长江', tenantId: bridge.tenantId })).tenantId).toBe(bridge.tenantId);
  });

  it('tenant packages: CRUD with the spec messages and the menu tree of the form', async () => {
    refused(await ctx.admin.post('/api/blade-system/tenant-package/submit', { menuId: menuId('desk') }), 400, '请输入产品包名称');
    refused(await ctx.admin.post('/api/blade-system/tenant-package/submit', { packageName: '空包' }), 400, '请选择菜单');
    refused(await ctx.admin.post('/api/blade-system/tenant-package/submit', { packageName: '空包', menuId: [] }), 400, '请选择菜单');
    refused(await ctx.admin.post('/api/blade-system/tenant-package/submit', { packageName: '坏包', menuId: '1,2' }), 400, '菜单不存在');
    refused(await ctx.admin.post('/api/blade-system/tenant-package/submit', { packageName: '标准产品包', menuId: menuId('desk') }), 400, '产品包名称已存在');
    const pkg = expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/tenant-package/submit', { packageName: '监测包', menuId: `${menuId('monitor')},${menuId('monitor')}`, remark: '监测' }));
    expect(expectOk(await ctx.admin.get<{ menuId: string }>('/api/blade-system/tenant-package/detail', { id: pkg.id })).menuId).toBe(menuId('monitor'));
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/submit', { id: pkg.id, remark: '监测与告警' }));
    // a menu deleted after the package was saved does not block editing the package
    const gone = expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/menu/submit', { name: '临时菜单', code: 'temporary', category: 1 }));
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/submit', { id: pkg.id, menuId: `${menuId('monitor')},${gone.id}` }));
    expectOk(await ctx.admin.post('/api/blade-system/menu/remove', undefined, { ids: gone.id }));
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/submit', { id: pkg.id, menuId: `${menuId('monitor')},${gone.id}` }));
    refused(await ctx.admin.post('/api/blade-system/tenant-package/submit', { id: pkg.id, menuId: `${menuId('monitor')},42` }), 400, '菜单不存在');
    const page = expectOk(await ctx.admin.get<{ records: Array<{ remark: string }> }>('/api/blade-system/tenant-package/list', { packageName: '监测' }));
    expect(page.records.map((r) => r.remark)).toEqual(['监测与告警']);
    const tree = flatten(expectOk(await ctx.admin.get<Tree[]>('/api/blade-system/tenant-package/menu-tree'))).map((n) => n.id);
    expect(tree).toEqual(expect.arrayContaining([menuId('tenant'), menuId('user_add')]));
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/remove', undefined, { ids: pkg.id }));
  });

  it('clients: CRUD; a new client can sign in; the one in use cannot be removed', async () => {
    refused(await ctx.admin.post('/api/blade-system/client/submit', { clientSecret: 's' }), 400, '请输入客户端id');
    refused(
      await ctx.admin.post('/api/blade-system/client/submit', { clientId: 'saber', clientSecret: 's', authorizedGrantTypes: 'password', accessTokenValidity: 60, refreshTokenValidity: 60 }),
      400,
      '客户端id已存在',
    );
    refused(
      await ctx.admin.post('/api/blade-system/client/submit', { clientId: 'app', clientSecret: 's', authorizedGrantTypes: 'password', accessTokenValidity: 0, refreshTokenValidity: 60 }),
      400,
      '令牌过期秒数必须大于0',
    );
    const app = expectOk(await ctx.admin.post<{ id: string; scope: string }>('/api/blade-system/client/submit', {
      clientId: 'inspection_app', clientSecret: 'inspection_secret', authorizedGrantTypes: 'refresh_token,password', accessTokenValidity: 120, refreshTokenValidity: 600,
    }));
    expect(app.scope).toBe('all');
    expect(expectOk(await ctx.admin.get<{ refreshTokenValidity: number }>('/api/blade-system/client/detail', { id: app.id })).refreshTokenValidity).toBe(600);
    expect(expectOk(await ctx.admin.get<{ records: Array<{ clientId: string }> }>('/api/blade-system/client/list', { clientId: 'inspection' })).records.map((c) => c.clientId)).toEqual(['inspection_app']);
    const viaApp = await new ApiClient(ctx.server.url).request<{ access_token?: string; expires_in?: number }>('POST', '/api/blade-auth/oauth/token', {
      query: { tenantId: PLATFORM, username: 'admin', password: 'admin', grant_type: 'password', scope: 'all' },
      headers: { authorization: `Basic ${Buffer.from('inspection_app:inspection_secret').toString('base64')}` },
    });
    expect(viaApp.body).toMatchObject({ expires_in: 120 });
    refused(await ctx.admin.post('/api/blade-system/client/remove', undefined, { ids: seedId('client:saber') }), 400, '不能删除当前正在使用的客户端');
    expectOk(await ctx.admin.post('/api/blade-system/client/remove', undefined, { ids: app.id }));
  });

  it("keeps platform rows from a tenant's role granted their menus, and shared rows unwritable by it", async () => {
    // Last: the tenant it adds would change the counts above. A tenant without a package: the platform administrator
    // may grant its roles any menu (grants.ts), the platform's own too; the repository still refuses them what only the
    // platform administrator may read or write.
    const tenant = expectOk(await ctx.admin.post<Tenant>('/api/blade-system/tenant/save', { tenantName: '误授权租户', tenantId: '300000' }));
    const tenantAdmin = await signedIn(ctx.server.url, 'admin', DEFAULT_INIT_PASSWORD, tenant.tenantId);
    const [role] = expectOk(await tenantAdmin.get<Array<{ id: string }>>('/api/blade-system/role/select'));
    const held = expectOk(await ctx.admin.get<{ menu: string[] }>('/api/blade-system/menu/role-tree-keys', { roleIds: role.id })).menu;
    const granted = ['client', 'client_add', 'region', 'region_add'].map(menuId);
    expectOk(await ctx.admin.post('/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [...held, ...granted] }));
    refused(await tenantAdmin.get('/api/blade-system/client/list'), 403);
    refused(await tenantAdmin.post('/api/blade-system/client/submit', { clientId: 'x', clientSecret: 'y', authorizedGrantTypes: 'password', accessTokenValidity: 1, refreshTokenValidity: 1 }), 403);
    // The grant is in force (shared rows are read), so the refusal below is the repository's.
    expectOk(await tenantAdmin.get('/api/blade-system/region/list'));
    refused(await tenantAdmin.post('/api/blade-system/region/submit', { code: '3299', parentCode: '32', name: '误写' }), 403);
  });
});
