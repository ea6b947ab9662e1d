import { Button, Dialog, DialogBody, DialogFooter, Spinner, Tab, Tabs } from '@blueprintjs/core';
import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import { logFailure } from '../../app/errors';
import type { Row } from '../../crud/api';
import { CheckTree } from '../../crud/CheckTree';
import type { TreeOption } from '../../crud/types';
import { toastSuccess } from '../../ui/toast';
import { menuLabels } from '../shell/menuLabel';
import { consoleMenus, type MenuNode, normaliseTree } from './grantTrees';

type Kind = 'menu' | 'dataScope' | 'apiScope';
const KINDS: readonly Kind[] = ['menu', 'dataScope', 'apiScope'];

type Trees = Record<Kind, TreeOption[]>;
type Checked = Record<Kind, ReadonlySet<string>>;

/**
 * What the role may be granted (menu/grant-tree) and what it holds (menu/role-tree-keys). The menu tree holds the
 * console's screens only, named in its language.
 */
async function loadGrant(roleId: string, i18n: I18n): Promise<{ trees: Trees; checked: Checked }> {
  const [tree, keys] = await Promise.all([
    http.get<Envelope<Record<Kind, unknown[]> & { menu: MenuNode[] }>>('api/blade-system/menu/grant-tree'),
    http.get<Envelope<Record<Kind, string[]>>>('api/blade-system/menu/role-tree-keys', { searchParams: { roleIds: roleId } }),
  ]);
  const trees = { menu: consoleMenus(tree.data.menu, menuLabels(i18n)), dataScope: normaliseTree(tree.data.dataScope), apiScope: normaliseTree(tree.data.apiScope) };
  const checked = { menu: new Set(keys.data.menu.map(String)), dataScope: new Set(keys.data.dataScope.map(String)), apiScope: new Set(keys.data.apiScope.map(String)) };
  return { trees, checked };
}

/** 权限设置: a role's menus and buttons, data scopes and API scopes, saved at once with role/grant. */
export function RoleGrantDialog({ role, onClose }: { role: Row; onClose(): void }) {
  const { t, i18n } = useLingui();
  const [trees, setTrees] = useState<Trees>();
  const [checked, setChecked] = useState<Checked>({ menu: new Set(), dataScope: new Set(), apiScope: new Set() });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    loadGrant(role.id, i18n).then(
      (loaded) => {
        if (!live) return;
        setTrees(loaded.trees);
        setChecked(loaded.checked);
      },
      (error) => logFailure(error, 'role grant'),
    );
    return () => {
      live = false;
    };
  }, [role.id, i18n]);

  async function save() {
    setBusy(true);
    try {
      await http.post<Envelope<boolean>>('api/blade-system/role/grant', {
        json: { roleIds: [role.id], menuIds: [...checked.menu], dataScopeIds: [...checked.dataScope], apiScopeIds: [...checked.apiScope] },
      });
      toastSuccess(t`操作成功!`);
      onClose();
    } catch (error) {
      // The request layer has shown the server's refusal (a menu outside the tenant's package…); the choice stays.
      logFailure(error, 'role grant');
      setBusy(false);
    }
  }

  const titles: Record<Kind, string> = { menu: t`菜单权限`, dataScope: t`数据权限`, apiScope: t`接口权限` };
  const roleName = String(role.roleName ?? '');
  return (
    <Dialog isOpen title={t`权限设置: ${roleName}`} onClose={onClose} style={{ width: 560, maxWidth: '95vw' }} canOutsideClickClose={false} className="vg-role-grant">
      <DialogBody>
        {!trees ? (
          <Spinner />
        ) : (
          <Tabs id="role-grant" renderActiveTabPanelOnly>
            {KINDS.map((kind) => (
              <Tab key={kind} id={kind} title={titles[kind]} className={`vg-grant-${kind}`}
                panel={
                  <div className="vg-grant-tree" data-kind={kind}>
                    <CheckTree tools nodes={trees[kind]} checked={checked[kind]} onChange={(next) => setChecked((c) => ({ ...c, [kind]: next }))} />
                  </div>
                } />
            ))}
          </Tabs>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`取消`} onClick={onClose} />
            <Button intent="primary" text={t`保存`} loading={busy} disabled={!trees} onClick={() => void save()} className="vg-grant-save" />
          </>
        }
      />
    </Dialog>
  );
}
