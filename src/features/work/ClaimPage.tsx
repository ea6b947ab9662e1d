import { Button } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { FlowTask } from '../../../resources/wire/flow';
import { RequestError } from '../../api/http';
import { navigate } from '../../app/navigation';
import { toast, toastSuccess } from '../../ui/toast';
import { claimTask, workLists } from './api';
import { PROCESS_NAME_SEARCH, taskColumns, useFlowRoutes } from './flowParts';
import { handlePath } from './processRoutes';
import { type WorkColumn, WorkList } from './WorkList';

const columns: readonly WorkColumn<FlowTask>[] = [
  taskColumns.title,
  taskColumns.definition,
  taskColumns.taskName,
  taskColumns.candidates,
  taskColumns.starter,
  taskColumns.createTime,
  taskColumns.dueTime,
  taskColumns.status,
];

/**
 * /work/claim (待签事务): open tasks nobody holds yet whose candidates include the caller. 签收 takes the task
 * (work/claim-task), then opens its handle page; a task someone else took first is said so and leaves the list.
 */
export default function ClaimPage() {
  const { t } = useLingui();
  const { entries } = useFlowRoutes();
  const [claiming, setClaiming] = useState<ReadonlySet<string>>(new Set());

  const claim = async (task: FlowTask, refresh: () => void) => {
    // A second click while the first is on its way sends nothing.
    if (claiming.has(task.taskId)) return;
    setClaiming((s) => new Set(s).add(task.taskId));
    try {
      await claimTask(task.taskId);
      toastSuccess(t`签收成功`);
      const to = handlePath(entries, task);
      if (to) navigate(to);
      else refresh();
    } catch (error) {
      // Refusals are this page's to say (the request layer has toasted anything else); the list shows what is left.
      if (error instanceof RequestError && error.code === 400) toast(error.message);
      refresh();
    } finally {
      setClaiming((s) => new Set([...s].filter((id) => id !== task.taskId)));
    }
  };

  return (
    <WorkList
      load={workLists.claim}
      columns={columns}
      rowKey={(row) => row.taskId}
      search={PROCESS_NAME_SEARCH}
      actions={(row, refresh) => (
        <Button size="small" intent="primary" icon="hand-up" className="vg-action-claim" text={t`签收`} loading={claiming.has(row.taskId)} onClick={() => void claim(row, refresh)} />
      )}
    />
  );
}
