import type { FlowTask } from '../../../resources/wire/flow';
import { workLists } from './api';
import { DetailButton } from './DetailButton';
import { PROCESS_NAME_SEARCH, taskColumns, useFlowRoutes } from './flowParts';
import { type WorkColumn, WorkList } from './WorkList';

const columns: readonly WorkColumn<FlowTask>[] = [
  taskColumns.title,
  taskColumns.definition,
  taskColumns.taskName,
  taskColumns.starter,
  taskColumns.endTime,
  taskColumns.pass,
  taskColumns.comment,
  taskColumns.processState,
];

/** /work/done (办结事务): the tasks the caller completed; 详情 opens their instance's detail page. */
export default function DonePage() {
  const routes = useFlowRoutes();
  return (
    <WorkList
      load={workLists.done}
      columns={columns}
      rowKey={(row) => row.taskId}
      search={PROCESS_NAME_SEARCH}
      actions={(row) => <DetailButton routes={routes} instance={row} />}
    />
  );
}
