import { Tag } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { FlowInstance, FlowTask } from '../../../resources/wire/flow';
import { flowRouteEntries } from './api';
import type { FlowRouteEntry } from './processRoutes';
import type { WorkColumn } from './WorkList';

/** The dictionary `flow` with its routes; empty until it has answered (the lists' buttons wait for it). */
export function useFlowRoutes(): { entries: readonly FlowRouteEntry[]; loaded: boolean } {
  const [state, setState] = useState<{ entries: readonly FlowRouteEntry[]; loaded: boolean }>({ entries: [], loaded: false });
  useEffect(() => {
    let live = true;
    flowRouteEntries().then(
      (entries) => live && setState({ entries, loaded: true }),
      () => live && setState({ entries: [], loaded: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** A definition's name and version: 请假流程 v1. */
export function DefinitionName({ name, version }: { name: string; version: number }) {
  return (
    <span className="vg-work-definition">
      {name}{' '}
      <Tag minimal intent="primary">
        v{version}
      </Tag>
    </span>
  );
}

/** Where a task stands for the caller: to claim, to do (delegated to them, or by them), done. */
export function TaskStatusTag({ task }: { task: Pick<FlowTask, 'status' | 'delegation'> }) {
  if (task.status === 'claim')
    return (
      <Tag minimal intent="warning" className="vg-task-status">
        <Trans>待签收</Trans>
      </Tag>
    );
  if (task.status === 'finished')
    return (
      <Tag minimal intent="success" className="vg-task-status">
        <Trans>已办结</Trans>
      </Tag>
    );
  return (
    <>
      <Tag minimal intent="primary" className="vg-task-status">
        <Trans>待办理</Trans>
      </Tag>
      {task.delegation === 'pending' && (
        <Tag minimal intent="warning">
          <Trans>委派</Trans>
        </Tag>
      )}
    </>
  );
}

/** What was said of a finished task: approved or rejected. */
export function PassTag({ pass }: { pass: boolean | null }) {
  if (pass === null) return null;
  return pass ? (
    <Tag minimal intent="success" className="vg-pass">
      <Trans>同意</Trans>
    </Tag>
  ) : (
    <Tag minimal intent="danger" className="vg-pass">
      <Trans>驳回</Trans>
    </Tag>
  );
}

/** An instance's state (FlowInstance.state): running, suspended, completed, deleted (its reason as the title). */
export function InstanceStateTag({ instance }: { instance: Pick<FlowInstance, 'state' | 'deleteReason'> }) {
  switch (instance.state) {
    case 1:
      return (
        <Tag minimal intent="primary" className="vg-instance-state">
          <Trans>运行中</Trans>
        </Tag>
      );
    case 2:
      return (
        <Tag minimal intent="warning" className="vg-instance-state">
          <Trans>已挂起</Trans>
        </Tag>
      );
    case 3:
      return (
        <Tag minimal intent="success" className="vg-instance-state">
          <Trans>已完成</Trans>
        </Tag>
      );
    default:
      return (
        <Tag minimal intent="danger" className="vg-instance-state" title={instance.deleteReason ?? undefined}>
          <Trans>已删除</Trans>
        </Tag>
      );
  }
}

/** The state choices of follow-up's filter. */
export const INSTANCE_STATES = [
  { value: '1', label: msg`运行中` },
  { value: '2', label: msg`已挂起` },
  { value: '3', label: msg`已完成` },
  { value: '4', label: msg`已删除` },
] as const;

/** Columns the task lists share. */
export const taskColumns = {
  title: { key: 'title', title: msg`流程标题`, cell: (row) => row.processTitle },
  definition: { key: 'definition', title: msg`流程名称`, cell: (row) => <DefinitionName name={row.processDefinitionName} version={row.processDefinitionVersion} /> },
  taskName: { key: 'taskName', title: msg`当前环节`, cell: (row) => row.taskName },
  starter: { key: 'starter', title: msg`发起人`, cell: (row) => text(row.startUserName) },
  startTime: { key: 'startTime', title: msg`发起时间`, cell: (row) => row.processInstanceStartTime },
  createTime: { key: 'createTime', title: msg`到达时间`, cell: (row) => row.createTime },
  candidates: { key: 'candidates', title: msg`候选人`, cell: (row) => text(row.candidates) },
  dueTime: { key: 'dueTime', title: msg`超时时间`, cell: (row) => text(row.dueTime) },
  endTime: { key: 'endTime', title: msg`办结时间`, cell: (row) => text(row.endTime) },
  comment: { key: 'comment', title: msg`审批意见`, cell: (row) => text(row.comment) },
  pass: { key: 'pass', title: msg`审批结果`, cell: (row) => <PassTag pass={row.pass} /> },
  status: { key: 'status', title: msg`状态`, cell: (row) => <TaskStatusTag task={row} /> },
  processState: {
    key: 'processState',
    title: msg`流程状态`,
    cell: (row) =>
      row.processIsFinished ? (
        <Tag minimal intent="success">
          <Trans>流程已结束</Trans>
        </Tag>
      ) : (
        <Tag minimal intent="primary">
          <Trans>流程进行中</Trans>
        </Tag>
      ),
  },
} satisfies Record<string, WorkColumn<FlowTask>>;

/** Columns the instance lists share (已发事务, 流程跟踪). */
export const instanceColumns = {
  title: { key: 'title', title: msg`流程标题`, cell: (row) => row.processTitle },
  definition: { key: 'definition', title: msg`流程名称`, cell: (row) => <DefinitionName name={row.processDefinitionName} version={row.processDefinitionVersion} /> },
  starter: { key: 'starter', title: msg`发起人`, cell: (row) => text(row.startUserName) },
  startTime: { key: 'startTime', title: msg`发起时间`, cell: (row) => row.startTime },
  endTime: { key: 'endTime', title: msg`结束时间`, cell: (row) => text(row.endTime) },
  currentTasks: { key: 'currentTasks', title: msg`当前环节`, cell: (row) => row.currentTasks },
  currentAssignees: { key: 'currentAssignees', title: msg`当前办理人`, cell: (row) => row.currentAssignees },
  state: { key: 'state', title: msg`状态`, cell: (row) => <InstanceStateTag instance={row} /> },
} satisfies Record<string, WorkColumn<FlowInstance>>;

/** The search of every task and instance list of my work: the process's name. */
export const PROCESS_NAME_SEARCH = [{ name: 'processDefinitionName', label: msg`流程名称` }] as const;
