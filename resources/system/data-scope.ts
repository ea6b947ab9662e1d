import { z } from 'zod';
import { defineResource } from '../define';
import { id, required, text } from '../fields';

/**
 * Data scopes (CONTRACT.md "Data scope"), declared per menu on a resource code (`service/name` or its table) and
 * granted to roles. Types: 1 all, 2 own rows, 3 own dept, 4 own dept and children, 5 custom (dept ids in
 * scopeValue). scopeColumn overrides the compared column (create_user / create_dept by default).
 */
export const dataScope = defineResource({
  service: 'blade-system',
  name: 'data-scope',
  menu: 'data_scope',
  table: 'blade_scope_data',
  tenancy: 'global',
  fields: z.object({
    menuId: id('请选择菜单'),
    resourceCode: required('请输入数据权限编号'),
    scopeName: required('请输入数据权限名称'),
    scopeField: text().nullish(),
    scopeClass: text().nullish(),
    scopeColumn: text(64).regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, '权限字段只能是列名').nullish(),
    scopeType: z.coerce.number<unknown>({ error: '请选择数据权限类型' }).int('请选择数据权限类型').min(1, '请选择数据权限类型').max(5, '请选择数据权限类型'),
    scopeValue: text(65535).nullish(),
    remark: text().nullish(),
  }),
  example: { menuId: '0', resourceCode: 'blade-example/demo', scopeName: '本人可见', scopeType: 2 },
});
