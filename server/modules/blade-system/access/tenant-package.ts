import type { FastifyInstance } from 'fastify';
import { tenantPackage } from '../../../../resources/system/tenant-package';
import { isPlatformAdmin } from '../../../auth/principal';
import type { Db } from '../../../db/database';
import { type CrudHooks, registerCrud } from '../../../http/crud';
import { contextOf } from '../../../http/context';
import { badRequest, forbidden, ok } from '../../../http/envelope';
import type { Platform } from '../../../platform';
import { idArray, MenuSet } from './grants';
import { forest, treeNode } from '../../../http/trees';
import { needs } from '../../../auth/rights';

/**
 * Package menus must exist; they are stored comma-joined and deduplicated. Menus deleted since the package was saved
 * are dropped quietly (the console sends the stored list back on edit); unknown new ids are refused.
 */
function packageHooks(db: Db): CrudHooks {
  return {
    async beforeSave(_ctx, values, existing) {
      if (values.menuId === undefined) return values;
      const menus = await MenuSet.load(db);
      const stored = new Set(idArray(existing?.menuId));
      const ids = idArray(values.menuId);
      if (ids.some((id) => !menus.byId.has(id) && !stored.has(id))) throw badRequest('菜单不存在');
      const live = ids.filter((id) => menus.byId.has(id));
      if (live.length === 0) throw badRequest('请选择菜单');
      return { ...values, menuId: live.join(',') };
    },
    async beforeRemove(_ctx, ids) {
      const user = await db.selectFrom('blade_tenant').select('tenantName').where('packageId', 'in', ids).where('isDeleted', '=', 0).executeTakeFirst();
      if (user) throw badRequest(`产品包正被租户「${user.tenantName}」使用,不能删除`);
    },
  };
}

/**
 * Tenant packages: generic CRUD plus `GET tenant-package/menu-tree`, the whole menu tree (menus and buttons) the
 * package form's menu picker shows — menu/tree has menus only, and packages also limit buttons.
 */
export function registerTenantPackage(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, tenantPackage, packageHooks(platform.db));

  app.get('/blade-system/tenant-package/menu-tree', needs('tenant_package'), async (request) => {
    if (!isPlatformAdmin(contextOf(request).principal)) throw forbidden();
    const menus = await MenuSet.load(platform.db);
    return ok(forest(menus.rows.map((m) => treeNode(m.id, m.parentId, m.name))));
  });
}
