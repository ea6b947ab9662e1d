import type { FlowDefinition, FlowHistoryStep, FlowInstance, FlowTask } from '../../../resources/wire/flow';
import { flowDefinition, flowInstance, flowTask } from '../../../resources/flow/flow';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { historyType } from '../../flow/bpmn';
import type { Workflow } from '../../flow/service';
import { INSTANCE_STATE, TASK_STATE } from '../../flow/steps';
import type { Platform } from '../../platform';
import { dictLabels } from '../blade-user/names';

/**
 * Rows of the workflow's tables as the calls answer them (resources/wire/flow.ts): names of people, categories and
 * durations added, one lookup per page.
 */

/**
 * The newest version of each process key, deleted ones aside: what a new instance runs (older versions finish their
 * running instances). Correlated by tenant and key to the definition the scoped query chose.
 */
export const newestVersion: Condition = (eb) =>
  eb(
    'wf_definition.version',
    '=',
    eb
      .selectFrom('wf_definition as v')
      .select((v) => v.fn.max('v.version').as('m'))
      .whereRef('v.tenantId', '=', 'wf_definition.tenantId')
      .whereRef('v.processKey', '=', 'wf_definition.processKey')
      .where('v.isDeleted', '=', 0),
  );

/** The dictionary `flow`'s name of a category `flow_<dictKey>`. */
export async function categoryNames(platform: Platform): Promise<(category: string | null) => string | null> {
  const labels = await dictLabels(platform.db, 'flow');
  return (category) => (category ? (labels.get(category.replace(/^flow_/, '')) ?? null) : null);
}

/** A duration in words, as BladeX's history shows it: `1天2小时3分`, `45秒` under a minute. */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}秒`;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${days ? `${days}天` : ''}${hours ? `${hours}小时` : ''}${minutes ? `${minutes}分` : ''}`;
}

const names = (workflow: Workflow, tenantId: string) => (userId: string | null | undefined) => workflow.directory.nameOf(tenantId, userId);

/** Definitions with their category name, running count and whether each is its key's newest version. */
export async function presentDefinitions(platform: Platform, ctx: CallContext, rows: readonly Row[]): Promise<FlowDefinition[]> {
  if (rows.length === 0) return [];
  const category = await categoryNames(platform);
  const ids = rows.map((r) => String(r.id));
  const whole = { wholeTenant: true };
  const counts = await (await platform.repo(flowInstance).select(ctx, whole)).select(['definitionId', (eb) => eb.fn.countAll<number>().as('n')]).where('definitionId', 'in', ids).where('wf_instance.state', '=', INSTANCE_STATE.running).groupBy('definitionId').execute();
  const running = new Map(counts.map((c) => [c.definitionId, Number(c.n)]));
  const keys = [...new Set(rows.map((r) => `${r.tenantId}/${r.processKey}`))];
  const newest = await (await platform.repo(flowDefinition).select(ctx, whole))
    .select(['tenantId', 'processKey', (eb) => eb.fn.max('version').as('version')])
    .where('processKey', 'in', [...new Set(rows.map((r) => String(r.processKey)))])
    .groupBy(['tenantId', 'processKey'])
    .execute();
  const latest = new Map(newest.filter((n) => keys.includes(`${n.tenantId}/${n.processKey}`)).map((n) => [`${n.tenantId}/${n.processKey}`, Number(n.version)]));
  return rows.map((r) => ({
    id: String(r.id),
    tenantId: String(r.tenantId),
    key: String(r.processKey),
    name: String(r.name),
    version: Number(r.version),
    category: String(r.category ?? ''),
    categoryName: category(r.category as string | null),
    description: (r.description as string | null) ?? null,
    deploymentId: String(r.id),
    deploymentTime: String(r.deployTime),
    resourceName: String(r.resourceName),
    suspensionState: Number(r.suspensionState) === 2 ? 2 : 1,
    runningCount: running.get(String(r.id)) ?? 0,
    latest: latest.get(`${r.tenantId}/${r.processKey}`) === Number(r.version),
  }));
}

/** The columns a task list reads: the task, its instance's and its definition's. */
export const TASK_COLUMNS = [
  'wf_task.id as taskId',
  'wf_task.tenantId as tenantId',
  'wf_task.name as taskName',
  'wf_task.elementId as taskDefinitionKey',
  'wf_task.assignee as assignee',
  'wf_task.owner as owner',
  'wf_task.delegation as delegation',
  'wf_task.candidates as candidates',
  'wf_task.state as taskState',
  'wf_task.createTime as createTime',
  'wf_task.claimTime as claimTime',
  'wf_task.endTime as endTime',
  'wf_task.dueTime as dueTime',
  'wf_task.pass as pass',
  'wf_task.comment as comment',
  'wf_task.formKey as formKey',
  'wf_task.instanceId as processInstanceId',
  'wf_task.definitionId as processDefinitionId',
  'i.title as processTitle',
  'i.businessTable as businessTable',
  'i.businessId as businessId',
  'i.startUser as startUser',
  'i.startTime as processInstanceStartTime',
  'i.state as instanceState',
  'd.processKey as processDefinitionKey',
  'd.name as processDefinitionName',
  'd.version as processDefinitionVersion',
  'd.category as category',
] as const;

export async function presentTasks(platform: Platform, workflow: Workflow, rows: readonly Row[]): Promise<FlowTask[]> {
  const category = await categoryNames(platform);
  return Promise.all(
    rows.map(async (r) => {
      const name = names(workflow, String(r.tenantId));
      const open = Number(r.taskState) === TASK_STATE.open;
      return {
        taskId: String(r.taskId),
        taskName: String(r.taskName),
        taskDefinitionKey: String(r.taskDefinitionKey),
        assignee: (r.assignee as string | null) ?? null,
        assigneeName: await name(r.assignee as string | null),
        owner: (r.owner as string | null) ?? null,
        ownerName: await name(r.owner as string | null),
        delegation: r.delegation === 'pending' ? 'pending' : null,
        candidates: (r.candidates as string | null) ?? null,
        category: String(r.category ?? ''),
        categoryName: category(r.category as string | null),
        createTime: String(r.createTime),
        claimTime: (r.claimTime as string | null) ?? null,
        endTime: (r.endTime as string | null) ?? null,
        dueTime: (r.dueTime as string | null) ?? null,
        processInstanceId: String(r.processInstanceId),
        processDefinitionId: String(r.processDefinitionId),
        processDefinitionKey: String(r.processDefinitionKey),
        processDefinitionName: String(r.processDefinitionName),
        processDefinitionVersion: Number(r.processDefinitionVersion),
        processTitle: String(r.processTitle),
        businessTable: (r.businessTable as string | null) ?? null,
        businessId: (r.businessId as string | null) ?? null,
        startUser: (r.startUser as string | null) ?? null,
        startUserName: await name(r.startUser as string | null),
        processInstanceStartTime: String(r.processInstanceStartTime),
        processIsFinished: Number(r.instanceState) >= INSTANCE_STATE.completed,
        status: open ? (r.assignee ? 'todo' : 'claim') : 'finished',
        pass: r.pass === null || r.pass === undefined ? null : Number(r.pass) === 1,
        comment: (r.comment as string | null) ?? null,
        formKey: (r.formKey as string | null) ?? null,
      } satisfies FlowTask;
    }),
  );
}

/** The columns an instance list reads: the instance's and its definition's. */
export const INSTANCE_COLUMNS = [
  'wf_instance.id as processInstanceId',
  'wf_instance.tenantId as tenantId',
  'wf_instance.definitionId as processDefinitionId',
  'wf_instance.title as processTitle',
  'wf_instance.businessTable as businessTable',
  'wf_instance.businessId as businessId',
  'wf_instance.startUser as startUser',
  'wf_instance.startTime as startTime',
  'wf_instance.endTime as endTime',
  'wf_instance.state as state',
  'wf_instance.deleteReason as deleteReason',
  'd.processKey as processDefinitionKey',
  'd.name as processDefinitionName',
  'd.version as processDefinitionVersion',
  'd.category as category',
] as const;

export async function presentInstances(platform: Platform, ctx: CallContext, workflow: Workflow, rows: readonly Row[]): Promise<FlowInstance[]> {
  if (rows.length === 0) return [];
  const category = await categoryNames(platform);
  const open = await (await platform.repo(flowTask).select(ctx, { wholeTenant: true }))
    .select(['instanceId', 'name', 'assignee', 'candidates'])
    .where('instanceId', 'in', rows.map((r) => String(r.processInstanceId)))
    .where('wf_task.state', '=', TASK_STATE.open)
    .execute();
  return Promise.all(
    rows.map(async (r) => {
      const name = names(workflow, String(r.tenantId));
      const tasks = open.filter((t) => t.instanceId === r.processInstanceId);
      const holders = await Promise.all(tasks.map(async (t) => (t.assignee ? await name(t.assignee) : t.candidates) ?? ''));
      const state = Number(r.state) as FlowInstance['state'];
      return {
        processInstanceId: String(r.processInstanceId),
        processDefinitionId: String(r.processDefinitionId),
        processDefinitionKey: String(r.processDefinitionKey),
        processDefinitionName: String(r.processDefinitionName),
        processDefinitionVersion: Number(r.processDefinitionVersion),
        category: String(r.category ?? ''),
        categoryName: category(r.category as string | null),
        processTitle: String(r.processTitle),
        businessTable: (r.businessTable as string | null) ?? null,
        businessId: (r.businessId as string | null) ?? null,
        startUser: (r.startUser as string | null) ?? null,
        startUserName: await name(r.startUser as string | null),
        startTime: String(r.startTime),
        endTime: (r.endTime as string | null) ?? null,
        state,
        processIsFinished: state >= INSTANCE_STATE.completed,
        deleteReason: (r.deleteReason as string | null) ?? null,
        currentTasks: tasks.map((t) => t.name).join(','),
        currentAssignees: holders.filter(Boolean).join(','),
        status: state >= INSTANCE_STATE.completed ? 'finished' : 'unfinished',
      } satisfies FlowInstance;
    }),
  );
}

export async function presentHistory(workflow: Workflow, tenantId: string, rows: readonly Row[]): Promise<FlowHistoryStep[]> {
  const name = names(workflow, tenantId);
  return Promise.all(
    rows.map(async (r) => ({
      historyActivityId: String(r.elementId),
      historyActivityName: String(r.name ?? r.elementId),
      historyActivityType: historyType(String(r.elementType)),
      taskId: (r.taskId as string | null) ?? null,
      assignee: (r.assignee as string | null) ?? null,
      assigneeName: await name(r.assignee as string | null),
      createTime: String(r.startTime),
      endTime: (r.endTime as string | null) ?? null,
      durationMs: r.durationMs === null || r.durationMs === undefined ? null : Number(r.durationMs),
      historyActivityDurationTime: durationText(r.durationMs === null || r.durationMs === undefined ? null : Number(r.durationMs)),
      comment: (r.comment as string | null) ?? null,
      pass: r.pass === null || r.pass === undefined ? null : Number(r.pass) === 1,
      reason: (r.reason as string | null) ?? null,
    })),
  );
}
