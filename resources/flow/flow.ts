import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, id, int, required, text } from '../fields';

/**
 * Workflow (spec §7 "Workflow", docs/workflow.md): BPMN models edited in the designer, the process definitions their
 * deployments bring (one version of a process key each), running instances, their user tasks and history. Models are
 * a plain resource; the rest are written by the workflow service only (`ownRoutes`), through the scoped repository.
 */

/** A BPMN process id as the engine and BladeX take it: an XML name without colons. */
export const processKey = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(64, '流程标识不能超过64个字符')
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, '流程标识只能由字母、数字、下划线、点和横线组成,且以字母或下划线开头');

/** Largest BPMN document a model or an upload may hold. */
export const BPMN_MAX_BYTES = 2 * 1024 * 1024;

/** A model (模型管理): the BPMN XML the designer saves, checked by the engine on every save. */
export const flowModel = defineResource({
  service: 'blade-flow',
  name: 'model',
  menu: 'flow_model',
  table: 'wf_model',
  tenancy: 'tenant',
  fields: z.object({
    modelKey: processKey('请输入模型标识'),
    name: required('请输入模型名称', 64),
    description: text(500).nullish(),
    /** `flow_<dictKey>` of the dictionary `flow`. */
    category: text(64).nullish(),
    xml: z.string().max(BPMN_MAX_BYTES, '流程文件过大').nullish(),
    /** Saves of the XML so far. */
    version: int().optional(),
    /** The definition version its last deployment made (null: never deployed). */
    deployedVersion: int().nullish(),
  }),
  orderBy: [{ field: 'updateTime', desc: true }],
  unique: [{ fields: ['modelKey'], message: '模型标识已存在' }],
  example: { modelKey: 'example_process', name: '示例流程', description: '示例', category: 'flow_leave' },
});

/** A process definition: one deployed version of a process key (部署管理). */
export const flowDefinition = defineResource({
  service: 'blade-flow',
  name: 'definition',
  menu: 'flow_deploy',
  table: 'wf_definition',
  tenancy: 'tenant',
  ownRoutes: true,
  fields: z.object({
    processKey: processKey('请输入流程标识'),
    name: required('请输入流程名称', 128),
    version: int(),
    category: text(64).nullish(),
    description: text(500).nullish(),
    resourceName: text(255),
    xml: z.string(),
    /** 1 active, 2 suspended. */
    suspensionState: int(),
    modelId: id().nullish(),
    deployTime: datetime(),
  }),
  orderBy: [{ field: 'processKey' }, { field: 'version', desc: true }],
});

/** A process instance: its engine state is saved after every step (docs/workflow.md "State"). */
export const flowInstance = defineResource({
  service: 'blade-flow',
  name: 'instance',
  menu: 'flow_follow',
  table: 'wf_instance',
  tenancy: 'tenant',
  ownRoutes: true,
  fields: z.object({
    definitionId: id(),
    processKey: text(64),
    title: text(255),
    businessTable: text(64).nullish(),
    businessId: id().nullish(),
    startUser: id().nullish(),
    /** 1 running, 2 suspended, 3 completed, 4 deleted. */
    state: int(),
    startTime: datetime(),
    endTime: datetime().nullish(),
    deleteReason: text(500).nullish(),
    /** The engine's state (bpmn-engine getState without its source), JSON. */
    engineState: z.string().nullish(),
    /** Process variables, JSON (kept beside the engine's copy for reading without the engine). */
    variables: z.string().nullish(),
    /** Bumped by every step; a step writes only over the revision it read. */
    revision: int(),
  }),
  hidden: ['engineState'],
  orderBy: [{ field: 'startTime', desc: true }],
});

/** A user task of an instance: open (1), completed (2) or cancelled (3: a timer, a deletion, another branch). */
export const flowTask = defineResource({
  service: 'blade-flow',
  name: 'task',
  menu: 'work_todo',
  table: 'wf_task',
  tenancy: 'tenant',
  ownRoutes: true,
  fields: z.object({
    instanceId: id(),
    definitionId: id(),
    elementId: text(128),
    name: text(255),
    /** The engine's execution id of the waiting activity, signalled on completion. */
    executionId: text(128),
    assignee: id().nullish(),
    owner: id().nullish(),
    delegation: text(16).nullish(),
    /** Candidates as written, for display. */
    candidates: text(500).nullish(),
    state: int(),
    claimTime: datetime().nullish(),
    endTime: datetime().nullish(),
    dueTime: datetime().nullish(),
    /** 1 approved, 0 rejected, null neither. */
    pass: int().nullish(),
    comment: text(2000).nullish(),
    /** Why it ended other than by completion: timeout, deleted, cancelled. */
    reason: text(64).nullish(),
    /** Bumped by every change of the task; a change writes only over the revision it read. */
    revision: int(),
    /** The model's form key of the user task: the console form its handle page opens (docs/workflow.md "Forms"). */
    formKey: text(255).nullish(),
  }),
  orderBy: [{ field: 'createTime', desc: true }],
});

/** One activity an instance entered: the history timeline (process/history-flow-list). */
export const flowHistory = defineResource({
  service: 'blade-flow',
  name: 'history',
  menu: 'flow_follow',
  table: 'wf_history',
  tenancy: 'tenant',
  ownRoutes: true,
  fields: z.object({
    instanceId: id(),
    elementId: text(128),
    elementType: text(64),
    name: text(255).nullish(),
    executionId: text(128),
    taskId: id().nullish(),
    assignee: id().nullish(),
    startTime: datetime(),
    endTime: datetime().nullish(),
    durationMs: int().nullish(),
    comment: text(2000).nullish(),
    pass: int().nullish(),
    reason: text(64).nullish(),
  }),
  orderBy: [{ field: 'startTime' }],
});

/** A leave request (blade-desk/process/leave), the spec's example process: its own table, its instance by id. */
export const processLeave = defineResource({
  service: 'blade-desk',
  name: 'leave',
  path: '/blade-desk/process/leave',
  menu: 'work_start',
  table: 'blade_process_leave',
  tenancy: 'tenant',
  ownRoutes: true,
  fields: z.object({
    processDefinitionId: id('请选择流程'),
    processInstanceId: id().nullish(),
    startTime: datetime(),
    endTime: datetime(),
    reason: required('请输入请假理由', 500),
    taskUser: id().nullish(),
    applyTime: datetime(),
    days: int(),
  }),
  orderBy: [{ field: 'applyTime', desc: true }],
});
