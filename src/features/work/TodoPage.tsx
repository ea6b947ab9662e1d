import { Button } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import type { FlowTask } from '../../../resources/wire/flow';
import { navigate } from '../../app/navigation';
import { workLists } from './api';
import { PROCESS_NAME_SEARCH, taskColumns, useFlowRoutes } from './flowParts';
import { handlePath } from './processRoutes';
import { type WorkColumn, WorkList } from './WorkList';

const columns: readonly WorkColumn<FlowTask>[] = [
  taskColumns.title,
  taskColumns.definition,
  taskColumns.taskName,
  taskColumns.starter,
  taskColumns.startTime,
  taskColumns.createTime,
  taskColumns.dueTime,
  taskColumns.status,
];

/** /work/todo (待办事务): open tasks the caller holds; 办理 opens the handle page of the task's category. */
export default function TodoPage() {
  const { t } = useLingui();
  const { entries, loaded } = useFlowRoutes();
  return (
    <WorkList
      load={workLists.todo}
      columns={columns}
      rowKey={(row) => row.taskId}
      search={PROCESS_NAME_SEARCH}
      actions={(row) => {
        const to = handlePath(entries, row);
        return (
          <Button
            size="small"
            intent="primary"
            icon="edit"
            className="vg-action-handle"
            text={t`办理`}
            disabled={!to}
            title={!to && loaded ? t`该流程分类没有办理页面` : undefined}
            onClick={() => to && navigate(to)}
          />
        );
      }}
    />
  );
}
