import { ADMINISTRATOR } from '../../auth/principal';
import { nextId } from '../../ids';
import type { Db } from '../database';
import { seedId } from './ids';
import { SCREEN_BUTTONS, STANDARD_BUTTONS } from './menus';
import { insertMissing } from './write';

/**
 * Step 0006: 监测大屏 (menu `screen`) becomes the display link manager (docs/wall-screen.md). Stores seeded while it was
 * a read-only leaf get its buttons — 新增, 修改, 删除, 查看 and 布局 — by code; the administrator roles that hold the menu
 * are granted them, and the packages that include the menu include them. Nothing when the menu was removed.
 */
export async function seedScreenButtons(db: Db): Promise<void> {
  const screen = await db.selectFrom('blade_menu').select(['id', 'path']).where('code', '=', 'screen').where('isDeleted', '=', 0).executeTakeFirst();
  if (!screen) return;
  const buttons = [...STANDARD_BUTTONS, ...SCREEN_BUTTONS.map(([suffix, name]) => [suffix, name, 2] as const)];
  const rows = buttons.map(([suffix, name, action], i) => ({
    id: seedId(`menu:screen_${suffix}`),
    parentId: screen.id,
    code: `screen_${suffix}`,
    name,
    alias: suffix,
    path: `${screen.path}/${suffix}`,
    sort: i + 1,
    category: 2,
    action,
    isOpen: 1,
  }));
  await insertMissing(db, 'blade_menu', ['code'], rows);
  // Only buttons that are live: one an administrator removed since stays removed, and is not granted.
  const live = await db.selectFrom('blade_menu').select('id').where('code', 'in', rows.map((r) => r.code)).where('isDeleted', '=', 0).execute();
  const buttonIds = live.map((b) => b.id);
  if (buttonIds.length === 0) return;

  const holders = await db
    .selectFrom('blade_role_menu')
    .innerJoin('blade_role', 'blade_role.id', 'blade_role_menu.roleId')
    .select('blade_role.id')
    .where('blade_role.roleAlias', '=', ADMINISTRATOR)
    .where('blade_role.isDeleted', '=', 0)
    .where('blade_role_menu.menuId', '=', screen.id)
    .execute();
  const grants = holders.flatMap((role) => buttonIds.map((menuId) => ({ id: nextId(), roleId: role.id, menuId })));
  await insertMissing(db, 'blade_role_menu', ['roleId', 'menuId'], grants, false);

  const packages = await db.selectFrom('blade_tenant_package').select(['id', 'menuId']).where('isDeleted', '=', 0).execute();
  for (const pkg of packages) {
    const menus = String(pkg.menuId ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!menus.includes(screen.id)) continue;
    const missing = buttonIds.filter((id) => !menus.includes(id));
    if (missing.length) await db.updateTable('blade_tenant_package').set({ menuId: [...menus, ...missing].join(',') }).where('id', '=', pkg.id).execute();
  }
}
