import { HotkeysProvider } from '@blueprintjs/core';
import { type ReactNode, useEffect, useState } from 'react';
import { site } from '../../app/config';
import { getStore, removeStore } from '../../app/storage';
import { ConfirmHost } from '../../ui/confirm';
import { RegisterDialog } from './RegisterDialog';
import { DrawerBackdrop, Sidebar } from './Sidebar';
import { TabBar } from './TabBar';
import { TopBar } from './TopBar';
import { useMenus } from './useMenus';
import './responsive.css';
import { useLocation } from 'wouter';
import { screenKeyOf } from '../../app/menu';
import ErrorPage from '../errors/ErrorPage';
import { screenHeld } from '../registry';

/** The console layout: sidebar, top bar, tab bar and the page. */
export default function Layout({ children }: { children: ReactNode }) {
  const { menus, leaves, held, tops, topMenuId, selectTop } = useMenus();
  const [path] = useLocation();
  const refused = held !== undefined && !screenHeld(screenKeyOf(path), held);
  const [askSwitch] = useState(() => site.switchMode && getStore<boolean>('chooseRole') === true);
  useEffect(() => removeStore('chooseRole'), []);
  return (
    <HotkeysProvider>
      <div className="vg-shell">
        <Sidebar menus={menus} logo={site.logo} />
        <DrawerBackdrop />
        <div className="vg-main">
          <TopBar leaves={leaves} tops={tops} topMenuId={topMenuId} onTopMenu={selectTop} askSwitch={askSwitch} />
          <TabBar />
          <main className="vg-content">{refused ? <ErrorPage code="403" /> : children}</main>
        </div>
      </div>
      <RegisterDialog />
      <ConfirmHost />
    </HotkeysProvider>
  );
}
