import { useMemo, useState } from 'react';
import { getStore } from '../../app/storage';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { RoleGrantDialog } from './RoleGrantDialog';
import { roleView } from './roleView';

const PLATFORM_TENANT = '000000';

/** /authority/role */
export default function RolePage() {
  const [granting, setGranting] = useState<Row>();
  const view = useMemo(() => roleView(getStore<string>('tenantId') === PLATFORM_TENANT, setGranting), []);
  return (
    <>
      <CrudPage view={view} />
      {granting && <RoleGrantDialog role={granting} onClose={() => setGranting(undefined)} />}
    </>
  );
}
