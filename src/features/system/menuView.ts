import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { menu } from '../../../resources/system/menu';
import { crudCalls } from '../../crud/api';
import type { CrudView } from '../../crud/types';

const calls = crudCalls(menu);
const MENU = 1;

/**
 * Menus and buttons (/system/menu), platform administrator only: a lazy tree (menu/lazy-list), buttons under
 * their menus. A parent must be a menu, so the parent select offers menus only (menu/tree).
 */
export const menuView: CrudView<typeof menu> = {
  resource: menu,
  list: { call: 'lazy-list', params: { parentId: '0' } },
  tree: { children: (row) => calls.list({ parentId: row.id }, 'lazy-list').then((page) => page.records) },
  dialogWidth: 800,
  fields: [
    { name: 'name', label: msg`菜单名称`, search: true, required: msg`请输入菜单名称`, width: 180 },
    { name: 'path', label: msg`路由地址`, width: 180 },
    { name: 'parentId', label: msg`上级菜单`, widget: { type: 'tree', source: 'api/blade-system/menu/tree' }, hideInTable: true },
    { name: 'source', label: msg`菜单图标`, width: 110 },
    { name: 'code', label: msg`菜单编号`, search: true, required: msg`请输入菜单编号`, width: 160 },
    { name: 'alias', label: msg`菜单别名`, search: true, width: 100 },
    { name: 'category', label: msg`菜单类型`, widget: { type: 'select', dict: 'menu_category' }, required: msg`请选择菜单类型`, initial: MENU, width: 90 },
    { name: 'action', label: msg`按钮功能`, widget: { type: 'select', dict: 'button_func' }, initial: 0, width: 100 },
    // 1 opens in the console, 2 in a new window (BladeX): no dictionary holds these two values.
    { name: 'isOpen', label: msg`新窗口打开(1否 2是)`, widget: { type: 'number', min: 1, max: 2 }, initial: 1, width: 100, cell: (row) => i18n._(Number(row.isOpen) === 2 ? msg`是` : msg`否`) },
    { name: 'sort', label: msg`菜单排序`, widget: { type: 'number' }, required: msg`请输入菜单排序`, initial: 1, width: 90 },
    { name: 'remark', label: msg`菜单备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
  ],
  rowActions: [
    {
      key: 'add-child',
      label: msg`新增子项`,
      icon: 'add',
      permission: 'add',
      visible: (row) => Number(row.category) === MENU,
      run: (row, context) => context.openForm('add', undefined, { parentId: row.id }),
    },
  ],
};
