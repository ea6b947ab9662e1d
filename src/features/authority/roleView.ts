import { msg } from '@lingui/core/macro';
import { role } from '../../../resources/system/role';
import { crudCalls, type Row, treeOf } from '../../crud/api';
import type { CrudView, FieldName, FieldView, RowAction } from '../../crud/types';

const calls = crudCalls(role);
const CHILDREN_PAGE = 1000;

/** Parent choices: the tenant's role tree, without the edited role and its subtree (role/tree-by-id). */
const parentRoles = (editing?: Row) =>
  treeOf(editing ? `api/blade-system/role/tree-by-id?roleId=${encodeURIComponent(editing.id)}` : 'api/blade-system/role/tree');

const tenantColumn: FieldView<FieldName<typeof role>> = { name: 'tenantId', label: msg`所属租户`, hideInForm: true, width: 100, sortable: false };

/**
 * Roles (/authority/role): a tree table, root roles first and each role's children on expand. The platform
 * administrator sees every tenant's roles, so the tenant column is shown to it only. `grant` opens 权限设置.
 */
export function roleView(platform: boolean, grant: (row: Row) => void): CrudView<typeof role> {
  const grantAction: RowAction = { key: 'grant', label: msg`权限设置`, icon: 'shield', permission: 'setting', run: (row) => grant(row) };
  return {
    resource: role,
    list: { params: { parentId: '0' } },
    tree: { children: (row) => calls.list({ parentId: row.id, current: 1, size: CHILDREN_PAGE }).then((page) => page.records) },
    fields: [
      { name: 'roleName', label: msg`角色名称`, search: true, required: msg`请输入角色名称` },
      ...(platform ? [tenantColumn] : []),
      { name: 'roleAlias', label: msg`角色别名`, search: true, required: msg`请输入角色别名` },
      { name: 'parentId', label: msg`上级角色`, widget: { type: 'tree', source: parentRoles }, hideInTable: true },
      { name: 'sort', label: msg`角色排序`, widget: { type: 'number' }, required: msg`请输入角色排序`, initial: 1, width: 100 },
    ],
    rowActions: [
      grantAction,
      { key: 'add-child', label: msg`新增子项`, icon: 'add', permission: 'add', run: (row, context) => context.openForm('add', undefined, { parentId: row.id }) },
    ],
  };
}
