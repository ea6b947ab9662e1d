import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Holdings } from '../../../server/auth/rights';
import { seedId } from '../../../server/db/seed/ids';
import { expectOk, postParams } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, menuId, PLATFORM } from './support';

/**
 * The rights service keeps what a set of roles holds until a grant, menu, role, tenant or package changes
 * (server/auth/rights.ts): each kind of change, made the way an administrator makes it, shows on the very next check,
 * the cache warmed before it. A tenant moved to another package is in tenant.test.ts; changes to users (roles taken
 * away, accounts disabled) in escalation.test.ts.
 */
onEveryStore('cached rights', { signIn: ['admin', 'demo'] }, (ctx) => {
  const holdings = (tenantId: string, roleId: string): Promise<Holdings> => ctx.server.app.platform.rights.of(tenantId, [roleId]);
  let platformRole: string;

  const role = async (tenantId: string, alias: string) => {
    const client = tenantId === PLATFORM ? ctx.admin : ctx.demo;
    return expectOk(await client.post<{ id: string }>('/api/blade-system/role/submit', { roleName: alias, roleAlias: alias, sort: 5 })).id;
  };

  beforeAll(async () => {
    platformRole = await role(PLATFORM, 'cachep');
  });

  it('sees a menu granted to the role, and one taken away', async () => {
    expect([...(await holdings(PLATFORM, platformRole)).codes]).toEqual([]);
    expectOk(await ctx.admin.post('/api/blade-system/role/grant', { roleIds: [platformRole], menuIds: [menuId('system'), menuId('param')] }));
    expect([...(await holdings(PLATFORM, platformRole)).codes].sort()).toEqual(['param', 'system']);
    expectOk(await ctx.admin.post('/api/blade-system/role/grant', { roleIds: [platformRole], menuIds: [menuId('system')] }));
    expect([...(await holdings(PLATFORM, platformRole)).codes]).toEqual(['system']);
  });

  it('sees data and API scopes granted, each as its own kind', async () => {
    const scope = async (kind: 'data' | 'api', code: string) =>
      expectOk(
        await ctx.admin.post<{ id: string }>(`/api/blade-system/${kind}-scope/submit`, {
          menuId: menuId('param'), resourceCode: code, scopeName: code, scopeType: 1, ...(kind === 'api' ? { scopePath: `/${code}/**` } : {}),
        }),
      ).id;
    const data = await scope('data', 'cache-data');
    const api = await scope('api', 'cache-api');
    const grant = (scopes: { dataScopeIds?: string[]; apiScopeIds?: string[] }) =>
      ctx.admin.post('/api/blade-system/role/grant', { roleIds: [platformRole], menuIds: [menuId('system'), menuId('param')], ...scopes });
    expect((await holdings(PLATFORM, platformRole)).dataScopes.size).toBe(0);
    expectOk(await grant({ dataScopeIds: [data] }));
    let held = await holdings(PLATFORM, platformRole);
    expect([[...held.dataScopes], [...held.apiScopes]]).toEqual([[data], []]);
    expectOk(await grant({ apiScopeIds: [api] }));
    held = await holdings(PLATFORM, platformRole);
    expect([[...held.dataScopes], [...held.apiScopes]]).toEqual([[], [api]]);
  });

  it('sees a menu’s new code, and a removed menu gone', async () => {
    const menu = expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/menu/submit', { name: '缓存', code: 'cachemenu', path: '/cachemenu', category: 1 })).id;
    expectOk(await ctx.admin.post('/api/blade-system/role/grant', { roleIds: [platformRole], menuIds: [menu] }));
    expect([...(await holdings(PLATFORM, platformRole)).codes]).toEqual(['cachemenu']);
    expectOk(await ctx.admin.post('/api/blade-system/menu/submit', { id: menu, name: '缓存', code: 'cachemenu2', path: '/cachemenu', category: 1 }));
    expect([...(await holdings(PLATFORM, platformRole)).codes]).toEqual(['cachemenu2']);
    expectOk(await postParams(ctx.admin, '/api/blade-system/menu/remove', { ids: menu }));
    expect([...(await holdings(PLATFORM, platformRole)).codes]).toEqual([]);
  });

  it('sees a removed role hold nothing', async () => {
    const gone = await role(DEMO, 'cachegone');
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [gone], menuIds: [menuId('system')] }));
    expect([...(await holdings(DEMO, gone)).codes]).toEqual(['system']);
    expectOk(await postParams(ctx.demo, '/api/blade-system/role/remove', { ids: gone }));
    expect([...(await holdings(DEMO, gone)).codes]).toEqual([]);
  });

  it('sees the tenant’s package narrowed, and a package naming only a button still gives the menus above it', async () => {
    const other = await role(DEMO, 'cached');
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [other], menuIds: [menuId('system'), menuId('user'), menuId('user_add'), menuId('param')] }));
    expect([...(await holdings(DEMO, other)).codes].sort()).toEqual(['param', 'system', 'user', 'user_add']);
    const standard = seedId('package:standard');
    const before = expectOk(await ctx.admin.get<{ menuId: string }>('/api/blade-system/tenant-package/detail', { id: standard })).menuId;
    // Only the button: its menu and the menu's directory come with it, the unlisted param menu does not.
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/submit', { id: standard, packageName: '标准包', menuId: [menuId('user_add')] }));
    expect([...(await holdings(DEMO, other)).codes].sort()).toEqual(['system', 'user', 'user_add']);
    expectOk(await ctx.admin.post('/api/blade-system/tenant-package/submit', { id: standard, packageName: '标准包', menuId: before }));
    expect([...(await holdings(DEMO, other)).codes].sort()).toEqual(['param', 'system', 'user', 'user_add']);
  });

  it('holds every menu as the platform administrator, one granted to no role included', async () => {
    expectOk(await ctx.admin.post('/api/blade-system/menu/submit', { name: '新菜单', code: 'cacheall', path: '/cacheall', category: 1 }));
    const every = await ctx.server.app.platform.db.selectFrom('blade_menu').select('code').where('isDeleted', '=', 0).execute();
    const held = await holdings(PLATFORM, seedId(`role:${PLATFORM}:administrator`));
    expect(held.platform).toBe(true);
    expect([...held.codes].sort()).toEqual(every.map((m) => m.code).sort());
  });

  it('does not keep a load that failed: the next check reads again', async () => {
    const fresh = await role(PLATFORM, 'cachefail');
    expectOk(await ctx.admin.post('/api/blade-system/role/grant', { roleIds: [fresh], menuIds: [menuId('system')] }));
    const { db } = ctx.server.app.platform;
    // The database refuses the read for a moment (a lock, a restart): the first check fails with it.
    await sql`alter table blade_role_scope rename to blade_role_scope_away`.execute(db);
    try {
      await expect(holdings(PLATFORM, fresh)).rejects.toThrow();
    } finally {
      await sql`alter table blade_role_scope_away rename to blade_role_scope`.execute(db);
    }
    expect([...(await holdings(PLATFORM, fresh)).codes]).toEqual(['system']);
  });
});
