import { useLingui } from '@lingui/react';
import { useCallback } from 'react';
import type { Tab } from '../../../machines/tabs';
import { titleOf } from '../../app/routes';

/** A tab's label in the current language: a query name wins, then the route's title, then the stored label. */
export function useTabLabel(): (tab: Tab) => string {
  const { i18n } = useLingui();
  return useCallback(
    (tab: Tab) => {
      if (tab.query?.name) return tab.query.name;
      const title = titleOf(tab.meta?.i18n ?? tab.value);
      return title ? i18n._(title) : tab.label;
    },
    [i18n],
  );
}
