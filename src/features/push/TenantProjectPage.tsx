import { useMemo, useState } from 'react';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { PushDialog } from './PushDialog';
import { tenantProjectView } from './pushViews';

/** /xinde/tenantproject: projects bound to push targets; 推送 re-pushes a range or the latest values. */
export default function TenantProjectPage() {
  const [pushing, setPushing] = useState<{ row: Row; refresh(): void }>();
  const view = useMemo(() => tenantProjectView((row, context) => setPushing({ row, refresh: context.refresh })), []);
  return (
    <>
      <CrudPage view={view} />
      {pushing && <PushDialog row={pushing.row} onClose={() => setPushing(undefined)} onPushed={pushing.refresh} />}
    </>
  );
}
