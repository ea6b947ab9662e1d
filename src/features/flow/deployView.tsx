import { Tag } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { RequestError } from '../../api/http';
import { flowDefinition } from '../../../resources/flow/flow';
import type { Row } from '../../crud/api';
import type { CrudView, RowAction, SelectOption, ToolbarAction } from '../../crud/types';
import { derived } from '../../crud/viewHelpers';

/**
 * The process definitions as the deployment manager lists them: `manager/list` answers `FlowDefinition` rows (not
 * the table's columns), so the declaration's fields serve the search bar and the rows' own names are the columns.
 */
export const definitionList = { ...flowDefinition, path: '/blade-flow/manager' };

/** Flowable's suspension state: 1 active, 2 suspended. */
export const isSuspended = (row: Row): boolean => Number(row.suspensionState) === 2;

/**
 * Whether delete-deployment refused because instances of the deployment still run (the server's
 * 该部署有N个运行中的流程实例,不能删除, in either language): then 删除并终止运行中的实例 is offered. Other refusals
 * (a definition gone meanwhile, no right) are not.
 */
export const refusedForRunning = (error: unknown): boolean =>
  error instanceof RequestError && error.code === 400 && /运行中的流程实例|running/i.test(error.message);

const versionCell = (row: Row) => (
  <span className="vg-flow-version">
    <Tag minimal intent="primary">
      v{String(row.version ?? '')}
    </Tag>
    {row.latest === true && (
      <Tag minimal intent="success">
        <Trans>最新</Trans>
      </Tag>
    )}
  </span>
);

const stateCell = (row: Row) =>
  isSuspended(row) ? (
    <Tag intent="warning" minimal>
      <Trans>挂起</Trans>
    </Tag>
  ) : (
    <Tag intent="success" minimal>
      <Trans>激活</Trans>
    </Tag>
  );

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** 部署管理: every version of every process key, read-only, with the manager's own row and toolbar buttons. */
export function deployView(
  categories: readonly SelectOption[],
  rowActions: readonly RowAction[],
  toolbarActions: readonly ToolbarAction[],
  /** The platform administrator sees every tenant's definitions: the list says whose. */
  platformAdmin = false,
): CrudView<typeof definitionList> {
  return {
    resource: definitionList,
    actions: { view: false, add: false, edit: false, delete: false, export: false },
    fields: [
      ...(platformAdmin ? [{ name: 'tenantId' as const, label: msg`租户`, width: 90, sortable: false }] : []),
      { name: 'processKey', label: msg`流程标识`, search: true, hideInTable: true },
      { ...derived('key', msg`流程标识`, 140) },
      { name: 'name', label: msg`流程名称`, search: true, width: 150, sortable: false },
      { name: 'version', label: msg`版本`, width: 110, sortable: false, cell: versionCell },
      { name: 'category', label: msg`流程分类`, search: true, hideInTable: true, widget: { type: 'select', options: categories } },
      { ...derived('categoryName', msg`流程分类`, 120), cell: (row: Row) => text(row.categoryName ?? row.category) },
      { ...derived('deploymentTime', msg`部署时间`, 150) },
      { name: 'suspensionState', label: msg`状态`, width: 80, sortable: false, cell: stateCell },
      { ...derived('runningCount', msg`运行中实例`, 100) },
    ],
    rowActions,
    toolbarActions,
  };
}
