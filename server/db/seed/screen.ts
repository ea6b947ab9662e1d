import type { Db } from '../database';
import { addMenuButtons } from './buttons';
import { SCREEN_BUTTONS, STANDARD_BUTTONS } from './menus';

/**
 * Step 0006: 监测大屏 (menu `screen`) becomes the display link manager (docs/wall-screen.md). Stores seeded while it was
 * a read-only leaf get its buttons — 新增, 修改, 删除, 查看 and 布局 — by code, granted to the administrator roles that
 * hold the menu and added to the packages that include it.
 */
export function seedScreenButtons(db: Db): Promise<void> {
  return addMenuButtons(db, 'screen', [...STANDARD_BUTTONS, ...SCREEN_BUTTONS.map(([suffix, name]) => [suffix, name, 2] as const)]);
}
