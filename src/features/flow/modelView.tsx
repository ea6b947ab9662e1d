import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Tag } from '@blueprintjs/core';
import { flowModel } from '../../../resources/flow/flow';
import type { Row } from '../../crud/api';
import type { CrudView, FormMode, RowAction, SelectOption } from '../../crud/types';

/** Where the designer opens a model: `?id=` names it. */
export const DESIGNER_PATH = '/flow/model/design';
export const designerPath = (id: string): string => `${DESIGNER_PATH}?id=${encodeURIComponent(id)}`;

const deployedCell = (row: Row) =>
  row.deployedVersion === null || row.deployedVersion === undefined ? (
    <Tag minimal>
      <Trans>未部署</Trans>
    </Tag>
  ) : (
    <Tag minimal intent="success">
      v{String(row.deployedVersion)}
    </Tag>
  );

/**
 * 模型管理: the models' own columns edited in the generic form (the XML only in the designer), with 设计 and 部署
 * as row buttons. `categories` are the dictionary `flow`'s choices, valued `flow_<dictKey>`.
 */
export function modelView(
  categories: readonly SelectOption[],
  rowActions: readonly RowAction[],
  /** The platform administrator sees every tenant's models: the list says whose. */
  platformAdmin = false,
): CrudView<typeof flowModel> {
  return {
    resource: flowModel,
    dialogWidth: 640,
    actions: { export: false },
    fields: [
      ...(platformAdmin ? [{ name: 'tenantId' as const, label: msg`租户`, hideInForm: true, width: 90, sortable: false }] : []),
      {
        name: 'modelKey',
        label: msg`模型标识`,
        search: true,
        required: msg`请输入模型标识`,
        disabled: (mode: FormMode) => mode !== 'add',
        help: msg`即流程标识(BPMN 流程的 id),部署后各版本以它归为一个流程;字母或下划线开头`,
        width: 160,
      },
      { name: 'name', label: msg`模型名称`, search: true, required: msg`请输入模型名称`, width: 180 },
      { name: 'category', label: msg`流程分类`, search: true, widget: { type: 'select', options: categories }, width: 120 },
      { name: 'version', label: msg`保存次数`, hideInForm: true, width: 90, sortable: false },
      { name: 'deployedVersion', label: msg`已部署版本`, hideInForm: true, width: 100, sortable: false, cell: deployedCell },
      { name: 'description', label: msg`模型描述`, widget: { type: 'textarea', rows: 3 }, width: 220 },
      { name: 'updateTime', label: msg`更新时间`, hideInForm: true, width: 160 },
    ],
    rowActions,
  };
}
