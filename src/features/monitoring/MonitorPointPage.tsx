import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { ChildTablePage } from '../../crud/ChildTablePage';
import { bindings, monitorPointView } from './monitoringViews';

/** /xinde/monitorpoint — 绑定设备 (monitor_point_bind) manages the point's device bindings in a dialog. */
export default function MonitorPointPage() {
  const { t } = useLingui();
  const child = useMemo(() => bindings((row) => t`绑定设备: ${String(row.name)}`), [t]);
  return <ChildTablePage view={monitorPointView} child={child} />;
}
