import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType, LazyExoticComponent } from 'react';

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
export const SCREENS: readonly Screen[] = [];

const byPath = new Map(SCREENS.map((screen) => [screen.path, screen]));

export const screenFor = (path: string): Screen | undefined => byPath.get(path);
export const hasScreen = (path: string): boolean => byPath.has(path);
