import { http, type Envelope } from './client';

/** A row of GET /api/blade-system/menu/routes (a tree). */
export interface MenuRow {
  id: string;
  parentId?: string;
  code?: string;
  name: string;
  alias?: string;
  path: string;
  source?: string;
  sort?: number;
  /** 2 with an http path: opens in a new window. */
  type?: number;
  meta?: { i18n?: string; roles?: string[]; keepAlive?: boolean };
  query?: Record<string, string>;
  children?: MenuRow[];
}

export interface TopMenu {
  id: string;
  code?: string;
  name: string;
  source?: string;
  path?: string;
  sort?: number;
}

export interface ButtonRow {
  code: string;
  name?: string;
  children?: ButtonRow[];
}

export const menuRoutes = (topMenuId?: string) =>
  http.get<Envelope<MenuRow[]>>('api/blade-system/menu/routes', { searchParams: { topMenuId } }).then((r) => r.data ?? []);

export const menuButtons = () => http.get<Envelope<ButtonRow[]>>('api/blade-system/menu/buttons').then((r) => r.data ?? []);

export const topMenus = () => http.get<Envelope<TopMenu[]>>('api/blade-system/menu/top-menu').then((r) => r.data ?? []);

export interface Option {
  id: string;
  title?: string;
  deptName?: string;
  roleName?: string;
  name?: string;
}

export const deptOptions = (userId?: string) =>
  http.get<Envelope<Option[]>>('api/blade-system/dept/select', { searchParams: { userId } }).then((r) => r.data ?? []);

export const roleOptions = (userId?: string) =>
  http.get<Envelope<Option[]>>('api/blade-system/role/select', { searchParams: { userId } }).then((r) => r.data ?? []);
