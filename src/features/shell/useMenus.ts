import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type MenuRow, menuButtons, menuRoutes, type TopMenu, topMenus } from '../../api/system';
import { leavesOf, permissionsOf, screenKeyOf, visibleMenus } from '../../app/menu';
import { setPermissions } from '../../app/permissions';
import { sessionActor } from '../../app/shell';
import { hasScreen } from '../registry';

/** The user's menu tree (for the chosen top menu), the top menus and the button permissions. */
export function useMenus() {
  const user = useSelector(sessionActor, (s) => s.context.user);
  const [tree, setTree] = useState<MenuRow[]>([]);
  const [tops, setTops] = useState<TopMenu[]>([]);
  const [topMenuId, setTopMenuId] = useState<string>();
  /** The whole tree (no top menu chosen) has arrived: the leaves say which screens the user holds. */
  const [complete, setComplete] = useState(false);

  const load = useCallback((top?: string) => {
    setTopMenuId(top);
    setComplete(false);
    const arrived = (rows: MenuRow[]) => {
      setTree(rows);
      setComplete(top === undefined);
    };
    void menuRoutes(top).then(arrived, () => arrived([]));
  }, []);

  // Reload when the identity changes (login, switch dept/role), not when a token refresh rebuilds the user object.
  const identity = user?.userId && Number(user.userId) >= 0 ? `${user.tenantId}:${user.userId}:${user.roleId}:${user.deptId}` : '';
  useEffect(() => {
    if (!identity) return;
    load(undefined);
    void topMenus().then(setTops, () => setTops([]));
    void menuButtons().then((buttons) => setPermissions(permissionsOf(buttons)), () => undefined);
  }, [identity, load]);

  const roleName = user?.roleName ?? '';
  const roleId = user?.roleId ?? '';
  const roles = useMemo(() => [...roleName.split(','), ...roleId.split(',')].filter(Boolean), [roleName, roleId]);
  const menus = useMemo(() => visibleMenus(tree, { roles, hasScreen }), [tree, roles]);
  const leaves = useMemo(() => leavesOf(menus), [menus]);
  const held = useMemo(() => (complete ? new Set(leaves.map(({ menu }) => screenKeyOf(menu.path))) : undefined), [complete, leaves]);
  return { menus, leaves, held, tops, topMenuId, selectTop: load };
}
