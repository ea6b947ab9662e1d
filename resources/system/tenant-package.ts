import { z } from 'zod';
import { defineResource } from '../define';
import { idList, required, text } from '../fields';

/** Comma-joined menu ids, required (spec §5 "Tenant package": 请选择菜单). */
const menuIds = z
  .unknown()
  .refine((value) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0), {
    message: '请选择菜单',
    abort: true,
  })
  .pipe(idList());

/** Tenant packages (spec §2 "Tenant package page"): the menus a tenant may grant to its roles. */
export const tenantPackage = defineResource({
  service: 'blade-system',
  name: 'tenant-package',
  menu: 'tenant_package',
  table: 'blade_tenant_package',
  tenancy: 'platform',
  fields: z.object({
    packageName: required('请输入产品包名称'),
    menuId: menuIds,
    remark: text().nullish(),
  }),
  unique: [{ fields: ['packageName'], message: '产品包名称已存在' }],
  // The seeded menus 工作台 (desk) and 通知公告 (notice): seed ids are derived from the menu code.
  example: { packageName: '基础监测包', menuId: '315521237084350959,850474249325522727', remark: '示例' },
});
