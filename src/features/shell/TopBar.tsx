import { Button, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { badgeOf } from '../../../machines/errorLog';
import type { TopMenu } from '../../api/system';
import { site } from '../../app/config';
import type { MenuLeaf } from '../../app/menu';
import { navigate } from '../../app/navigation';
import { errorLogActor, preferencesActor, sessionActor } from '../../app/shell';
import { confirm } from '../../ui/confirm';
import { NoticeBell } from '../notice/NoticeBell';
import { ColourPicker } from './ColourPicker';
import { ErrorLogDialog } from './ErrorLogDialog';
import { LanguageMenu } from '../../ui/LanguageMenu';
import { LockDialog } from './LockDialog';
import { MenuSearch, TopSearch } from './MenuSearch';
import { toggleSidebar } from './Sidebar';
import { SwitchDialog } from './SwitchDialog';
import { needsRegistration } from './registration';
import { ThemeDialog } from './ThemeDialog';

type DialogName = 'errors' | 'lock' | 'theme' | 'search' | 'switch';

interface TopBarProps {
  leaves: MenuLeaf[];
  tops: TopMenu[];
  topMenuId?: string;
  onTopMenu: (id?: string) => void;
  /** Ask for the dept/role right away (switch mode, just logged in). */
  askSwitch: boolean;
}

function useFullscreen(): [boolean, () => void] {
  const fullscreen = useSelector(preferencesActor, (s) => s.context.fullscreen);
  useEffect(() => {
    const sync = () => preferencesActor.send({ type: 'prefs.fullscreen', fullscreen: !!document.fullscreenElement });
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => undefined);
  return [fullscreen, toggle];
}

export function TopBar({ leaves, tops, topMenuId, onTopMenu, askSwitch }: TopBarProps) {
  const { t } = useLingui();
  const user = useSelector(sessionActor, (s) => s.context.user);
  // A third-party guest still registering has no notices to read (its token reaches only registration).
  const registered = !!user && !needsRegistration(user.userId);
  const logCount = useSelector(errorLogActor, (s) => s.context.logs.length);
  const [dialog, setDialog] = useState<DialogName | undefined>(askSwitch ? 'switch' : undefined);
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const close = () => setDialog(undefined);

  async function logout() {
    if (await confirm(t`退出系统, 是否继续?`)) sessionActor.send({ type: 'session.logout' });
  }

  const userMenu = (
    <Menu>
      <MenuItem icon="person" text={t`个人信息`} onClick={() => navigate('/info/index')} />
      {site.switchMode && <MenuItem icon="swap-horizontal" text={t`切换部门/角色`} onClick={() => setDialog('switch')} />}
      <MenuDivider />
      <MenuItem icon="log-out" text={t`退出登录`} onClick={() => void logout()} />
    </Menu>
  );

  return (
    <header className="vg-topbar">
      <Button variant="minimal" icon="menu" aria-label={t`折叠菜单`} title={t`折叠菜单`} onClick={toggleSidebar} />
      <nav className="vg-topmenu" aria-label={t`顶部菜单`}>
        <Button variant={topMenuId ? 'minimal' : 'outlined'} icon="home" text={t`首页`} onClick={() => { onTopMenu(undefined); navigate(site.homePath); }} />
        {tops.map((top) => (
          <Button key={top.id} variant={topMenuId === top.id ? 'outlined' : 'minimal'} text={top.name} onClick={() => onTopMenu(top.id)} />
        ))}
      </nav>
      <span className="vg-spacer" />
      <TopSearch leaves={leaves} />
      <Button variant="minimal" icon="search" aria-label={t`菜单搜索`} title={t`菜单搜索`} onClick={() => setDialog('search')} />
      {logCount > 0 && (
        <span className="vg-badge">
          <Button variant="minimal" icon="error" aria-label={t`错误日志`} title={t`错误日志`} onClick={() => setDialog('errors')} />
          <span className="vg-badge-count" data-testid="log-badge">
            {badgeOf(logCount)}
          </span>
        </span>
      )}
      <Button variant="minimal" icon="lock" aria-label={t`锁屏`} title={t`锁屏`} onClick={() => setDialog('lock')} />
      <Button variant="minimal" icon="style" aria-label={t`主题`} title={t`主题`} onClick={() => setDialog('theme')} />
      <ColourPicker />
      <span className="vg-notice-slot" data-slot="notice">
        {registered && <NoticeBell />}
      </span>
      <Button
        variant="minimal"
        icon={fullscreen ? 'minimize' : 'fullscreen'}
        aria-label={fullscreen ? t`退出全屏` : t`全屏`}
        title={fullscreen ? t`退出全屏` : t`全屏`}
        onClick={toggleFullscreen}
      />
      <LanguageMenu />
      <PopoverNext content={userMenu} placement="bottom-end">
        <Button variant="minimal" className="vg-user" endIcon="caret-down">
          <span className="vg-user">
            <img src={user?.avatar || site.logo} alt="" />
            <span data-testid="nick-name">{user?.nickName}</span>
          </span>
        </Button>
      </PopoverNext>
      <ErrorLogDialog isOpen={dialog === 'errors'} onClose={close} />
      <LockDialog isOpen={dialog === 'lock'} onClose={close} />
      <ThemeDialog isOpen={dialog === 'theme'} onClose={close} />
      <MenuSearch isOpen={dialog === 'search'} onClose={close} leaves={leaves} />
      {site.switchMode && <SwitchDialog isOpen={dialog === 'switch'} onClose={close} />}
    </header>
  );
}
