import { Button, Dialog, DialogBody, DialogFooter, TextArea } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { usePermissions } from '../../app/permissions';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { handleAlarms } from '../notice/api';
import { alarmView } from './alarmViews';

interface Handling {
  ids: string[];
  done(): void;
}

/** 处理: the result text, then batchHandle for the rows asked. */
function HandleDialog({ handling, onClose }: { handling: Handling; onClose(): void }) {
  const { t } = useLingui();
  const [result, setResult] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (!result.trim()) return toastWarning(t`请输入处理结果`);
    setBusy(true);
    try {
      await handleAlarms(handling.ids, result.trim());
      toastSuccess(t`操作成功!`);
      handling.done();
      onClose();
    } catch {
      // the request layer has shown the failure
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog isOpen title={t`处理告警`} onClose={onClose} style={{ width: 520 }} canOutsideClickClose={false}>
      <DialogBody>
        <label htmlFor="handle-result">{t`处理结果`}</label>
        <TextArea id="handle-result" fill rows={4} maxLength={2000} value={result} onChange={(e) => setResult(e.target.value)} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`取消`} onClick={onClose} />
            <Button intent="primary" text={t`确定`} loading={busy} className="vg-handle-submit" onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}

/**
 * /xinde/alarm — a link's filters open the list on them (docs/console-screens.md "Lists from a link"): `?id=` (the
 * notice centre's link) on one alarm, `?alarmLevel=1&alarmState=1` (the home's counts) on the open red ones.
 */
export default function AlarmPage() {
  const { t } = useLingui();
  const permissions = usePermissions();
  const [handling, setHandling] = useState<Handling>();
  const view = useMemo(() => alarmView((row: Row, context) => setHandling({ ids: [row.id], done: context.refresh })), []);
  return (
    <>
      <CrudPage
        view={view}
        toolbar={({ selected, refresh }) =>
          permissions.alarm_list_handle === true && (
            <Button
              icon="tick-circle"
              text={t`批量处理`}
              className="vg-batch-handle"
              onClick={() => (selected.length === 0 ? toastWarning(t`请选择至少一条数据`) : setHandling({ ids: selected.map((r) => r.id), done: refresh }))}
            />
          )
        }
      />
      {handling && <HandleDialog handling={handling} onClose={() => setHandling(undefined)} />}
    </>
  );
}
