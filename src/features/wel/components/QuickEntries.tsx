import { Button, Card } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { QuickEntry } from '../../../../resources/wire/statistics';
import { screenKeyOf } from '../../../app/menu';
import { navigate } from '../../../app/navigation';
import { hasIcon } from '../../../ui/icons';
import { hasScreen } from '../../registry';
import { menuTitle } from '../../shell/menuLabel';

/** The entries the console has a screen for (an iframe or a module not built yet is left out). */
export const entriesWithScreens = (entries: readonly QuickEntry[]): QuickEntry[] => entries.filter((entry) => hasScreen(screenKeyOf(entry.path)));

/** How many entries show before 全部: an administrator holds some fifty screens. */
export const QUICK_ENTRIES_SHOWN = 12;

/**
 * 快捷入口: the leaf menus the user may open (index/getMeunAuth), in the menu tree's order, named and drawn as the
 * sidebar does; the first twelve, then all on demand.
 */
export function QuickEntries({ entries }: { entries?: QuickEntry[] }) {
  const { t, i18n } = useLingui();
  const [all, setAll] = useState(false);
  const usable = entriesWithScreens(entries ?? []);
  const shown = all ? usable : usable.slice(0, QUICK_ENTRIES_SHOWN);
  return (
    <Card className="vg-home-entries">
      <div className="vg-card-head">
        <h3>{t`快捷入口`}</h3>
        {usable.length > QUICK_ENTRIES_SHOWN && (
          <Button variant="minimal" size="small" className="vg-quick-all" text={all ? t`收起` : t`全部 ${usable.length} 个`} onClick={() => setAll(!all)} />
        )}
      </div>
      {entries && usable.length === 0 && <p className="vg-home-empty">{t`暂无可用的功能`}</p>}
      <div className="vg-quick-entries">
        {shown.map((entry) => (
          <Button key={entry.code} variant="minimal" alignText="start" icon={(entry.source && hasIcon(entry.source) ? entry.source : 'document') as IconName}
            text={menuTitle(i18n, entry, entry.name)} data-entry={screenKeyOf(entry.path)} onClick={() => navigate(entry.path)} />
        ))}
      </div>
    </Card>
  );
}
