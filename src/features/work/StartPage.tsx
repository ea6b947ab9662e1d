import { Button } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { FlowDefinition } from '../../../resources/wire/flow';
import { navigate } from '../../app/navigation';
import { workLists } from './api';
import { DefinitionName, useFlowRoutes } from './flowParts';
import { formPath } from './processRoutes';
import { type WorkColumn, WorkList } from './WorkList';

const columns: readonly WorkColumn<FlowDefinition>[] = [
  { key: 'name', title: msg`流程名称`, cell: (row) => <DefinitionName name={row.name} version={row.version} /> },
  { key: 'key', title: msg`流程标识`, cell: (row) => row.key },
  { key: 'category', title: msg`流程分类`, cell: (row) => row.categoryName ?? row.category },
  { key: 'description', title: msg`流程描述`, cell: (row) => row.description ?? '' },
  { key: 'deploymentTime', title: msg`部署时间`, cell: (row) => row.deploymentTime },
];

const search = [{ name: 'processDefinitionName', label: msg`流程名称` }] as const;

/** /work/start (发起事务): the processes the caller may start; 发起 opens the form of the definition's category. */
export default function StartPage() {
  const { t } = useLingui();
  const { entries, loaded } = useFlowRoutes();
  return (
    <WorkList
      load={workLists.start}
      columns={columns}
      rowKey={(row) => row.id}
      search={search}
      actions={(row) => {
        const to = formPath(entries, row);
        return (
          <Button
            size="small"
            intent="primary"
            icon="play"
            className="vg-action-start"
            text={t`发起`}
            disabled={!to}
            title={!to && loaded ? t`该流程分类没有可填写的表单` : undefined}
            onClick={() => to && navigate(to)}
          />
        );
      }}
    />
  );
}
