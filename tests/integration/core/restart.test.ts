import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { ADMINISTRATOR } from '../../../server/auth/principal';
import { type Db, openDatabase } from '../../../server/db/database';
import { LEGACY_SEED_STEPS, SEED_STEPS } from '../../../server/db/seed';
import { seedId } from '../../../server/db/seed/ids';
import { runSeedSteps } from '../../../server/db/seed/runner';
import { insertMissing, type SeedStep } from '../../../server/db/seed/write';
// Helpers below name their tables at run time (introspection, lists): they use the untyped view.
import { loose } from '../../../server/db/tables';
import { nextId } from '../../../server/ids';
import { type ApiClient, type Envelope, type Reply, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { startServer, type TestServer, type TestStore } from '../../support/server';
import { expectEvery } from '../../support/lists';

/**
 * A deployment restarted on its data: what administrators wrote through every kind of admin screen survives, the
 * seed never fails on it and never writes again what they removed (server/db/seed.ts).
 */

const PLATFORM = '000000';
const DEMO = '100001';
const menuId = (code: string) => seedId(`menu:${code}`);
const demoAdminRole = seedId(`role:${DEMO}:administrator`);
const SEED_TABLES = [
  'blade_client', 'blade_menu', 'blade_dict', 'blade_tenant_package', 'blade_tenant', 'blade_dept', 'blade_post', 'blade_role', 'blade_user',
  'blade_role_menu', 'blade_param', 'wit_project', 'wit_device', 'wit_device_point', 'wit_monitor_point', 'wit_mqtt_user', 'wit_mqtt_param',
];

function ok<T>(reply: Reply<Envelope<T>>): T {
  expect(reply.body, JSON.stringify(reply.body)).toMatchObject({ code: 200, success: true });
  return reply.body.data;
}

const postQuery = (api: ApiClient, path: string, query: Record<string, string>) => api.request<Envelope>('POST', path, { query });

const grantedMenus = async (api: ApiClient) =>
  ok(await api.get<{ menu: string[] }>('/api/blade-system/menu/role-tree-keys', { roleIds: demoAdminRole })).menu;

const grant = async (api: ApiClient, menuIds: string[]) => ok(await api.post('/api/blade-system/role/grant', { roleIds: [demoAdminRole], menuIds }));

/** One write of each admin screen's kind, through the HTTP API. */
async function administer(api: ApiClient): Promise<void> {
  // 角色管理: untick a menu of 租户管理员, save, tick it again, save (the same pairs under new ids); then remove one for good
  const granted = await grantedMenus(api);
  await grant(api, granted.filter((id) => id !== menuId('notice_view')));
  await grant(api, granted);
  await grant(api, granted.filter((id) => id !== menuId('post_delete')));
  // 菜单管理: rename a menu, delete a button
  ok(await api.post('/api/blade-system/menu/submit', { id: menuId('notice'), name: '公告' }));
  ok(await postQuery(api, '/api/blade-system/menu/remove', { ids: menuId('code_copy') }));
  // 字典管理: change an entry, delete an entry
  ok(await api.post('/api/blade-system/dict/submit', { id: seedId('dict:sex:3'), dictValue: '保密' }));
  ok(await postQuery(api, '/api/blade-system/dict/remove', { ids: seedId('dict:flow:leave') }));
  // 参数管理
  ok(await api.post('/api/blade-system/param/submit', { id: seedId(`param:${DEMO}:account.initPassword`), paramValue: 'Changed@2026' }));
  // 租户管理, 租户产品包, 应用管理
  ok(await api.post('/api/blade-system/tenant/update', { id: seedId(`tenant:${DEMO}`), linkman: '李工' }));
  ok(await api.post('/api/blade-system/tenant-package/submit', { id: seedId('package:standard'), packageName: '基础产品包' }));
  ok(await postQuery(api, '/api/blade-system/client/remove', { ids: seedId('client:sword') }));
  // 用户管理
  ok(await api.post('/api/blade-user/submit', { id: seedId(`user:${DEMO}:admin`), realName: '演示管理员' }));
  // a seeded project deleted, then purged from the recycle bin
  ok(await postQuery(api, '/api/wit-xinde/project/remove', { ids: REFERENCE_IDS.project }));
  ok(await api.get('/api/wit-xinde/project/deleteProjectById', { id: REFERENCE_IDS.project }));
}

/** What the administrator's writes left, and how many rows each seeded table holds. */
async function facts(db: Db) {
  const rows = (table: string, columns: string[], only?: readonly [column: string, values: string[]]) => {
    let query = loose(db).selectFrom(table).select(columns);
    if (only) query = query.where(only[0], 'in', only[1]);
    return query.orderBy('id').execute();
  };
  const counts: Record<string, number> = {};
  for (const table of SEED_TABLES) {
    counts[table] = Number((await loose(db).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  }
  const granted = await db.selectFrom('blade_role_menu').select('menuId').where('roleId', '=', demoAdminRole).execute();
  return {
    counts,
    granted: granted.map((r) => String(r.menuId)).sort(),
    menus: await rows('blade_menu', ['code', 'name', 'isDeleted'], ['code', ['notice', 'code_copy']]),
    dict: await rows('blade_dict', ['code', 'dictKey', 'dictValue', 'isDeleted'], ['code', ['sex', 'flow']]),
    params: await rows('blade_param', ['tenantId', 'paramValue', 'isDeleted']),
    tenants: await rows('blade_tenant', ['tenantId', 'linkman', 'packageId', 'isDeleted']),
    packages: await rows('blade_tenant_package', ['packageName', 'isDeleted']),
    clients: await rows('blade_client', ['clientId', 'isDeleted']),
    users: await rows('blade_user', ['tenantId', 'account', 'realName', 'isDeleted']),
    projects: await rows('wit_project', ['tenantId', 'code', 'isDeleted']),
  };
}

type Facts = Awaited<ReturnType<typeof facts>>;

/** Opens the store the way a tool beside the server would (the server being stopped). */
async function withStore<T>(store: TestStore, run: (db: Db) => Promise<T>): Promise<T> {
  const database = openDatabase(store);
  try {
    return await run(database.db);
  } finally {
    await database.close();
  }
}

/** A later module's step: a new button on 通知公告, granted to every administrator role that holds the menu. */
const exportButton: SeedStep = {
  name: '0099_notice_export',
  async run(db) {
    const notice = await db.selectFrom('blade_menu').select('id').where('code', '=', 'notice').executeTakeFirstOrThrow();
    const menus = await insertMissing(db, 'blade_menu', ['code'], [
      { id: seedId('menu:notice_export'), parentId: notice.id, code: 'notice_export', name: '导出', alias: 'export', path: '/desk/notice/export', sort: 5, category: 2, action: 1, isOpen: 1 },
    ]);
    const holders = await db
      .selectFrom('blade_role_menu')
      .innerJoin('blade_role', 'blade_role.id', 'blade_role_menu.roleId')
      .select('blade_role.id')
      .where('blade_role.roleAlias', '=', ADMINISTRATOR)
      .where('blade_role_menu.menuId', '=', notice.id)
      .execute();
    const button = menus.get('notice_export') as string;
    await insertMissing(db, 'blade_role_menu', ['roleId', 'menuId'], holders.map((r) => ({ id: nextId(), roleId: String(r.id), menuId: button })), false);
    // a dictionary entry that exists already (an administrator changed its value): left as it is
    await insertMissing(db, 'blade_dict', ['code', 'dictKey'], [{ id: nextId(), parentId: seedId('dict:sex'), code: 'sex', dictKey: '3', dictValue: '未知', sort: 3, isSealed: 0 }]);
  },
};

describe.each(await storeKinds())('restarting on the same store (%s)', (kind) => {
  let server: TestServer | undefined;
  let store: TestStore | undefined;
  afterAll(async () => {
    await server?.stop();
    if (!server) await store?.remove();
  });

  /** Stops the running server, keeping its store, and starts another one on it. */
  const restart = async () => {
    await server?.stop({ keepStore: true });
    server = undefined;
    server = await startServer(kind, {}, undefined, store);
    return server;
  };
  let before: Facts;

  it('keeps what administrators wrote, and starts again after a grant was saved twice', async () => {
    server = await startServer(kind);
    store = server.storage;
    await administer(await signedIn(server.url));
    before = await facts(server.app.platform.db);
    expect(before.granted).not.toContain(menuId('post_delete'));
    expect(before.granted).toContain(menuId('notice_view'));
    expect(before.projects.some((p) => p.code === 'BENCH')).toBe(false);

    const again = await restart();
    expect(await facts(again.app.platform.db)).toEqual(before);
    // the changed seed is in force: the demo administrator signs in and lacks the removed grant
    const demo = await signedIn(again.url, 'admin', 'admin', DEMO);
    expect(await grantedMenus(demo)).not.toContain(menuId('post_delete'));
  });

  it('adopts a store seeded before seed steps were recorded, without seeding it again', async () => {
    await server?.stop({ keepStore: true });
    server = undefined;
    await withStore(store as TestStore, (db) => db.deleteFrom('vigil_seed_step').execute());
    const again = await restart();
    expect(await facts(again.app.platform.db)).toEqual(before);
    const recorded = await again.app.platform.db.selectFrom('vigil_seed_step').select('name').orderBy('name').execute();
    // the legacy steps are recorded without running; the later ones run, by natural key, and find their rows there
    expect(recorded.map((r) => r.name)).toEqual(SEED_STEPS.map((step) => step.name).sort());
    expectEvery(LEGACY_SEED_STEPS, (name) => recorded.some((r) => r.name === name));
  });

  it('never brings back a purged tenant', async () => {
    const api = await signedIn((server as TestServer).url);
    ok(await postQuery(api, '/api/blade-system/tenant/remove', { ids: seedId(`tenant:${DEMO}`) }));
    ok(await api.get('/api/blade-system/tenant/deleteTenantById', { tenantId: DEMO }));
    const again = await restart();
    const tenants = await again.app.platform.db.selectFrom('blade_tenant').select('tenantId').execute();
    expect(tenants.map((t) => t.tenantId)).toEqual([PLATFORM]);
    const demoRows = await again.app.platform.db.selectFrom('blade_user').select('id').where('tenantId', '=', DEMO).execute();
    expect(demoRows).toEqual([]);
  });

  it('runs a later step once, adding by natural key to a store with data', async () => {
    await server?.stop({ keepStore: true });
    server = undefined;
    const steps = [...SEED_STEPS, exportButton];
    const ran = await withStore(store as TestStore, async (db) => [await runSeedSteps(db, steps), await runSeedSteps(db, steps)]);
    expect(ran).toEqual([['0099_notice_export'], []]);
    const again = await restart();
    const db = again.app.platform.db;
    const buttons = await db.selectFrom('blade_menu').select('id').where('code', '=', 'notice_export').execute();
    expect(buttons).toHaveLength(1);
    const grants = await db.selectFrom('blade_role_menu').select('roleId').where('menuId', '=', String(buttons[0].id)).execute();
    expect(grants.map((g) => g.roleId)).toEqual([seedId(`role:${PLATFORM}:administrator`)]);
    const sex3 = await db.selectFrom('blade_dict').select('dictValue').where('code', '=', 'sex').where('dictKey', '=', '3').execute();
    expect(sex3).toEqual([{ dictValue: '保密' }]);
  });
});
