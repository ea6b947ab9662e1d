import { z } from 'zod';
import { defineResource } from '../define';
import { id, required, text } from '../fields';

/**
 * API scopes (CONTRACT.md "API scope"): a path pattern (`/blade-user/**`, `*` within a segment) that only roles
 * granted the scope may call once any scope names it. Types: 1 system API, 2 business API.
 */
export const apiScope = defineResource({
  service: 'blade-system',
  name: 'api-scope',
  menu: 'api_scope',
  table: 'blade_scope_api',
  tenancy: 'global',
  fields: z.object({
    menuId: id('请选择菜单'),
    resourceCode: required('请输入接口权限编号'),
    scopeName: required('请输入接口权限名称'),
    scopePath: required('请输入接口权限路径', 1000).regex(/^\/[\w\-/*.{}]*$/, '接口权限路径应以 / 开头'),
    scopeType: z.coerce.number<unknown>({ error: '请选择接口权限类型' }).int('请选择接口权限类型').min(1, '请选择接口权限类型').max(2, '请选择接口权限类型'),
    remark: text().nullish(),
  }),
  example: { menuId: '0', resourceCode: 'example_api', scopeName: '示例接口', scopePath: '/blade-example/**', scopeType: 2 },
});
