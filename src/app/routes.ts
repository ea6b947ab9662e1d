import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import { screenFor } from '../features/registry';
import { type ProcessPageKind, parseProcessPath } from '../features/work/processRoutes';
import type { RouteMeta } from './guard';
import { entryPage, lazyPage } from './lazyPage';
import { screenKeyOf } from './menu';

export interface RouteDef {
  title: MessageDescriptor;
  meta: RouteMeta;
  /** Rendered inside the console layout (sidebar, top bar, tabs). */
  layout: boolean;
  component: ComponentType;
}

const errorPage = entryPage(() => import('../features/errors/ErrorPage'));
const publicPage = { isAuth: false, isTab: false } as const;

/** The static routes of spec §2 (the shell's own pages). */
export const STATIC_ROUTES: Record<string, RouteDef> = {
  '/login': { title: msg`登录`, meta: publicPage, layout: false, component: entryPage(() => import('../features/login/LoginPage')) },
  '/lock': { title: msg`锁屏`, meta: publicPage, layout: false, component: entryPage(() => import('../features/lock/LockPage')) },
  '/404': { title: msg`页面不存在`, meta: publicPage, layout: false, component: errorPage },
  '/403': { title: msg`无权访问`, meta: publicPage, layout: false, component: errorPage },
  '/500': { title: msg`服务器错误`, meta: publicPage, layout: false, component: errorPage },
  '/wel/index': { title: msg`首页`, meta: {}, layout: true, component: lazyPage(() => import('../features/wel/HomePage')) },
  // The data board (spec §2 "/wel: … dashboard is a data board"): a fixed layout route beside the home, reached from the home's 数据看板.
  '/wel/dashboard': { title: msg`数据看板`, meta: {}, layout: true, component: lazyPage(() => import('../features/wel/DashboardPage')) },
  '/info/index': { title: msg`个人信息`, meta: {}, layout: true, component: lazyPage(() => import('../features/info/ProfilePage')) },
  // The wall screen of a display link (/wall#<secret>): its own credential, outside the shell.
  '/wall': { title: msg`监测大屏`, meta: { isAuth: false, isTab: false, standalone: true }, layout: false, component: lazyPage(() => import('../features/wall/WallPage')) },
};

/** Whether a path is a page outside the console (RouteMeta.standalone): the shell's session and lock stay off there. */
export function isStandalone(path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/$/, '') : path;
  return STATIC_ROUTES[clean]?.meta.standalone === true;
}

const iframeRoute: RouteDef = {
  title: msg`外部页面`,
  meta: {},
  layout: true,
  component: lazyPage(() => import('../features/iframe/IframePage')),
};

/**
 * The process pages (spec §2 "Workflow routes"): /work/process/<route>/form|handle|detail/…, one page of each kind
 * for every business, which shows its own panel by the route (src/features/work/businesses.tsx).
 */
const PROCESS_PAGES: Record<ProcessPageKind, RouteDef> = {
  form: { title: msg`发起流程`, meta: {}, layout: true, component: lazyPage(() => import('../features/work/ProcessFormPage')) },
  handle: { title: msg`办理任务`, meta: {}, layout: true, component: lazyPage(() => import('../features/work/HandlePage')) },
  detail: { title: msg`流程详情`, meta: {}, layout: true, component: lazyPage(() => import('../features/work/DetailPage')) },
};

const REDIRECTS: Record<string, string> = { '/': '/wel', '/wel': '/wel/index' };

export type Resolved = { kind: 'redirect'; to: string } | { kind: 'route'; route: RouteDef };

/** Static routes, then the iframe route, the process pages, then the screens of the menu registry; anything else is a 404. */
export function resolveRoute(path: string): Resolved {
  const clean = path.length > 1 ? path.replace(/\/$/, '') : path;
  if (REDIRECTS[clean]) return { kind: 'redirect', to: REDIRECTS[clean] };
  const route = STATIC_ROUTES[clean];
  if (route) return { kind: 'route', route };
  if (/^\/myiframe\/[^/]+$/.test(clean)) return { kind: 'route', route: iframeRoute };
  const process = parseProcessPath(clean);
  if (process) return { kind: 'route', route: PROCESS_PAGES[process.page] };
  const screen = screenFor(screenKeyOf(clean));
  if (screen) return { kind: 'route', route: { title: screen.title, meta: { viewQuery: screen.viewQuery ?? 'all' }, layout: true, component: screen.component } };
  return { kind: 'redirect', to: '/404' };
}

/** The translated title of a route path (tabs store paths; labels follow the language). */
export function titleOf(path: string): MessageDescriptor | undefined {
  const resolved = resolveRoute(path.split('?')[0]);
  return resolved.kind === 'route' ? resolved.route.title : undefined;
}
