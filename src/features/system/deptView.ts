import { msg } from '@lingui/core/macro';
import { dept } from '../../../resources/system/dept';
import { crudCalls, type Row, treeOf } from '../../crud/api';
import type { CrudView, TreeOption } from '../../crud/types';
import { DEPT_TREE } from './userView';

const calls = crudCalls(dept);

/** The tree without `id` and its subtree: a dept cannot move below itself. */
const without = (nodes: readonly TreeOption[], id?: string): TreeOption[] =>
  nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: n.children && without(n.children, id) }));

const parents = (editing?: Row) => treeOf(DEPT_TREE).then((tree) => without(tree, editing?.id));

/** Spec §2 "Department management": a lazy tree table, one level per lazy-list call. */
export const deptView: CrudView<typeof dept> = {
  resource: dept,
  list: { call: 'lazy-list' },
  tree: { children: (row) => calls.list({ parentId: row.id }, 'lazy-list').then((page) => page.records) },
  dialogWidth: 800,
  fields: [
    { name: 'deptName', label: msg`机构名称`, search: true, required: msg`请输入机构名称`, width: 160 },
    { name: 'fullName', label: msg`机构全称`, search: true, width: 160 },
    { name: 'parentId', label: msg`上级机构`, widget: { type: 'tree', source: parents }, hideInTable: true },
    { name: 'deptCategory', label: msg`机构类型`, widget: { type: 'select', dict: 'org_category' }, width: 100 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number', min: 0 }, width: 70 },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 3 }, width: 120 },
  ],
  rowActions: [
    { key: 'add-child', label: msg`新增子项`, icon: 'add', permission: 'add', run: (row, context) => context.openForm('add', undefined, { parentId: row.id }) },
  ],
};
