import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import type { MenuRow } from '../../api/system';
import { screenKeyOf } from '../../app/menu';
import { screenFor } from '../registry';

/** A menu's label in the current language: its screen's title when the console has one, else the server's name. */
export function useMenuLabel(): (menu: MenuRow) => string {
  const { i18n } = useLingui();
  return useCallback(
    (menu: MenuRow) => {
      const screen = screenFor(screenKeyOf(menu.path));
      return screen ? i18n._(screen.title) : menu.name;
    },
    [i18n],
  );
}
