import { Button, Card } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useLingui } from '@lingui/react/macro';
import type { QuickEntry } from '../../../../resources/wire/statistics';
import { screenKeyOf } from '../../../app/menu';
import { navigate } from '../../../app/navigation';
import { hasIcon } from '../../../ui/icons';
import { hasScreen } from '../../registry';
import { menuTitle } from '../../shell/menuLabel';

/** The entries the console has a screen for (an iframe or a module not built yet is left out). */
export const entriesWithScreens = (entries: readonly QuickEntry[]): QuickEntry[] => entries.filter((entry) => hasScreen(screenKeyOf(entry.path)));

/** 快捷入口: the leaf menus the user may open (index/getMeunAuth), named and drawn as the sidebar does. */
export function QuickEntries({ entries }: { entries?: QuickEntry[] }) {
  const { t, i18n } = useLingui();
  const shown = entriesWithScreens(entries ?? []);
  return (
    <Card className="vg-home-entries">
      <div className="vg-card-head">
        <h3>{t`快捷入口`}</h3>
      </div>
      {entries && shown.length === 0 && <p className="vg-home-empty">{t`暂无可用的功能`}</p>}
      <div className="vg-quick-entries">
        {shown.map((entry) => (
          <Button key={entry.code} variant="minimal" alignText="start" icon={(entry.source && hasIcon(entry.source) ? entry.source : 'document') as IconName}
            text={menuTitle(i18n, entry, entry.name)} data-entry={screenKeyOf(entry.path)} onClick={() => navigate(entry.path)} />
        ))}
      </div>
    </Card>
  );
}
