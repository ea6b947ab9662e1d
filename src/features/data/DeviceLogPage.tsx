import { Button, Dialog, DialogBody } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { navigate } from '../../app/navigation';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView } from '../../crud/types';
import { deviceLogView, updateLogView } from './dataViews';

/** The history chart of a device (src/features/device/HistoryChart.tsx). */
const HISTORY = '/xinde/device/history';

/** 数据修正 (device_log_correct) edits the value with a reason; 历史曲线 opens the device's chart. */
const view: CrudView<typeof deviceLogView.resource> = {
  ...deviceLogView,
  rowActions: [
    { key: 'correct', label: msg`数据修正`, icon: 'edit', permission: 'correct', run: (row, context) => context.openForm('edit', row) },
    { key: 'chart', label: msg`历史曲线`, icon: 'timeline-line-chart', run: (row) => navigate(`${HISTORY}?id=${String(row.deviceId)}`) },
  ],
};

/** /xinde/devicelog — the stored values by device, point and time; 修正记录 shows the audit of manual changes. */
export default function DeviceLogPage() {
  const { t } = useLingui();
  const [audit, setAudit] = useState(false);
  return (
    <>
      <CrudPage view={view} toolbar={<Button icon="history" text={t`修正记录`} className="vg-update-log" onClick={() => setAudit(true)} />} />
      {audit && (
        <Dialog isOpen title={t`数据修正记录`} onClose={() => setAudit(false)} style={{ width: 1200, maxWidth: '95vw' }} className="vg-update-log-dialog">
          <DialogBody>
            <CrudPage view={updateLogView} />
          </DialogBody>
        </Dialog>
      )}
    </>
  );
}
