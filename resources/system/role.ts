import { z } from 'zod';
import { defineResource } from '../define';
import { id, int, required } from '../fields';

/** Roles of a tenant, a tree; `administrator` is the alias of each tenant's administrator role. */
export const role = defineResource({
  service: 'blade-system',
  name: 'role',
  menu: 'role',
  table: 'blade_role',
  tenancy: 'tenant',
  fields: z.object({
    parentId: id().nullish(),
    roleName: required('请输入角色名称'),
    roleAlias: required('请输入角色别名'),
    sort: int().nullish(),
  }),
  parentField: 'parentId',
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['roleAlias'], message: '角色别名已存在' }],
  example: { parentId: '0', roleName: '巡检员', roleAlias: 'inspector', sort: 5 },
});
