import type { FastifyInstance } from 'fastify';
import { topmenu } from '../../../../resources/system/topmenu';
import { bodyOf, contextOf, paramsOf } from '../../../http/context';
import { badRequest, ok } from '../../../http/envelope';
import { nextId } from '../../../ids';
import type { Platform } from '../../../platform';
import { idArray, insertChunked, MenuSet } from './grants';
import { needs } from '../../../auth/rights';

/** Top menus (tenant) and their grants: `grant` replaces the menus of the given top menus in one transaction. */
export function registerTopMenu(app: FastifyInstance, platform: Platform): void {
  const { db } = platform;

  app.post('/blade-system/topmenu/grant', needs('topmenu_setting'), async (request) => {
    const ctx = contextOf(request);
    const body = { ...paramsOf(request), ...bodyOf(request) };
    const topMenuIds = idArray(body.topMenuIds);
    const menuIds = idArray(body.menuIds);
    if (topMenuIds.length === 0) throw badRequest('请选择顶部菜单');
    const visible = await platform.repo(topmenu).all(ctx, {}, [(eb) => eb('id', 'in', topMenuIds)]);
    if (visible.length !== topMenuIds.length) throw badRequest('顶部菜单不存在或无权操作');
    const menus = await MenuSet.load(db);
    if (menuIds.some((id) => !menus.byId.has(id))) throw badRequest('菜单不存在');
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('blade_top_menu_setting').where('topMenuId', 'in', topMenuIds).execute();
      const links = topMenuIds.flatMap((topMenuId) => menuIds.map((menuId) => ({ id: nextId(), topMenuId, menuId })));
      await insertChunked(trx, 'blade_top_menu_setting', links);
    });
    platform.events.emit('changed', 'blade_top_menu_setting');
    return ok(true);
  });
}
