import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { Row } from '../../crud/api';
import { toastSuccess } from '../../ui/toast';
import { type RemoteProject, thirdApi } from './api';

const NEW = 'new';

/**
 * 绑定项目: a connection, one of its remote projects (listed live by getThirdProject), and the local project to bind
 * it to — or a new one made from it (projectcustomer/syncProject).
 */
export function BindProjectDialog({ onClose, onBound }: { onClose(): void; onBound(): void }) {
  const { t } = useLingui();
  const [params, setParams] = useState<Row[]>();
  const [paramId, setParamId] = useState('');
  const [remotes, setRemotes] = useState<RemoteProject[]>();
  const [remoteId, setRemoteId] = useState('');
  const [locals, setLocals] = useState<Row[]>([]);
  const [localId, setLocalId] = useState(NEW);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    thirdApi.params().then((rows) => {
      setParams(rows);
      setParamId(rows[0]?.id ?? '');
    }, () => setParams([]));
    // Projects already bound to a remote one are left out.
    thirdApi.localProjects().then((rows) => setLocals(rows.filter((p) => !p.ptProjectId)), () => undefined);
  }, []);

  useEffect(() => {
    if (!paramId) return;
    let live = true;
    setRemotes(undefined);
    setRemoteId('');
    thirdApi.remoteProjects(paramId).then(
      (list) => {
        if (!live) return;
        setRemotes(list);
        setRemoteId(list.find((p) => !p.bound)?.id ?? '');
      },
      () => live && setRemotes([]),
    );
    return () => {
      live = false;
    };
  }, [paramId]);

  async function bind() {
    if (!remoteId) return;
    setBusy(true);
    try {
      if (localId === NEW) await thirdApi.createProject(paramId, remoteId, name.trim() || undefined);
      else await thirdApi.bindProject(paramId, localId, remoteId);
      toastSuccess(t`绑定成功`);
      onBound();
      onClose();
    } catch {
      // the request layer has shown why
      setBusy(false);
    }
  }

  const label = (p: RemoteProject) => `${p.name}${p.code ? ` (${p.code})` : ''}${p.bound ? ` — ${t`已绑定`} ${p.projectName ?? ''}` : ''}`;
  return (
    <Dialog isOpen title={t`绑定第三方项目`} onClose={onClose} style={{ width: 620, maxWidth: '95vw' }} className="vg-third-bind" canOutsideClickClose={false}>
      <DialogBody>
        {params && params.length === 0 ? (
          <Callout intent="warning">{t`请先在第三方参数中添加平台`}</Callout>
        ) : (
          <>
            <FormGroup label={t`第三方平台`} labelFor="third-param">
              <HTMLSelect id="third-param" fill value={paramId} onChange={(e) => setParamId(e.target.value)} options={(params ?? []).map((p) => ({ value: p.id, label: String(p.name) }))} />
            </FormGroup>
            <FormGroup label={t`第三方项目`} labelFor="third-remote" helperText={remotes && remotes.length === 0 ? t`该平台没有可用的项目` : undefined}>
              {remotes ? (
                <HTMLSelect id="third-remote" fill value={remoteId} onChange={(e) => setRemoteId(e.target.value)}
                  options={[{ value: '', label: t`请选择`, disabled: true }, ...remotes.map((p) => ({ value: p.id, label: label(p), disabled: p.bound === 1 }))]} />
              ) : (
                <Spinner size={20} />
              )}
            </FormGroup>
            <FormGroup label={t`本地项目`} labelFor="third-local">
              <HTMLSelect id="third-local" fill value={localId} onChange={(e) => setLocalId(e.target.value)}
                options={[{ value: NEW, label: t`新建项目(按第三方项目)` }, ...locals.map((p) => ({ value: p.id, label: `${String(p.name)} (${String(p.code)})` }))]} />
            </FormGroup>
            {localId === NEW && (
              <FormGroup label={t`项目名称`} labelFor="third-name" helperText={t`留空则用第三方项目的名称`}>
                <InputGroup id="third-name" value={name} onChange={(e) => setName(e.target.value)} />
              </FormGroup>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter actions={<><Button text={t`关闭`} onClick={onClose} /><Button intent="primary" icon="link" text={t`绑定`} disabled={!remoteId} loading={busy} className="vg-third-bind-save" onClick={() => void bind()} /></>} />
    </Dialog>
  );
}
