import { Button } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { usePermissions } from '../../app/permissions';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { RowAction } from '../../crud/types';
import { confirm } from '../../ui/confirm';
import { toastSuccess } from '../../ui/toast';
import { projects as loadProjects, regenerateLink, revokeLinks } from './api';
import { displayLinkView } from './displayLinkView';
import { LayoutEditor } from './LayoutEditor';
import { SecretDialog } from './SecretDialog';
import './screen.css';

interface Shown {
  name: string;
  secret: string;
}

/**
 * /xinde/screen (监测大屏): the display links that open wall screens without a sign-in — made, edited, made anew and
 * revoked here, the secret shown once as a full address — and 布局, each project's image with its points placed.
 */
export default function DisplayLinkPage() {
  const { t } = useLingui();
  const permissions = usePermissions();
  const [projectRows, setProjectRows] = useState<Row[]>([]);
  const [shown, setShown] = useState<Shown>();
  const [editingLayout, setEditingLayout] = useState(false);
  const reloadProjects = useCallback(() => void loadProjects().then(setProjectRows, () => undefined), []);
  useEffect(reloadProjects, [reloadProjects]);

  const view = useMemo(() => {
    const names = new Map(projectRows.map((p) => [p.id, String(p.name)]));
    const live = (row: Row) => row.state !== 'revoked';
    const rowActions: RowAction[] = [
      {
        key: 'regenerate',
        label: msg`重新生成`,
        icon: 'refresh',
        permission: 'edit',
        visible: live,
        run: (row, context) =>
          void (async () => {
            if (!(await confirm(t`重新生成后，旧链接立即失效，正在使用它的大屏将停止显示。确定重新生成?`))) return;
            const secret = await regenerateLink(row.id).catch(() => undefined);
            if (!secret) return;
            setShown({ name: String(row.name), secret });
            context.refresh();
          })(),
      },
      {
        key: 'revoke',
        label: msg`撤销`,
        icon: 'disable',
        permission: 'edit',
        visible: live,
        run: (row, context) =>
          void (async () => {
            if (!(await confirm(t`撤销后该链接永久失效，正在使用它的大屏将立即关闭。确定撤销?`))) return;
            try {
              await revokeLinks([row.id]);
              toastSuccess(t`操作成功!`);
              context.refresh();
            } catch {
              // the request layer has shown the failure
            }
          })(),
      },
    ];
    return { ...displayLinkView(names), rowActions };
  }, [projectRows, t]);

  const toolbar = permissions.screen_layout === true && (
    <Button icon="map-marker" text={t`布局`} className="vg-screen-layout-open" onClick={() => setEditingLayout(true)} />
  );
  return (
    <>
      <CrudPage
        view={view}
        toolbar={toolbar}
        onSaved={(saved, mode) => mode === 'add' && typeof saved.secret === 'string' && setShown({ name: String(saved.name), secret: saved.secret })}
      />
      {shown && <SecretDialog name={shown.name} secret={shown.secret} onClose={() => setShown(undefined)} />}
      {editingLayout && <LayoutEditor projects={projectRows} onClose={() => setEditingLayout(false)} onSaved={reloadProjects} />}
    </>
  );
}
