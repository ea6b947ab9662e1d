import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { useMemo, useState } from 'react';
import type { subTable } from '../../../resources/iot/push';
import type { Row } from '../../crud/api';
import { type ChildTable, ChildTablePage, childOf } from '../../crud/ChildTablePage';
import { mappingView, mqttParamView } from './pushViews';
import { TestDialog } from './TestDialog';

/** /xinde/mqttparam: push targets; each row tests its connection and opens its device and channel mappings. */
export default function MqttParamPage() {
  const { t } = useLingui();
  const [testing, setTesting] = useState<Row>();
  const view = useMemo(() => mqttParamView((row) => setTesting(row)), []);
  const mappings = useMemo<ChildTable<typeof subTable>>(
    () => ({
      action: { key: 'mapping', label: msg`点位映射`, icon: 'exchange' },
      title: (parent) => t`点位映射 - ${String(parent.name ?? '')}`,
      view: (parent) => childOf(mappingView, 'mqttParamId', parent),
    }),
    [t],
  );
  return (
    <>
      <ChildTablePage view={view} child={mappings} />
      {testing && <TestDialog row={testing} onClose={() => setTesting(undefined)} />}
    </>
  );
}
