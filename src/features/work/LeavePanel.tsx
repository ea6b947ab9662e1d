import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { FlowInstance, LeaveDetail } from '../../../resources/wire/flow';
import { leaveDetail } from './api';
import { Facts } from './Facts';

/** The leave request of a process page (blade-desk/process/leave/detail): who asks, from when to when, why. */
export function LeavePanel({ businessId, onProcess }: { businessId: string; onProcess?(instance: FlowInstance): void }) {
  const { t } = useLingui();
  const [leave, setLeave] = useState<LeaveDetail>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let live = true;
    leaveDetail(businessId).then(
      (found) => {
        if (!live) return;
        setLeave(found);
        onProcess?.(found.process);
      },
      (error: unknown) => live && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
    // onProcess is the page's setter: the request is the business's.
  }, [businessId]);

  if (problem) return <NonIdealState icon="error" title={t`请假申请加载失败`} description={problem} />;
  if (!leave) return <Spinner size={20} />;
  return (
    <Facts
      items={[
        { name: 'applicant', label: t`申请人`, value: leave.createUserName ?? leave.createUser },
        { name: 'applyTime', label: t`申请时间`, value: leave.applyTime },
        { name: 'startTime', label: t`开始时间`, value: leave.startTime },
        { name: 'endTime', label: t`结束时间`, value: leave.endTime },
        { name: 'days', label: t`请假天数`, value: t`${leave.days} 天` },
        { name: 'approver', label: t`审批人`, value: leave.taskUserName ?? (leave.taskUser ? leave.taskUser : t`部门负责人`) },
        { name: 'reason', label: t`请假理由`, value: leave.reason, wide: true },
      ]}
    />
  );
}
