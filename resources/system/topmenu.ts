import { z } from 'zod';
import { defineResource } from '../define';
import { int, required, text } from '../fields';

/** Top-bar menus of a tenant; each is granted a set of menus that the sidebar shows when it is chosen. */
export const topmenu = defineResource({
  service: 'blade-system',
  name: 'topmenu',
  menu: 'topmenu',
  table: 'blade_top_menu',
  tenancy: 'tenant',
  fields: z.object({
    code: required('请输入菜单编号'),
    name: required('请输入菜单名称'),
    source: text().nullish(),
    sort: int().nullish(),
  }),
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['code'], message: '顶部菜单编号已存在' }],
  example: { code: 'monitoring', name: '监测业务', source: 'timeline-line-chart', sort: 1 },
});
