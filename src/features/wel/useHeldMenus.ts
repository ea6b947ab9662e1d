import { useEffect, useMemo, useState } from 'react';
import type { QuickEntry } from '../../../resources/wire/statistics';
import { screenKeyOf } from '../../app/menu';
import { quickEntries } from './api';
import { heldOnly } from './links';

/**
 * The menu that opens the data board to its holders: the server answers `countAvue/avueStatis` to whoever holds
 * 监测大屏 (`screen`), the board being the figures behind that screen.
 */
export const BOARD_MENU = 'screen';

export interface HeldMenus {
  /** The leaf menus the user may open (index/getMeunAuth); undefined until they arrive. */
  entries?: QuickEntry[];
  /** Keeps a link only when the user holds its list's screen. */
  held: (href: string) => string | undefined;
  /** Whether the user may read the data board (false until known). */
  board: boolean;
}

/** The user's leaf menus, asked once per screen. */
export function useHeldMenus(): HeldMenus {
  const [entries, setEntries] = useState<QuickEntry[]>();
  useEffect(() => {
    let current = true;
    quickEntries().then(
      (found) => current && setEntries(found),
      () => current && setEntries([]),
    );
    return () => {
      current = false;
    };
  }, []);
  return useMemo(
    () => ({
      entries,
      held: heldOnly(entries && new Set(entries.map((entry) => screenKeyOf(entry.path)))),
      board: entries?.some((entry) => entry.code === BOARD_MENU) ?? false,
    }),
    [entries],
  );
}
