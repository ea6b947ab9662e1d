import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { FlowInstance } from '../../../resources/wire/flow';
import { BUSINESSES } from './businesses';
import { DefinitionName, InstanceStateTag } from './flowParts';
import { useProcessRoute } from './processPage';
import { ProcessTrack } from './ProcessTrack';
import './work.css';

/**
 * /work/process/<route>/detail/:processInstanceId/:businessId: the business's panel, then the history timeline and
 * the diagram with what ran and what waits. One page for every business.
 */
export default function DetailPage() {
  const { t, i18n } = useLingui();
  const route = useProcessRoute();
  const [instance, setInstance] = useState<FlowInstance>();
  if (route?.page !== 'detail') return null;
  const business = BUSINESSES[route.business];
  return (
    <div className="vg-page vg-process" key={route.processInstanceId}>
      <section className="vg-process-section">
        <div className="vg-process-head">
          <h2 className="vg-process-title">{instance?.processTitle ?? t`流程详情`}</h2>
          {instance && <DefinitionName name={instance.processDefinitionName} version={instance.processDefinitionVersion} />}
          {instance && <InstanceStateTag instance={instance} />}
        </div>
        {instance && (
          <p className="vg-process-sub">
            {t`发起人`}: {instance.startUserName ?? '-'} · {t`发起时间`}: {instance.startTime}
            {instance.endTime ? ` · ${t`结束时间`}: ${instance.endTime}` : ''}
            {instance.currentTasks ? ` · ${t`当前环节`}: ${instance.currentTasks} (${instance.currentAssignees})` : ''}
            {instance.deleteReason ? ` · ${t`删除原因`}: ${instance.deleteReason}` : ''}
          </p>
        )}
      </section>
      <section className="vg-process-section vg-process-business">
        <h3>{business ? i18n._(business.title) : t`业务信息`}</h3>
        {business && <business.Panel businessId={route.businessId} onProcess={setInstance} />}
      </section>
      <ProcessTrack processInstanceId={route.processInstanceId} />
    </div>
  );
}
