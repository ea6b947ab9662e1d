import { Button, Dialog, DialogBody, DialogFooter, HTMLSelect, NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { Row } from '../../crud/api';
import { RowTable } from '../../ui/RowTable';
import { toastSuccess } from '../../ui/toast';
import { type RemoteDevice, thirdApi } from './api';

/** What a remote device is bound to: a local device id, `new` (create one), or '' (not bound). */
type Choice = string;

/**
 * 绑定设备: the remote project's devices (getThirdDevice), each with the local device of the project it feeds — or a
 * new one made from it, or none. Only the rows changed are sent (bingDevice).
 */
export function BindDeviceDialog({ row, onClose, onSaved }: { row: Row; onClose(): void; onSaved(): void }) {
  const { t } = useLingui();
  const projectId = String(row.projectId);
  const [remotes, setRemotes] = useState<RemoteDevice[]>();
  const [locals, setLocals] = useState<Row[]>([]);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    thirdApi.remoteDevices(projectId).then((list) => {
      setRemotes(list);
      setChoices(Object.fromEntries(list.map((d) => [d.id, d.deviceId ?? ''])));
    }, () => setRemotes([]));
    thirdApi.localDevices(projectId).then(setLocals, () => undefined);
  }, [projectId]);

  const changed = (remotes ?? []).filter((d) => (choices[d.id] ?? '') !== (d.deviceId ?? ''));

  async function save() {
    setBusy(true);
    try {
      const r = await thirdApi.bindDevices(projectId, changed.map((d) => ({ thirdDeviceId: d.id, deviceId: choices[d.id] ?? '' })));
      toastSuccess(t`绑定 ${r.bound} 台(其中新建 ${r.created} 台),解除 ${r.unbound} 台`);
      onSaved();
      onClose();
    } catch {
      // the request layer has shown why (编号已被使用, 已绑定其他第三方设备…)
      setBusy(false);
    }
  }

  const options = [{ value: '', label: t`不绑定` }, { value: 'new', label: t`新建本地设备` }, ...locals.map((d) => ({ value: String(d.id), label: `${String(d.code)} ${String(d.title ?? '')}` }))];
  const unbound = (remotes ?? []).filter((d) => !choices[d.id]);
  return (
    <Dialog isOpen title={t`绑定设备`} onClose={onClose} style={{ width: 860, maxWidth: '95vw' }} className="vg-third-devices" canOutsideClickClose={false}>
      <DialogBody>
        <p>{`${String(row.projectName ?? '')} ⇄ ${String(row.thirdProjectName ?? '')}`}</p>
        {!remotes ? (
          <Spinner size={24} />
        ) : remotes.length === 0 ? (
          <NonIdealState icon="inbox" title={t`第三方项目没有设备`} />
        ) : (
          <RowTable
            className="vg-third-device-table"
            rows={remotes}
            rowKey={(d) => d.id}
            columns={[
              { title: t`第三方设备编号`, cell: (d) => d.code },
              { title: t`名称`, cell: (d) => d.name },
              { title: t`安装位置`, cell: (d) => d.installPosition ?? '' },
              {
                title: t`本地设备`,
                cell: (d) => <HTMLSelect aria-label={d.code} value={choices[d.id] ?? ''} onChange={(e) => setChoices({ ...choices, [d.id]: e.target.value })} options={options} />,
              },
            ]}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`关闭`} onClick={onClose} />
            <Button icon="add" text={t`未绑定的全部新建`} disabled={unbound.length === 0} onClick={() => setChoices({ ...choices, ...Object.fromEntries(unbound.map((d) => [d.id, 'new'])) })} />
            <Button intent="primary" text={t`保存`} disabled={changed.length === 0} loading={busy} className="vg-third-devices-save" onClick={() => void save()} />
          </>
        }
      />
    </Dialog>
  );
}
