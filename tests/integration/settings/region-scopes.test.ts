import { expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, type PageData } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { createStaff, grantScope } from './support';

type Region = Record<string, unknown> & { id: string; code: string; name: string };

onEveryStore('regions and scopes', { signIn: ['admin', 'demo'] }, (ctx) => {
  const region = (body: Record<string, unknown>, client = ctx.admin) => client.post<Region>('/api/blade-system/region/submit', body);

  it('builds the region tree with derived levels, names and ancestors', async () => {
    const missing = await region({ parentCode: '00' });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('请输入区划编号');
    expect((await region({ code: '32' })).body.msg).toContain('请输入区划名称');

    const province = expectOk(await region({ code: '32', parentCode: '00', name: '江苏省', sort: 1 }));
    expect(province).toMatchObject({ regionLevel: 1, ancestors: '00', provinceCode: '32', provinceName: '江苏省', cityCode: null });
    const city = expectOk(await region({ code: '3201', parentCode: '32', name: '南京市', sort: 1 }));
    const district = expectOk(await region({ code: '320102', parentCode: '3201', name: '玄武区', sort: 1 }));
    expect(district).toMatchObject({
      regionLevel: 3,
      ancestors: '00,32,3201',
      provinceName: '江苏省',
      cityCode: '3201',
      cityName: '南京市',
      districtCode: '320102',
      districtName: '玄武区',
    });
    expectOk(await region({ code: '3202', parentCode: '32', name: '无锡市', sort: 2 }));
    expect((await region({ code: '3201', parentCode: '32', name: '重复' })).body.msg).toBe('区划编号已存在');
    expect((await region({ code: '9901', parentCode: '99', name: '无上级' })).body.msg).toBe('上级区划不存在');

    const top = expectOk(await ctx.admin.get<Region[]>('/api/blade-system/region/lazy-tree'));
    expect(top).toEqual([{ id: '32', parentId: '00', title: '江苏省', key: '32', value: '32', regionLevel: 1, hasChildren: true }]);
    const cities = expectOk(await ctx.admin.get<Region[]>('/api/blade-system/region/lazy-tree', { parentCode: '32' }));
    expect(cities.map((c) => [c.title, c.hasChildren])).toEqual([['南京市', true], ['无锡市', false]]);
    const lazyList = expectOk(await ctx.admin.get<Region[]>('/api/blade-system/region/lazy-list', { parentCode: '3201' }));
    expect(lazyList.map((r) => [r.name, r.hasChildren])).toEqual([['玄武区', false]]);
    expect(expectOk(await ctx.admin.get<Region>('/api/blade-system/region/detail', { code: '3201' })).name).toBe('南京市');
    const list = expectOk(await ctx.admin.get<PageData<Region>>('/api/blade-system/region/list', { cityName: '南京' }));
    expect(list.records.map((r) => r.code).sort()).toEqual(['3201', '320102']);

    // Renaming reaches the rows below; a region with children keeps its code and place.
    expectOk(await region({ id: city.id, name: '南京' }));
    expect(expectOk(await ctx.admin.get<Region>('/api/blade-system/region/detail', { code: '320102' })).cityName).toBe('南京');
    expect((await region({ id: city.id, code: '3299' })).body.msg).toBe('该区划有下级区划,不可修改编号或上级');

    const refused = await ctx.admin.post('/api/blade-system/region/remove', undefined, { id: '3201' });
    expect(refused.body.msg).toBe('请先删除子节点');
    expectOk(await ctx.admin.post('/api/blade-system/region/remove', undefined, { id: district.id }));
    expectOk(await ctx.admin.post('/api/blade-system/region/remove', undefined, { id: '3201' }));
    expect(expectOk(await ctx.admin.get('/api/blade-system/region/detail', { code: '3201' }))).toBeNull();
    // A removed code can be used again.
    expect(expectOk(await region({ code: '3201', parentCode: '32', name: '南京市' })).name).toBe('南京市');
    expect(province.id).toBeTruthy();
  });

  it('lets tenant administrators read regions but not change them', async () => {
    expect(expectOk(await ctx.demo.get<Region[]>('/api/blade-system/region/lazy-tree')).length).toBeGreaterThan(0);
    expect((await region({ code: '11', parentCode: '00', name: '北京市' }, ctx.demo)).status).toBe(403);
    expect((await ctx.demo.post('/api/blade-system/region/remove', undefined, { id: '32' })).status).toBe(403);
    const scope = { menuId: '1', resourceCode: 'x/y', scopeName: 'x', scopeType: 1 };
    expect((await ctx.demo.post('/api/blade-system/data-scope/submit', scope)).status).toBe(403);
    expect((await ctx.demo.post('/api/blade-system/api-scope/submit', { ...scope, scopePath: '/x/**' })).status).toBe(403);
  });

  it('validates scopes and lists them per menu', async () => {
    const empty = await ctx.admin.post('/api/blade-system/data-scope/submit', {});
    expect(empty.status).toBe(400);
    for (const message of ['请选择菜单', '请输入数据权限编号', '请输入数据权限名称', '请选择数据权限类型']) expect(empty.body.msg).toContain(message);
    const custom = await ctx.admin.post('/api/blade-system/data-scope/submit', { menuId: '7', resourceCode: 'a/b', scopeName: '自定义', scopeType: 5 });
    expect(custom.body.msg).toContain('请输入自定义的部门编号');
    const api = await ctx.admin.post('/api/blade-system/api-scope/submit', { menuId: '7', resourceCode: 'a', scopeName: 'a', scopeType: 1 });
    expect(api.body.msg).toContain('请输入接口权限路径');

    expectOk(await ctx.admin.post('/api/blade-system/data-scope/submit', { menuId: '7', resourceCode: 'a/b', scopeName: '全部', scopeType: 1 }));
    expectOk(await ctx.admin.post('/api/blade-system/data-scope/submit', { menuId: '71', resourceCode: 'a/c', scopeName: '另一个菜单', scopeType: 1 }));
    const byMenu = expectOk(await ctx.admin.get<PageData>('/api/blade-system/data-scope/list', { menuId: '7' }));
    expect(byMenu.records.map((r) => r.scopeName)).toEqual(['全部']);
  });

  it('enforces a granted "own rows" data scope and API scopes end to end', async () => {
    const staff = await createStaff(ctx.server, '100001', 'inspector');
    const other = await createStaff(ctx.server, '100001', 'surveyor');
    const param = (client: ApiClient, key: string) => client.post('/api/blade-system/param/submit', { paramName: key, paramKey: key, paramValue: 'v' });
    expectOk(await param(staff.client, 'staff.own'));
    expectOk(await param(other.client, 'other.own'));
    const keys = async (client: ApiClient) =>
      expectOk(await client.get<PageData>('/api/blade-system/param/list', { size: 100 })).records.map((r) => r.paramKey).sort();
    expect(await keys(staff.client)).toEqual(['account.initPassword', 'alarm.flow.1', 'other.own', 'staff.own']);

    const own = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: '1', resourceCode: 'blade-system/param', scopeName: '本人可见', scopeType: 2 }),
    );
    expect(await keys(staff.client)).toEqual(['account.initPassword', 'alarm.flow.1', 'other.own', 'staff.own']); // declared, not yet granted
    await grantScope(ctx.server, staff.roleId, own.id, 1);
    expect(await keys(staff.client)).toEqual(['staff.own']);
    expect(await keys(other.client)).toEqual(['account.initPassword', 'alarm.flow.1', 'other.own', 'staff.own']);
    const foreign = expectOk(await other.client.get<PageData>('/api/blade-system/param/list', { paramKey: 'other.own' })).records[0];
    expect(expectOk(await staff.client.get('/api/blade-system/param/detail', { id: String(foreign.id) }))).toBeNull();

    // Removing the scope lifts the restriction at once.
    expectOk(await ctx.admin.post('/api/blade-system/data-scope/remove', undefined, { ids: own.id }));
    expect(await keys(staff.client)).toHaveLength(4);

    const api = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-system/api-scope/submit', { menuId: '1', resourceCode: 'param_api', scopeName: '参数接口', scopePath: '/blade-system/param/**', scopeType: 1 }),
    );
    const denied = await staff.client.get('/api/blade-system/param/list');
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe('请求被拒绝');
    expect((await staff.client.get('/api/blade-system/dict/dictionary', { code: 'sex' })).status).toBe(200);
    await grantScope(ctx.server, staff.roleId, api.id, 2);
    expect((await staff.client.get('/api/blade-system/param/list')).status).toBe(200);
    expect((await other.client.get('/api/blade-system/param/list')).status).toBe(403);
    expect((await ctx.admin.get('/api/blade-system/param/list')).status).toBe(200);
    expectOk(await ctx.admin.post('/api/blade-system/api-scope/remove', undefined, { ids: api.id }));
    expect((await other.client.get('/api/blade-system/param/list')).status).toBe(200);
  });

  it('holds a lookup route (a picker any signed-in user may open) to the API scopes that cover it, as a menu route', async () => {
    const staff = await createStaff(ctx.server, '100001', 'picker');
    const lookup = '/api/wit-xinde/device/lazy-list';
    expect((await staff.client.get(lookup)).status).toBe(200);
    const api = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-system/api-scope/submit', { menuId: '1', resourceCode: 'device_picker', scopeName: '设备选择', scopePath: '/wit-xinde/device/lazy-list', scopeType: 1 }),
    );
    try {
      expect((await staff.client.get(lookup)).status).toBe(403);
      await grantScope(ctx.server, staff.roleId, api.id, 2);
      expect((await staff.client.get(lookup)).status).toBe(200);
    } finally {
      expectOk(await ctx.admin.post('/api/blade-system/api-scope/remove', undefined, { ids: api.id }));
    }
  });

  it('never holds the caller’s own and session routes to an API scope: nobody is locked out of their profile or sign-out', async () => {
    const staff = await createStaff(ctx.server, '100001', 'session_scoped');
    const own = ['/wit-xinde/alarm/getNoticeInfo', '/blade-auth/oauth/user-info'];
    const ids: string[] = [];
    try {
      for (const path of own) {
        const scope = { menuId: '1', resourceCode: `own_${ids.length}`, scopeName: `本人接口 ${path}`, scopePath: path, scopeType: 1 };
        ids.push(expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/api-scope/submit', scope)).id);
      }
      // Covered by scopes the staff's role is not granted, and still answered.
      for (const path of own) expect((await staff.client.get(`/api${path}`)).status, path).toBe(200);
    } finally {
      expectOk(await ctx.admin.post('/api/blade-system/api-scope/remove', undefined, { ids: ids.join(',') }));
    }
  });

  it('enforces "own dept and its children", by the dept tree and not by a look-alike id', async () => {
    const db = ctx.server.app.platform.db;
    const now = '2026-01-01 00:00:00';
    // Dept 17001 contains 7001 in its digits; its child 17002 has ancestors '0,17001'.
    const depts = [
      { id: '7001', parentId: '0', ancestors: '0', deptName: '一工区' },
      { id: '7002', parentId: '7001', ancestors: '0,7001', deptName: '一工区测量组' },
      { id: '17001', parentId: '0', ancestors: '0', deptName: '十七工区' },
      { id: '17002', parentId: '17001', ancestors: '0,17001', deptName: '十七工区测量组' },
    ];
    await db.insertInto('blade_dept').values(depts.map((d) => ({ ...d, tenantId: '100001', sort: 1, createTime: now, updateTime: now, status: 1, isDeleted: 0 }))).execute();
    const staffIn = async (account: string, deptId: string) => {
      const staff = await createStaff(ctx.server, '100001', account);
      await db.updateTable('blade_user').set({ deptId }).where('id', '=', staff.userId).execute();
      ctx.server.app.platform.events.emit('changed', 'blade_user');
      return { ...staff, client: await signedIn(ctx.server.url, account, 'Staff@123', '100001') };
    };
    const lead = await staffIn('lead7001', '7001');
    const surveyor = await staffIn('survey7002', '7002');
    const stranger = await staffIn('survey17002', '17002');
    for (const [who, key] of [[lead, 'dept.lead'], [surveyor, 'dept.child'], [stranger, 'dept.lookalike']] as const) {
      expectOk(await who.client.post('/api/blade-system/param/submit', { paramName: key, paramKey: key, paramValue: 'v' }));
    }
    const scope = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: '1', resourceCode: 'blade-system/param', scopeName: '本部门及下级可见', scopeType: 4 }),
    );
    await grantScope(ctx.server, lead.roleId, scope.id, 1);
    const keys = expectOk(await lead.client.get<PageData>('/api/blade-system/param/list', { size: 100, paramKey: 'dept.' })).records.map((r) => r.paramKey);
    expect(keys.sort()).toEqual(['dept.child', 'dept.lead']);
    expectOk(await ctx.admin.post('/api/blade-system/data-scope/remove', undefined, { ids: scope.id }));
  });

  const apiScope = async (code: string, scopePath: string) =>
    expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/api-scope/submit', { menuId: '1', resourceCode: code, scopeName: code, scopePath, scopeType: 1 })).id;
  /** How the params' list answers a caller. */
  const status = async (client: ApiClient) => (await client.get('/api/blade-system/param/list')).status;

  it('reads API scope paths with or without /api and spaces, and lets a holder of any covering scope through', async () => {
    const staff = await createStaff(ctx.server, '100001', 'apiscoped');
    const plain = await createStaff(ctx.server, '100001', 'apiplain');
    // Only a leading /api is the prefix: a path with /api/ further in names no route of params.
    const inner = await apiScope('param_inner', '/blade-system/param/api/**');
    expect(await status(plain.client)).toBe(200);
    const prefixed = await apiScope('param_prefixed', ' /api/blade-system/param/** ');
    expect(await status(plain.client)).toBe(403);
    // A second scope covers the list too: holding either one is enough.
    const second = await apiScope('param_list', '/blade-system/param/list');
    await grantScope(ctx.server, staff.roleId, second, 2);
    expect(await status(staff.client)).toBe(200);
    // So is holding it through one of two roles.
    const db = ctx.server.app.platform.db;
    await db.updateTable('blade_user').set({ roleId: `${plain.roleId},${staff.roleId}` }).where('id', '=', staff.userId).execute();
    ctx.server.app.platform.events.emit('changed', 'blade_user');
    expect(await status(await signedIn(ctx.server.url, 'apiscoped', 'Staff@123', '100001'))).toBe(200);
    expect(await status(plain.client)).toBe(403);
    expectOk(await ctx.admin.post('/api/blade-system/api-scope/remove', undefined, { ids: [inner, prefixed, second].join(',') }));
  });

  it('reads * in an API scope path as one segment, not more', async () => {
    const plain = await createStaff(ctx.server, '100001', 'apiglob');
    // `/blade-system/*` names the service's routes of one segment: not the params' list.
    const top = await apiScope('system_top', '/blade-system/*');
    expect(await status(plain.client)).toBe(200);
    const lists = await apiScope('system_lists', '/blade-system/*/list');
    expect(await status(plain.client)).toBe(403);
    expectOk(await ctx.admin.post('/api/blade-system/api-scope/remove', undefined, { ids: [top, lists].join(',') }));
    expect(await status(plain.client)).toBe(200);
  });
});
