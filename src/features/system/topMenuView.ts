import { msg } from '@lingui/core/macro';
import { topmenu } from '../../../resources/system/topmenu';
import type { Row } from '../../crud/api';
import type { CrudView } from '../../crud/types';

/** Top menus (/system/topmenu); `configure` opens 菜单配置, the menus the top menu shows. */
export function topMenuView(configure: (row: Row) => void): CrudView<typeof topmenu> {
  return {
    resource: topmenu,
    fields: [
      { name: 'code', label: msg`菜单编号`, search: true, required: msg`请输入菜单编号` },
      { name: 'name', label: msg`菜单名称`, search: true, required: msg`请输入菜单名称` },
      { name: 'source', label: msg`菜单图标` },
      { name: 'sort', label: msg`菜单排序`, widget: { type: 'number' }, required: msg`请输入菜单排序`, initial: 1, width: 100 },
    ],
    rowActions: [{ key: 'setting', label: msg`菜单配置`, icon: 'menu', permission: 'setting', run: (row) => configure(row) }],
  };
}
