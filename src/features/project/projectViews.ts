import { msg } from '@lingui/core/macro';
import { project, projectCategory, projectCustomer, userProject } from '../../../resources/iot/project';
import { type Envelope, http } from '../../api/client';
import { crudCalls, type Row, treeOf } from '../../crud/api';
import type { CrudView, TreeOption } from '../../crud/types';
import { derived, options } from '../../crud/viewHelpers';
import { regionPicker } from '../system/regionPicker';

/** Screens of the project menu (docs/data-model.md "Projects"): projects, categories, customers, user projects. */

export const X = 'api/wit-xinde';
export const CATEGORY_TREE = `${X}/projectcategory/tree`;
export const PROJECT_SELECT = `${X}/project/select`;

/** Rows of a list call as select nodes (resources without a tree or select call). */
export async function rowsAsOptions(path: string, title: (row: Row) => string, id: (row: Row) => string = (row) => String(row.id)): Promise<TreeOption[]> {
  const { data } = await http.get<Envelope<{ records: Row[] } | Row[]>>(path, { searchParams: { current: 1, size: 1000 } });
  const rows = Array.isArray(data) ? data : (data?.records ?? []);
  return rows.map((row) => ({ id: id(row), title: title(row) }));
}

const customers = () => rowsAsOptions(`${X}/projectcustomer/list`, (c) => String(c.name));

/** PROJECT_STATE of resources/iot/project.ts. */
const PROJECT_STATES = options(['1', msg`规划中`], ['2', msg`监测中`], ['3', msg`已暂停`], ['4', msg`已完成`]);

/** 项目列表: the structures monitored, with their category, customer and device count. */
export const projectView: CrudView<typeof project> = {
  resource: project,
  dialogWidth: 820,
  fields: [
    { name: 'name', label: msg`项目名称`, search: true, required: msg`请输入项目名称`, width: 200 },
    { name: 'code', label: msg`项目编号`, search: true, required: msg`请输入项目编号`, width: 130 },
    // Categories nest: picked in their tree, not in the declared flat select.
    { name: 'categoryId', label: msg`项目分类`, widget: { type: 'tree', source: CATEGORY_TREE }, width: 110 },
    { name: 'structureType', label: msg`结构类型`, widget: { type: 'select', dict: 'structure_type' }, search: true, width: 100 },
    // Picked by name in the region tree; the code is what is stored.
    { name: 'regionCode', label: msg`所在地区`, widget: regionPicker, hideInTable: true },
    { name: 'address', label: msg`地址`, width: 200 },
    { name: 'longitude', label: msg`经度`, widget: { type: 'number', min: -180, max: 180 }, hideInTable: true },
    { name: 'latitude', label: msg`纬度`, widget: { type: 'number', min: -90, max: 90 }, hideInTable: true },
    { name: 'customerId', label: msg`项目客户`, widget: { type: 'tree', source: customers }, width: 140 },
    { name: 'projectState', label: msg`项目状态`, widget: PROJECT_STATES, search: true, initial: '2', width: 90 },
    { name: 'startDate', label: msg`开始日期`, widget: { type: 'date', midnight: true }, width: 110 },
    { name: 'endDate', label: msg`结束日期`, widget: { type: 'date', midnight: true }, width: 110 },
    derived('deviceCount', msg`设备数`, 80),
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 3 }, hideInTable: true },
  ],
};

const categoryCalls = crudCalls(projectCategory);

/** The category tree without `id` and its subtree: a category cannot move below itself. */
const without = (nodes: readonly TreeOption[], id?: string): TreeOption[] =>
  nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: n.children && without(n.children, id) }));

/** 项目分类: a lazy tree table of categories (their own list, one level per parentId). */
export const categoryView: CrudView<typeof projectCategory> = {
  resource: projectCategory,
  list: { params: { parentId: '0' } },
  tree: { children: (row) => categoryCalls.list({ parentId: row.id, current: 1, size: 1000 }).then((page) => page.records) },
  fields: [
    { name: 'name', label: msg`分类名称`, search: true, required: msg`请输入分类名称`, width: 200 },
    { name: 'code', label: msg`分类编号`, width: 160 },
    { name: 'parentId', label: msg`上级分类`, widget: { type: 'tree', source: (editing) => treeOf(CATEGORY_TREE).then((tree) => without(tree, editing?.id)) }, hideInTable: true },
    { name: 'sort', label: msg`排序`, widget: { type: 'number', min: 0 }, width: 80 },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 3 }, width: 240 },
  ],
  rowActions: [{ key: 'add-child', label: msg`新增子项`, icon: 'add', permission: 'add', run: (row, context) => context.openForm('add', undefined, { parentId: row.id }) }],
};

/** 项目客户: who the projects are run for. */
export const customerView: CrudView<typeof projectCustomer> = {
  resource: projectCustomer,
  fields: [
    { name: 'name', label: msg`客户名称`, search: true, required: msg`请输入客户名称`, width: 220 },
    { name: 'linkman', label: msg`联系人`, search: true, width: 120 },
    { name: 'phone', label: msg`联系电话`, width: 140 },
    { name: 'address', label: msg`地址`, width: 240 },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 3 }, hideInTable: true },
  ],
};

/** 用户项目: which users see which projects; assigned through the 分配项目 dialog (setUserProject). */
export const userProjectView: CrudView<typeof userProject> = {
  resource: userProject,
  actions: { add: false, edit: false },
  fields: [
    derived('userName', msg`用户姓名`, 140),
    derived('account', msg`登录账号`, 140),
    { name: 'userId', label: msg`用户`, hideInTable: true },
    { name: 'projectId', label: msg`项目`, search: true, width: 240 },
    { name: 'createTime', label: msg`分配时间`, width: 170 },
  ],
};
