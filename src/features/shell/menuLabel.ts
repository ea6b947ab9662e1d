import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import type { MenuRow } from '../../api/system';
import { screenKeyOf } from '../../app/menu';
import { screenFor } from '../registry';

/**
 * The seeded menu groups' names in every language, by menu code (BladeX's `meta.i18n` key): the server stores one
 * name, the console translates the codes it knows; a group an administrator adds shows its stored name.
 */
const GROUP_TITLES: Readonly<Record<string, MessageDescriptor>> = {
  desk: msg`工作台`,
  project: msg`项目管理`,
  device: msg`设备管理`,
  protocol: msg`协议管理`,
  monitor: msg`监测管理`,
  alarm: msg`告警管理`,
  data: msg`数据管理`,
  mqtt: msg`MQTT管理`,
  third: msg`第三方平台`,
  report: msg`报表管理`,
  power_line: msg`电力巡检`,
  statistics: msg`数据大屏`,
  work: msg`我的事务`,
  flow: msg`流程管理`,
  system: msg`系统管理`,
  authority: msg`权限管理`,
  monitor_log: msg`日志管理`,
  resource: msg`资源管理`,
};

/** The standard buttons every screen has (`<menu>_add` …); a screen's own buttons show their stored name. */
const BUTTON_TITLES: Readonly<Record<string, MessageDescriptor>> = {
  add: msg`新增`,
  edit: msg`修改`,
  delete: msg`删除`,
  view: msg`查看`,
};

/** What naming a menu needs; the routes' rows and the grant tree's nodes both have it. */
export interface NamedMenu {
  code?: string;
  path?: string | null;
  category?: number;
}

/** Whether the console has the menu's screen. */
export const hasScreen = (menu: NamedMenu): boolean => !!menu.path && !!screenFor(screenKeyOf(menu.path));

/** A menu's (or button's) label in the current language when the console knows it, else `stored`. */
export function menuTitle(i18n: I18n, menu: NamedMenu, stored: string): string {
  const known =
    menu.category === 2
      ? BUTTON_TITLES[menu.code?.slice(menu.code.lastIndexOf('_') + 1) ?? '']
      : ((menu.path ? screenFor(screenKeyOf(menu.path))?.title : undefined) ?? (menu.code ? GROUP_TITLES[menu.code] : undefined));
  return known ? i18n._(known) : stored;
}

/** A menu's label in the current language: its screen's title, or its group's, when the console knows them. */
export function useMenuLabel(): (menu: MenuRow) => string {
  const { i18n } = useLingui();
  return useCallback((menu: MenuRow) => menuTitle(i18n, menu, menu.name), [i18n]);
}

/** How grant trees name menus and tell which the console has (features/authority/grantTrees.ts). */
export const menuLabels = (i18n: I18n) => ({
  hasScreen,
  title: (node: NamedMenu & { title: string }) => menuTitle(i18n, node, node.title),
});
