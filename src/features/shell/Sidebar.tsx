import { Collapse, Icon, type IconName } from '@blueprintjs/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { MenuRow } from '../../api/system';
import { site } from '../../app/config';
import { linkOf, opensWindow } from '../../app/menu';
import { navigate } from '../../app/navigation';
import { preferencesActor } from '../../app/shell';
import { isNarrow, useNarrow } from '../../app/useViewport';
import { hasIcon } from '../../ui/icons';
import { useMenuLabel } from './menuLabel';

/** Opens a menu: a new window for type-2 http menus, else its route. Narrow screens close the drawer after it. */
export function openMenu(menu: MenuRow, topLevel: boolean): void {
  if (opensWindow(menu)) window.open(menu.path);
  else navigate(linkOf(menu, topLevel));
  closeDrawer();
}

const closeDrawer = () => preferencesActor.send({ type: 'prefs.drawer', open: false });

/** The top bar's menu button: opens or closes the drawer on narrow screens, else collapses the sidebar. */
export function toggleSidebar(): void {
  preferencesActor.send({ type: isNarrow() ? 'prefs.toggleDrawer' : 'prefs.toggleCollapse' });
}

/** The drawer's backdrop: tapping outside the drawer closes it, like Escape. */
export function DrawerBackdrop() {
  const open = useSelector(preferencesActor, (s) => s.context.drawer);
  const narrow = useNarrow();
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeDrawer();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return narrow && open ? <div className="vg-drawer-backdrop" onClick={closeDrawer} aria-hidden="true" /> : null;
}

const iconOf = (source?: string): IconName => (source && hasIcon(source) ? (source as IconName) : 'document');

/** Whether a group holds the screen at `path`, at any depth. */
const holds = (menu: MenuRow, path: string): boolean => (menu.children ?? []).some((child) => linkOf(child, false).split('?')[0] === path || holds(child, path));

/** A group's open state: the sidebar's one open top-level group, or its own for deeper groups. */
interface Expansion {
  open: boolean;
  toggle(): void;
}

function useOwnExpansion(): Expansion {
  const [open, setOpen] = useState(true);
  return { open, toggle: () => setOpen(!open) };
}

function Item({ menu, topLevel, depth, expansion }: { menu: MenuRow; topLevel: boolean; depth: number; expansion?: Expansion }) {
  const labelOf = useMenuLabel();
  const [path] = useLocation();
  const own = useOwnExpansion();
  const { open, toggle } = expansion ?? own;
  const label = labelOf(menu);
  if (menu.children?.length) {
    return (
      <div className="vg-menu-group">
        <div className="vg-menu-item" role="button" aria-expanded={open} onClick={toggle} title={label}>
          <Icon icon={iconOf(menu.source)} />
          <span className="vg-label" style={{ flex: 1 }}>
            {label}
          </span>
          <Icon className="vg-label" icon={open ? 'chevron-down' : 'chevron-right'} size={12} />
        </div>
        <Collapse isOpen={open} keepChildrenMounted>
          <div className="vg-menu-children">
            {menu.children.map((child) => (
              <Item key={child.id} menu={child} topLevel={false} depth={depth + 1} />
            ))}
          </div>
        </Collapse>
      </div>
    );
  }
  const link = linkOf(menu, topLevel);
  return (
    <a
      className={`vg-menu-item${path === link.split('?')[0] ? ' active' : ''}`}
      href={link}
      title={label}
      onClick={(e) => {
        e.preventDefault();
        openMenu(menu, topLevel);
      }}
    >
      <Icon icon={iconOf(menu.source)} />
      <span className="vg-label">{label}</span>
    </a>
  );
}

/**
 * The menu tree with the home item; a tip when the tree is empty. One top-level group is open at a time: the one
 * holding the current screen, or the one last opened.
 */
export function Sidebar({ menus, logo }: { menus: MenuRow[]; logo: string }) {
  const { t } = useLingui();
  const narrow = useNarrow();
  // A narrow screen's drawer shows the labels whatever the wide sidebar's collapse says.
  const collapsed = useSelector(preferencesActor, (s) => s.context.collapsed) && !narrow;
  const drawerOpen = useSelector(preferencesActor, (s) => s.context.drawer);
  const [path] = useLocation();
  const current = menus.find((menu) => holds(menu, path))?.id;
  const [openGroup, setOpenGroup] = useState(current);
  useEffect(() => {
    if (current) setOpenGroup(current);
  }, [current]);
  return (
    <nav className={`vg-sidebar${collapsed ? ' collapsed' : ''}${narrow ? ' drawer' : ''}${narrow && drawerOpen ? ' open' : ''}`} aria-label={t`菜单`}>
      <div className="vg-logo">
        <img src={logo} alt="" />
        <span>Vigil</span>
      </div>
      <a
        className={`vg-menu-item${path === site.homePath ? ' active' : ''}`}
        href={site.homePath}
        onClick={(e) => {
          e.preventDefault();
          navigate(site.homePath);
          closeDrawer();
        }}
      >
        <Icon icon="home" />
        <span className="vg-label">
          <Trans>首页</Trans>
        </span>
      </a>
      {menus.map((menu) => (
        <Item
          key={menu.id}
          menu={menu}
          topLevel
          depth={0}
          expansion={{ open: openGroup === menu.id, toggle: () => setOpenGroup(openGroup === menu.id ? undefined : menu.id) }}
        />
      ))}
      {menus.length === 0 && !collapsed && (
        <div className="vg-menu-empty">
          <Trans>没有发现菜单</Trans>
        </div>
      )}
    </nav>
  );
}
