import { Dialog, DialogBody } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { TARGET_TYPE } from '../../../resources/iot/alarm';
import { usePermissions } from '../../app/permissions';
import type { Row } from '../../crud/api';
import { ChildTablePage, childOf } from '../../crud/ChildTablePage';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView } from '../../crud/types';
import { thresholdView } from '../alarm/alarmViews';
import { bindings, monitorPointView } from './monitoringViews';

/** The thresholds of one monitor point: the 阈值设置 view kept to that point (added ones are set on it). */
function thresholdsOf(point: Row): CrudView<typeof thresholdView.resource> {
  const own = childOf(thresholdView, 'monitorPointId', point);
  const targetType = String(TARGET_TYPE.monitorPoint);
  return {
    ...own,
    list: { ...own.list, params: { ...own.list?.params, targetType } },
    submitDefaults: { ...own.submitDefaults, targetType },
    fields: own.fields.filter((f) => f.name !== 'targetType' && f.name !== 'projectId'),
  };
}

/**
 * /xinde/monitorpoint — 绑定设备 (monitor_point_bind) manages the point's device bindings in a dialog; 阈值 lists
 * the point's thresholds (for those who hold 阈值设置).
 */
export default function MonitorPointPage() {
  const { t } = useLingui();
  const permissions = usePermissions();
  const [point, setPoint] = useState<Row>();
  const child = useMemo(() => bindings((row) => t`绑定设备: ${String(row.name)}`), [t]);
  // The permission map holds buttons only: any button of 阈值设置 means the menu is held.
  const canThresholds = Object.keys(permissions).some((code) => code.startsWith('device_threshold_'));
  const view = useMemo<CrudView<typeof monitorPointView.resource>>(
    () => (canThresholds ? { ...monitorPointView, rowActions: [...(monitorPointView.rowActions ?? []), { key: 'thresholds', label: msg`阈值`, icon: 'warning-sign', run: setPoint }] } : monitorPointView),
    [canThresholds],
  );
  const thresholds = useMemo(() => (point ? thresholdsOf(point) : undefined), [point]);
  return (
    <>
      <ChildTablePage view={view} child={child} />
      {point && thresholds && (
        <Dialog isOpen title={t`监测点阈值: ${String(point.name)}`} onClose={() => setPoint(undefined)} style={{ width: 1100, maxWidth: '95vw' }} className="vg-child-thresholds">
          <DialogBody>
            <CrudPage view={thresholds} />
          </DialogBody>
        </Dialog>
      )}
    </>
  );
}
