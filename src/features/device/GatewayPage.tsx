import { useMemo, useState } from 'react';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { CommandDialog } from './CommandDialog';
import { gatewayView } from './deviceViews';

/** /xinde/gateway */
export default function GatewayPage() {
  const [commanding, setCommanding] = useState<Row>();
  const view = useMemo(() => gatewayView(setCommanding), []);
  return (
    <>
      <CrudPage view={view} />
      {commanding && <CommandDialog kind="gateway" row={commanding} onClose={() => setCommanding(undefined)} />}
    </>
  );
}
