import { z } from 'zod';
import { defineResource } from '../define';
import { id, int, required, text } from '../fields';

/** Menu category: 1 a menu (a route), 2 a button (a permission code). */
export const MENU_CATEGORY = { menu: 1, button: 2 } as const;

/**
 * Menus and buttons (CONTRACT.md "Menus and permissions"). Global: every tenant reads the same tree, only the
 * platform administrator changes it; roles are granted menus and tenant packages limit what a tenant may grant.
 */
export const menu = defineResource({
  service: 'blade-system',
  name: 'menu',
  menu: 'menu',
  table: 'blade_menu',
  tenancy: 'global',
  fields: z.object({
    parentId: id().nullish(),
    code: required('请输入菜单编号'),
    name: required('请输入菜单名称'),
    alias: text().nullish(),
    path: text().nullish(),
    source: text().nullish(),
    sort: int().nullish(),
    category: z.coerce.number<unknown>({ error: '请选择菜单类型' }).int('请选择菜单类型').min(1, '请选择菜单类型').max(2, '请选择菜单类型'),
    action: z.coerce.number<unknown>().int().min(0, '按钮功能应为0到3').max(3, '按钮功能应为0到3').nullish(),
    isOpen: z.coerce.number<unknown>().int().min(1, '新窗口打开应为1或2').max(2, '新窗口打开应为1或2').nullish(),
    remark: text().nullish(),
  }),
  parentField: 'parentId',
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['code'], message: '菜单编号已存在' }],
  example: { parentId: '0', code: 'example_menu', name: '示例菜单', alias: 'menu', path: '/example', source: 'cog', sort: 99, category: 1, action: 0, isOpen: 1 },
});
