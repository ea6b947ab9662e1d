import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { apiScope } from '../../../resources/system/api-scope';
import { dataScope } from '../../../resources/system/data-scope';
import type { CrudView, FieldName, FieldView } from '../../crud/types';

const MENUS = 'api/blade-system/menu/tree';

/**
 * A scope list of one menu: name and code first, the kind's own fields (`listed`: shown in the table, `formOnly`:
 * in the dialog only) around the menu picked in the tree beside the list (`menuId`), and the remark last.
 */
function scopeView<R extends typeof dataScope | typeof apiScope>(
  resource: R,
  menuId: string | undefined,
  required: { name: MessageDescriptor; code: MessageDescriptor },
  listed: FieldView<FieldName<R>>[],
  formOnly: FieldView<FieldName<R>>[] = [],
): CrudView<R> {
  return {
    resource,
    actions: { add: menuId !== undefined },
    dialogWidth: 800,
    fields: [
      { name: 'scopeName', label: msg`权限名称`, search: true, required: required.name },
      { name: 'resourceCode', label: msg`权限编号`, search: true, required: required.code },
      ...listed,
      { name: 'menuId', label: msg`所属菜单`, widget: { type: 'tree', source: MENUS }, initial: menuId, required: msg`请选择菜单`, hideInTable: true },
      ...formOnly,
      { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
    ],
  };
}

/** Data scopes of one menu (spec §2 "Data scope"); `menuId` is the menu picked in the tree beside the list. */
export function dataScopeView(menuId: string | undefined): CrudView<typeof dataScope> {
  return scopeView(
    dataScope,
    menuId,
    { name: msg`请输入数据权限名称`, code: msg`请输入数据权限编号` },
    [
      { name: 'scopeColumn', label: msg`权限字段`, width: 120 },
      { name: 'scopeType', label: msg`规则类型`, widget: { type: 'select', dict: 'data_scope_type' }, required: msg`请选择数据权限类型`, width: 140 },
    ],
    [
      { name: 'scopeValue', label: msg`规则值`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
      { name: 'scopeField', label: msg`可见字段`, hideInTable: true },
      { name: 'scopeClass', label: msg`权限类名`, hideInTable: true },
    ],
  );
}

/** API scopes of one menu (spec §2 "API scope"). */
export function apiScopeView(menuId: string | undefined): CrudView<typeof apiScope> {
  return scopeView(apiScope, menuId, { name: msg`请输入接口权限名称`, code: msg`请输入接口权限编号` }, [
    { name: 'scopePath', label: msg`权限路径`, required: msg`请输入接口权限路径`, width: 220 },
    { name: 'scopeType', label: msg`接口类型`, widget: { type: 'select', dict: 'api_scope_type' }, required: msg`请选择接口权限类型`, width: 120 },
  ]);
}
