import { msg } from '@lingui/core/macro';
import type { Dictionary } from '../../../resources/system/dict';
import { crudCalls, type Row, treeOf } from '../../crud/api';
import type { CrudView, FieldName, FieldView } from '../../crud/types';


const DIALOG_WIDTH = 880;
const CHILDREN_PAGE = 1000;

const valueFields: ReadonlyArray<FieldView<FieldName<Dictionary>>> = [
  { name: 'dictValue', label: msg`字典名称`, search: true, required: msg`请输入字典名称` },
  { name: 'sort', label: msg`字典排序`, widget: { type: 'number' }, required: msg`请输入字典排序`, initial: 1, width: 100 },
  { name: 'isSealed', label: msg`封存`, widget: { type: 'switch', dict: 'yes_no' }, required: msg`请选择封存`, initial: 0, width: 100 },
  { name: 'remark', label: msg`字典备注`, widget: { type: 'textarea', rows: 2 } },
];

/** The parent table: one row per dictionary code; `configure` opens the code's entries. */
export function parentView(resource: Dictionary, configure: (row: Row) => void): CrudView<Dictionary> {
  return {
    resource,
    list: { call: 'parent-list' },
    dialogWidth: DIALOG_WIDTH,
    fields: [{ name: 'code', label: msg`字典编号`, search: true, required: msg`请输入字典编号` }, ...valueFields],
    rowActions: [{ key: 'config', label: msg`字典配置`, icon: 'cog', run: (row) => configure(row) }],
  };
}

/** The child table of one parent: a lazy tree of its entries; code and parent are fixed by the parent. */
export function childView(resource: Dictionary, parent: Row): CrudView<Dictionary> {
  const calls = crudCalls(resource);
  const code = String(parent.code ?? '');
  const parents = async () => [{ id: parent.id, title: String(parent.dictValue ?? ''), children: await treeOf(`${calls.base}/tree?code=${encodeURIComponent(code)}`) }];
  const fixed = (_mode: unknown) => true;
  return {
    resource,
    list: { call: 'child-list', params: { parentId: parent.id } },
    tree: { children: (row) => calls.list({ parentId: row.id, current: 1, size: CHILDREN_PAGE }, 'child-list').then((page) => page.records) },
    dialogWidth: DIALOG_WIDTH,
    fields: [
      { name: 'code', label: msg`字典编号`, initial: code, disabled: fixed },
      { name: 'parentId', label: msg`上级字典`, widget: { type: 'tree', source: parents }, initial: parent.id, disabled: fixed, cell: (row) => String(row.parentName ?? ''), sortable: false },
      { name: 'dictKey', label: msg`字典键值`, search: true, required: msg`请输入字典键值` },
      ...valueFields,
    ],
    rowActions: [
      { key: 'add-child', label: msg`新增子项`, icon: 'add', permission: 'add', run: (row, context) => context.openForm('add', undefined, { parentId: row.id, code: row.code }) },
    ],
  };
}
