import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { ChildTablePage } from '../../crud/ChildTablePage';
import { factorsItems, monitorFactorsView } from './monitoringViews';

/** /xinde/monitorfactors — a factor's items in a dialog (因素项). */
export default function MonitorFactorsPage() {
  const { t } = useLingui();
  const child = useMemo(() => factorsItems((row) => t`因素项: ${String(row.name)}`), [t]);
  return <ChildTablePage view={monitorFactorsView} child={child} />;
}
