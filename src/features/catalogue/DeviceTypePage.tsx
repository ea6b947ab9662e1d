import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { ChildTablePage } from '../../crud/ChildTablePage';
import { deviceAttributes, deviceTypeView } from './catalogueViews';

/** /xinde/devicetype — a type's attributes in a dialog (设备属性). */
export default function DeviceTypePage() {
  const { t } = useLingui();
  const child = useMemo(() => deviceAttributes((row) => t`设备属性: ${String(row.name)}`), [t]);
  return <ChildTablePage view={deviceTypeView} child={child} />;
}
