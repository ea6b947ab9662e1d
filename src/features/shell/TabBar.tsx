import { Button, ContextMenu, Menu, MenuItem, PopoverNext, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { closable } from '../../../machines/tabs';
import { clearCache } from '../../api/auth';
import { navigate, routeOfTab } from '../../app/navigation';
import { tabsActor } from '../../app/shell';
import { confirm } from '../../ui/confirm';
import { toastSuccess } from '../../ui/toast';
import { useTabLabel } from './tabLabel';

/** The tabs of visited pages, with the context menu: clear cache, close others, close all. */
export function TabBar() {
  const { t } = useLingui();
  const { tabs, active, home } = useSelector(tabsActor, (s) => s.context);
  const labelOf = useTabLabel();

  async function clearTheCache() {
    if (!(await confirm(t`是否需要清除缓存?`))) return;
    await clearCache();
    toastSuccess(t`清除完毕`);
  }

  const menu = (
    <Menu aria-label={t`标签操作`}>
      <MenuItem icon="refresh" text={t`清除缓存`} onClick={() => void clearTheCache().catch(() => undefined)} />
      <MenuItem icon="cross" text={t`关闭其他`} onClick={() => tabsActor.send({ type: 'tabs.closeOthers' })} />
      <MenuItem icon="disable" text={t`关闭全部`} onClick={() => tabsActor.send({ type: 'tabs.closeAll' })} />
    </Menu>
  );

  return (
    <ContextMenu content={menu}>
      <div className="vg-tabs" role="tablist">
        {tabs.map((tab) => {
          const label = labelOf(tab);
          const canClose = closable(tabs, tab, home);
          return (
            <Tag
              key={tab.value}
              role="tab"
              aria-selected={tab.value === active}
              data-value={tab.value}
              className={`vg-tab${tab.value === active ? ' active' : ''}`}
              interactive
              minimal={tab.value !== active}
              size="large"
              onClick={() => navigate(routeOfTab(tab.value, label))}
              onRemove={
                canClose
                  ? (e) => {
                      e.stopPropagation();
                      tabsActor.send({ type: 'tabs.close', value: tab.value });
                    }
                  : undefined
              }
            >
              {label}
            </Tag>
          );
        })}
        <span className="vg-tabs-spacer" />
        <PopoverNext content={menu} placement="bottom-end">
          <Button variant="minimal" icon="more" aria-label={t`更多`} title={t`更多`} />
        </PopoverNext>
      </div>
    </ContextMenu>
  );
}
