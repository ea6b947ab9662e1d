import { ADMINISTRATOR } from '../../auth/principal';
import { nextId } from '../../ids';
import type { Db } from '../database';
import { seedId } from './ids';
import { insertMissing } from './write';

/**
 * Adds buttons to a leaf of stores seeded before it had them, by code: the administrator roles that hold the leaf are
 * granted them and the packages that include the leaf include them. Nothing when the leaf was removed; a button an
 * administrator removed since stays removed, and is not granted.
 */
export async function addMenuButtons(db: Db, code: string, buttons: ReadonlyArray<readonly [suffix: string, name: string, action: number]>): Promise<void> {
  const leaf = await db.selectFrom('blade_menu').select(['id', 'path']).where('code', '=', code).where('isDeleted', '=', 0).executeTakeFirst();
  if (!leaf) return;
  const rows = buttons.map(([suffix, name, action], i) => ({
    id: seedId(`menu:${code}_${suffix}`),
    parentId: leaf.id,
    code: `${code}_${suffix}`,
    name,
    alias: suffix,
    path: `${leaf.path}/${suffix}`,
    sort: i + 1,
    category: 2,
    action,
    isOpen: 1,
  }));
  await insertMissing(db, 'blade_menu', ['code'], rows);
  const live = await db.selectFrom('blade_menu').select('id').where('code', 'in', rows.map((r) => r.code)).where('isDeleted', '=', 0).execute();
  const buttonIds = live.map((b) => b.id);
  if (buttonIds.length === 0) return;

  const holders = await db
    .selectFrom('blade_role_menu')
    .innerJoin('blade_role', 'blade_role.id', 'blade_role_menu.roleId')
    .select('blade_role.id')
    .where('blade_role.roleAlias', '=', ADMINISTRATOR)
    .where('blade_role.isDeleted', '=', 0)
    .where('blade_role_menu.menuId', '=', leaf.id)
    .execute();
  const grants = holders.flatMap((role) => buttonIds.map((menuId) => ({ id: nextId(), roleId: role.id, menuId })));
  await insertMissing(db, 'blade_role_menu', ['roleId', 'menuId'], grants, false);

  const packages = await db.selectFrom('blade_tenant_package').select(['id', 'menuId']).where('isDeleted', '=', 0).execute();
  for (const pkg of packages) {
    const menus = String(pkg.menuId ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!menus.includes(leaf.id)) continue;
    const missing = buttonIds.filter((id) => !menus.includes(id));
    if (missing.length) await db.updateTable('blade_tenant_package').set({ menuId: [...menus, ...missing].join(',') }).where('id', '=', pkg.id).execute();
  }
}
