import { Button, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import { logFailure } from '../../app/errors';
import type { Row } from '../../crud/api';
import { CheckTree } from '../../crud/CheckTree';
import { CrudPage } from '../../crud/CrudPage';
import type { TreeOption } from '../../crud/types';
import { toastSuccess } from '../../ui/toast';
import { consoleMenus, type MenuNode } from '../authority/grantTrees';
import { menuLabels } from '../shell/menuLabel';
import { topMenuView } from './topMenuView';

/** 菜单配置: the menus a top menu shows (menu/grant-top-tree, menu/top-tree-keys), saved with topmenu/grant. */
function TopMenuGrantDialog({ topMenu, onClose }: { topMenu: Row; onClose(): void }) {
  const { t, i18n } = useLingui();
  const [nodes, setNodes] = useState<TreeOption[]>();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([
      http.get<Envelope<{ menu: MenuNode[] }>>('api/blade-system/menu/grant-top-tree'),
      http.get<Envelope<{ menu: string[] }>>('api/blade-system/menu/top-tree-keys', { searchParams: { topMenuIds: topMenu.id } }),
    ]).then(
      ([tree, keys]) => {
        if (!live) return;
        setNodes(consoleMenus(tree.data.menu, menuLabels(i18n)));
        setChecked(new Set(keys.data.menu.map(String)));
      },
      (error) => logFailure(error, 'top menu grant'),
    );
    return () => {
      live = false;
    };
  }, [topMenu.id, i18n]);

  async function save() {
    setBusy(true);
    try {
      await http.post<Envelope<boolean>>('api/blade-system/topmenu/grant', { json: { topMenuIds: [topMenu.id], menuIds: [...checked] } });
      toastSuccess(t`操作成功!`);
      onClose();
    } catch (error) {
      logFailure(error, 'top menu grant');
      setBusy(false);
    }
  }

  const name = String(topMenu.name ?? '');
  return (
    <Dialog isOpen title={t`菜单配置: ${name}`} onClose={onClose} style={{ width: 480, maxWidth: '95vw' }} canOutsideClickClose={false} className="vg-topmenu-grant">
      <DialogBody>{nodes ? <div className="vg-grant-tree"><CheckTree tools nodes={nodes} checked={checked} onChange={setChecked} /></div> : <Spinner />}</DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`取消`} onClick={onClose} />
            <Button intent="primary" text={t`保存`} loading={busy} disabled={!nodes} onClick={() => void save()} className="vg-grant-save" />
          </>
        }
      />
    </Dialog>
  );
}

/** /system/topmenu */
export default function TopMenuPage() {
  const [configuring, setConfiguring] = useState<Row>();
  const view = useMemo(() => topMenuView(setConfiguring), []);
  return (
    <>
      <CrudPage view={view} />
      {configuring && <TopMenuGrantDialog topMenu={configuring} onClose={() => setConfiguring(undefined)} />}
    </>
  );
}
