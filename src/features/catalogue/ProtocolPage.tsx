import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { ChildTablePage } from '../../crud/ChildTablePage';
import { protocolPoints, protocolView } from './catalogueViews';

/** /xinde/protocol — a protocol's points in a dialog (协议点位). */
export default function ProtocolPage() {
  const { t } = useLingui();
  const child = useMemo(() => protocolPoints((row) => t`协议点位: ${String(row.name)}`), [t]);
  return <ChildTablePage view={protocolView} child={child} />;
}
