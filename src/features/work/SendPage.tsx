import type { FlowInstance } from '../../../resources/wire/flow';
import { workLists } from './api';
import { DetailButton } from './DetailButton';
import { instanceColumns, PROCESS_NAME_SEARCH, useFlowRoutes } from './flowParts';
import { type WorkColumn, WorkList } from './WorkList';

const columns: readonly WorkColumn<FlowInstance>[] = [
  instanceColumns.title,
  instanceColumns.definition,
  instanceColumns.startTime,
  instanceColumns.endTime,
  instanceColumns.currentTasks,
  instanceColumns.currentAssignees,
  instanceColumns.state,
];

/** /work/send (已发事务): the instances the caller started; 详情 opens the detail page of their category. */
export default function SendPage() {
  const routes = useFlowRoutes();
  return (
    <WorkList
      load={workLists.send}
      columns={columns}
      rowKey={(row) => row.processInstanceId}
      search={PROCESS_NAME_SEARCH}
      actions={(row) => <DetailButton routes={routes} instance={row} />}
    />
  );
}
