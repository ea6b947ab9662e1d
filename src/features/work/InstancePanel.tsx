import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { FlowInstance, FlowInstanceDetail } from '../../../resources/wire/flow';
import { instanceDetail } from './api';
import { Facts } from './Facts';

/** Variables every process has, shown by the facts above them rather than as variables. */
const SHOWN = new Set(['applyUser', 'applyDept', 'pass']);

/**
 * A process without a business record of its own (process/instance): its title, who started it and when, and the
 * variables it was given — the business id of its route is the instance's own id.
 */
export function InstancePanel({ businessId, onProcess }: { businessId: string; onProcess?(instance: FlowInstance): void }) {
  const { t } = useLingui();
  const [instance, setInstance] = useState<FlowInstanceDetail>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let live = true;
    instanceDetail(businessId).then(
      (found) => {
        if (!live) return;
        setInstance(found);
        onProcess?.(found);
      },
      (error: unknown) => live && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
    // onProcess is the page's setter: the instance is the business's.
  }, [businessId]);

  if (problem) return <NonIdealState icon="error" title={t`流程信息加载失败`} description={problem} />;
  if (!instance) return <Spinner size={20} />;
  const variables = Object.entries(instance.variables).filter(([name]) => !SHOWN.has(name));
  return (
    <Facts
      items={[
        { name: 'title', label: t`标题`, value: instance.processTitle, wide: true },
        { name: 'applicant', label: t`发起人`, value: instance.startUserName ?? instance.startUser },
        { name: 'startTime', label: t`发起时间`, value: instance.startTime },
        ...variables.map(([name, value]) => ({ name: `variable-${name}`, label: name === 'remark' ? t`说明` : name, value: typeof value === 'string' ? value : JSON.stringify(value), wide: name === 'remark' })),
      ]}
    />
  );
}
