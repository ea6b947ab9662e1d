import { describe, expect, it } from 'vitest';
import { matching } from '../../crud/CheckTree';
import { consoleMenus, type MenuNode } from './grantTrees';

const tree: MenuNode[] = [
  {
    id: '1', title: '系统管理', code: 'system', path: '/system', category: 1,
    children: [
      { id: '2', title: '参数管理', code: 'param', path: '/system/param', category: 1, children: [{ id: '3', title: '新增', code: 'param_add', category: 2 }] },
      { id: '4', title: '未建', code: 'later', path: '/later', category: 1, children: [{ id: '5', title: '新增', code: 'later_add', category: 2 }] },
    ],
  },
  { id: '6', title: '报表管理', code: 'report', path: '/report', category: 1, children: [{ id: '7', title: '报表规则', code: 'report_rules', path: '/report/rules', category: 1 }] },
];
const labels = { hasScreen: (m: MenuNode) => m.path === '/system/param', title: (m: MenuNode) => `${m.title}*` };

describe('grant trees', () => {
  it("keep the console's screens with their buttons and the groups above them, titled by the console", () => {
    expect(consoleMenus(tree, labels)).toEqual([
      { id: '1', title: '系统管理*', children: [{ id: '2', title: '参数管理*', children: [{ id: '3', title: '新增*' }] }] },
    ]);
  });

  it('search keeps matches with their subtrees under their ancestors', () => {
    const options = [{ id: '1', title: '系统管理', children: [{ id: '2', title: '参数管理', children: [{ id: '3', title: '新增' }] }, { id: '4', title: '字典' }] }];
    expect(matching(options, '参数')).toEqual([{ id: '1', title: '系统管理', children: [{ id: '2', title: '参数管理', children: [{ id: '3', title: '新增' }] }] }]);
    expect(matching(options, ' ')).toEqual(options);
    expect(matching(options, '没有')).toEqual([]);
  });
});
