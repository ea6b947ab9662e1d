import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { ADMINISTRATOR } from '../../../server/auth/principal';
import { seedId } from '../../../server/db/seed/ids';
import { signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk } from '../../support/envelope';
import { startServer, type TestServer } from '../../support/server';
import { DEMO, X } from '../monitoring/support';

const BUTTONS = ['screen_add', 'screen_edit', 'screen_delete', 'screen_view', 'screen_layout'];

/**
 * Seed step 0006 on a store seeded while 监测大屏 was a read-only leaf: its buttons are added by code, granted to the
 * administrator roles that hold the menu and put in the packages that include it — so a tenant's administrator can
 * manage display links after the upgrade, with nothing of the store otherwise changed.
 */
describe.each(await storeKinds())('seed step 0006 on an older store (%s)', (kind) => {
  let server: TestServer | undefined;
  afterAll(() => server?.stop());

  it('gives the screen menu its buttons, to the administrators and packages that hold the menu', async () => {
    const first = await startServer(kind);
    const db = first.app.platform.db;
    // The store as it was before: no buttons under the menu, no grants or package entries of them, step not run.
    const buttons = await db.selectFrom('blade_menu').select('id').where('code', 'in', BUTTONS).execute();
    expect(buttons).toHaveLength(BUTTONS.length);
    const ids = buttons.map((b) => b.id);
    await db.deleteFrom('blade_role_menu').where('menuId', 'in', ids).execute();
    await db.deleteFrom('blade_menu').where('id', 'in', ids).execute();
    const pkg = await db.selectFrom('blade_tenant_package').select(['id', 'menuId']).where('id', '=', seedId('package:standard')).executeTakeFirstOrThrow();
    await db.updateTable('blade_tenant_package').set({ menuId: String(pkg.menuId).split(',').filter((id) => !ids.includes(id)).join(',') }).where('id', '=', pkg.id).execute();
    await db.deleteFrom('vigil_seed_step').where('name', '=', '0006_screen_buttons').execute();
    const older = await signedIn(first.url, 'admin', 'admin', DEMO);
    expect((await older.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: REFERENCE_IDS.project })).status).toBe(403);
    await first.stop({ keepStore: true });

    server = await startServer(kind, {}, undefined, first.storage);
    const after = server.app.platform.db;
    const added = await after.selectFrom('blade_menu').select(['id', 'code', 'parentId']).where('code', 'in', BUTTONS).where('isDeleted', '=', 0).execute();
    expect(added.map((b) => b.code).sort()).toEqual([...BUTTONS].sort());
    expect(new Set(added.map((b) => b.parentId))).toEqual(new Set([seedId('menu:screen')]));
    const holders = await after
      .selectFrom('blade_role_menu')
      .innerJoin('blade_role', 'blade_role.id', 'blade_role_menu.roleId')
      .select(['blade_role.tenantId', 'blade_role.roleAlias'])
      .where('blade_role_menu.menuId', '=', added.find((b) => b.code === 'screen_add')?.id ?? '')
      .execute();
    expect(holders.map((h) => h.tenantId).sort()).toEqual(['000000', DEMO]);
    expect(holders.every((h) => h.roleAlias === ADMINISTRATOR)).toBe(true);
    const packaged = await after.selectFrom('blade_tenant_package').select('menuId').where('id', '=', seedId('package:standard')).executeTakeFirstOrThrow();
    for (const button of added) expect(String(packaged.menuId).split(',')).toContain(button.id);
    // The demo tenant's administrator manages links again (the menu's project: its own).
    const demo = await signedIn(server.url, 'admin', 'admin', DEMO);
    const projectId = (await after.selectFrom('wit_project').select('id').where('tenantId', '=', DEMO).executeTakeFirstOrThrow()).id;
    expect(expectOk(await demo.post<{ secret: string }>(`${X}/displaylink/submit`, { name: '大屏', projectIds: projectId })).secret).toBeTruthy();
  });
});
