import { Button, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';
import { toastSuccess } from '../../ui/toast';

/** 初始值: the zero readings changes are measured from, typed as JSON or taken from the latest values (setDevInitValue). */
export function InitValueDialog({ row, onClose, onSaved }: { row: Row; onClose(): void; onSaved(): void }) {
  const { t } = useLingui();
  const [values, setValues] = useState(() => (typeof row.initialValues === 'string' && row.initialValues ? row.initialValues : '{}'));
  const [busy, setBusy] = useState(false);

  async function save(useLatest: boolean) {
    setBusy(true);
    try {
      const body = useLatest ? { deviceId: row.id, useLatest: 1 } : { deviceId: row.id, values };
      const { data } = await http.post<Envelope<{ initialValues: unknown }>>('api/wit-xinde/device/setDevInitValue', { json: body });
      setValues(JSON.stringify(data.initialValues));
      toastSuccess(t`操作成功!`);
      onSaved();
    } catch {
      // the request layer has shown the failure
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen title={t`初始值`} onClose={onClose} style={{ width: 560, maxWidth: '95vw' }} className="vg-init-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <p>{`${String(row.name ?? '')} (${String(row.code ?? '')})`}</p>
        <FormGroup label={t`初始值(JSON,按点位标识)`} labelFor="init-values" helperText={t`如 {"tilt_x": 0.01}`}>
          <TextArea id="init-values" fill rows={6} value={values} onChange={(e) => setValues(e.target.value)} className="vg-mono" />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`关闭`} onClick={onClose} />
            <Button icon="history" text={t`使用最新值`} loading={busy} className="vg-init-latest" onClick={() => void save(true)} />
            <Button intent="primary" text={t`保存`} loading={busy} className="vg-init-save" onClick={() => void save(false)} />
          </>
        }
      />
    </Dialog>
  );
}
