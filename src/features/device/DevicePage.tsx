import { useMemo, useState } from 'react';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { CommandDialog } from './CommandDialog';
import { DeviceTree, type TreePlace } from './DeviceTree';
import { deviceView } from './deviceViews';
import { InitValueDialog } from './InitValueDialog';

/** /xinde/device: the project tree beside the device list; a picked project or group filters it. */
export default function DevicePage() {
  const [place, setPlace] = useState<TreePlace>({});
  const [commanding, setCommanding] = useState<Row>();
  const [initialising, setInitialising] = useState<{ row: Row; refresh(): void }>();
  const view = useMemo(() => deviceView(place, { command: setCommanding, initialValues: (row, refresh) => setInitialising({ row, refresh }) }), [place]);
  const params = useMemo(() => (place.groupId ? { groupId: place.groupId } : place.projectId ? { projectId: place.projectId } : undefined), [place]);
  return (
    <>
      <CrudPage view={view} params={params} aside={<DeviceTree value={place} onChange={setPlace} />} />
      {commanding && <CommandDialog kind="device" row={commanding} onClose={() => setCommanding(undefined)} />}
      {initialising && <InitValueDialog row={initialising.row} onClose={() => setInitialising(undefined)} onSaved={initialising.refresh} />}
    </>
  );
}
