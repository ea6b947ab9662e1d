import { NonIdealState, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import type { Resource } from '../../../resources/define';
import { treeOf } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView, TreeOption } from '../../crud/types';

interface Props<R extends Resource> {
  /** The view of the scopes of the picked menu (none picked: every scope, adding disabled). */
  viewOf(menuId: string | undefined): CrudView<R>;
}

/** Data and API scopes are declared per menu: the menus (category 1) beside the list, the picked menu's scopes in it. */
export function ScopeScreen<R extends Resource>({ viewOf }: Props<R>) {
  const { t } = useLingui();
  const [menus, setMenus] = useState<TreeOption[]>([]);
  const [menuId, setMenuId] = useState<string>();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    void treeOf('api/blade-system/menu/tree').then(setMenus, () => setMenus([]));
  }, []);
  const view = useMemo(() => viewOf(menuId), [viewOf, menuId]);

  const build = (list: readonly TreeOption[]): TreeNodeInfo<string>[] =>
    list.map((n) => ({
      id: n.id,
      label: <span data-menu={n.id}>{n.title}</span>,
      isSelected: n.id === menuId,
      isExpanded: open.has(n.id),
      hasCaret: !!n.children?.length,
      childNodes: n.children ? build(n.children) : undefined,
    }));
  const fold = (id: string, opened: boolean) =>
    setOpen((prev) => (opened ? new Set(prev).add(id) : new Set([...prev].filter((x) => x !== id))));
  const aside = (
    <div className="vg-scope-menus" style={{ maxHeight: 'calc(100vh - 180px)', overflow: 'auto' }}>
      {menus.length ? (
        <Tree contents={build(menus)} onNodeClick={(n) => setMenuId(n.id === menuId ? undefined : String(n.id))}
          onNodeExpand={(n) => fold(String(n.id), true)} onNodeCollapse={(n) => fold(String(n.id), false)} />
      ) : (
        <NonIdealState icon="menu" description={t`暂无菜单`} />
      )}
    </div>
  );
  return <CrudPage view={view} params={menuId ? { menuId } : {}} aside={aside} />;
}
