import { describe, expect, it } from 'vitest';
import type { MenuRow } from '../api/system';
import { iframePath, leavesOf, linkOf, opensWindow, permissionsOf, searchMenus, visibleMenus } from './menu';

const row = (id: string, name: string, path: string, extra: Partial<MenuRow> = {}): MenuRow => ({ id, name, path, ...extra });

const tree: MenuRow[] = [
  row('1', '项目管理', '/project', {
    sort: 2,
    children: [row('11', '项目列表', '/xinde/project'), row('12', '项目分类', '/xinde/projectcategory')],
  }),
  row('2', '系统管理', '/system', { sort: 1, children: [row('21', '参数管理', '/system/param', { meta: { roles: ['administrator'] } })] }),
  row('3', '帮助', 'https://example.com/help.html', { sort: 3 }),
  row('4', 'Dashboard', '/dashboard', { sort: 4 }),
];

describe('menus', () => {
  it('routes html/http paths through the iframe and suffixes top-level leaves with index', () => {
    expect(linkOf(row('a', '帮助', 'https://x.cn/a'), true)).toBe(iframePath('https://x.cn/a', '帮助'));
    expect(linkOf(row('b', '手册', '/docs/manual.html'), false)).toMatch(/^\/myiframe\/urlPath\?src=%2Fdocs%2Fmanual.html/);
    expect(linkOf(row('c', '看板', '/dashboard'), true)).toBe('/dashboard/index');
    expect(linkOf(row('d', '参数', '/system/param'), false)).toBe('/system/param');
  });

  it('opens type-2 http menus in a new window', () => {
    expect(opensWindow(row('a', 'x', 'http://x', { type: 2 }))).toBe(true);
    expect(opensWindow(row('a', 'x', '/x', { type: 2 }))).toBe(false);
    expect(opensWindow(row('a', 'x', 'http://x', { type: 1 }))).toBe(false);
  });

  it('shows only menus with a screen (external pages always) and the user roles, parents with children', () => {
    const screens = new Set(['/xinde/project', '/system/param']);
    const shown = visibleMenus(tree, { roles: ['administrator'], hasScreen: (p) => screens.has(p) });
    expect(shown.map((m) => m.name)).toEqual(['系统管理', '项目管理', '帮助']);
    expect(shown[1].children?.map((m) => m.name)).toEqual(['项目列表']);
    const staff = visibleMenus(tree, { roles: ['staff'], hasScreen: (p) => screens.has(p) });
    expect(staff.map((m) => m.name)).toEqual(['项目管理', '帮助']);
    expect(visibleMenus(tree, { roles: [], hasScreen: () => false }).map((m) => m.name)).toEqual(['帮助']);
  });

  it('searches leaf names by prefix, ignoring case', () => {
    const leaves = leavesOf([...tree, row('5', 'Param list', '/p')]);
    const names = (q: string) => searchMenus(leaves, q, (m) => m.name).map((l) => l.menu.name);
    expect(names('项目')).toEqual(['项目列表', '项目分类']);
    expect(names('列表')).toEqual([]);
    expect(names('param')).toEqual(['Param list']);
    expect(names('DASH')).toEqual(['Dashboard']);
    expect(names(' ')).toEqual([]);
  });

  it('flattens the buttons tree to a permission map of leaf codes', () => {
    expect(permissionsOf([{ code: 'project', children: [{ code: 'project_add' }, { code: 'project_edit' }] }, { code: 'solo' }])).toEqual({
      project_add: true,
      project_edit: true,
      solo: true,
    });
  });
});
