import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from '../app/lazyPage';

/** A screen reached from the menu tree, keyed by its menu path (without the /index suffix). */
export interface Screen {
  path: string;
  title: MessageDescriptor;
  component: LazyExoticComponent<ComponentType>;
}

/**
 * The screens the console has. The seed holds menus for every module; a menu is shown only once its screen is
 * listed here, so each module's issue adds its entries (e.g. `{ path: '/system/param', title: msg`参数管理`,
 * component: lazyPage(() => import('./system/ParamPage')) }`, lazyPage from app/lazyPage).
 */
export const SCREENS: readonly Screen[] = [
  { path: '/system/dict', title: msg`系统字典`, component: lazyPage(() => import('./system/DictPage')) },
  { path: '/system/dictbiz', title: msg`业务字典`, component: lazyPage(() => import('./system/DictBizPage')) },
  { path: '/system/param', title: msg`参数管理`, component: lazyPage(() => import('./system/ParamPage')) },
  { path: '/system/tenantpackage', title: msg`租户产品包`, component: lazyPage(() => import('./system/TenantPackagePage')) },
  // Opened from the device and gateway lists' 调试 / 历史曲线 buttons with `?id=`; without it they offer a picker.
  { path: '/xinde/device/debug', title: msg`设备调试`, component: lazyPage(() => import('./device/DebugConsole')) },
  { path: '/xinde/device/history', title: msg`历史曲线`, component: lazyPage(() => import('./device/HistoryChart')) },
  { path: '/xinde/gateway/debug', title: msg`网关调试`, component: lazyPage(() => import('./device/GatewayDebugPage')) },
];

const byPath = new Map(SCREENS.map((screen) => [screen.path, screen]));

export const screenFor = (path: string): Screen | undefined => byPath.get(path);
export const hasScreen = (path: string): boolean => byPath.has(path);
