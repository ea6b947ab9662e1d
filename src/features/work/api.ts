import type {
  CompleteTaskBody,
  FlowDefinition,
  FlowDiagram,
  FlowHistoryStep,
  FlowInstance,
  FlowInstanceDetail,
  FlowTask,
  FlowUser,
  HandOverBody,
  LeaveDetail,
  LeaveForm,
} from '../../../resources/wire/flow';
import { type Envelope, http } from '../../api/client';
import type { Page } from '../../crud/api';
import type { FlowRouteEntry } from './processRoutes';

/** The calls of my work, follow-up and the process pages (docs/workflow.md "Calls"). */

const F = 'api/blade-flow';

export type ListParams = Record<string, string | number | undefined>;

const page = <T>(path: string, params: ListParams) => http.get<Envelope<Page<T>>>(path, { searchParams: params }).then((r) => r.data);

/** The lists of my work, by the menu they belong to (spec §4 "Workflow task lists"). */
export const workLists = {
  start: (params: ListParams) => page<FlowDefinition>(`${F}/work/start-list`, params),
  claim: (params: ListParams) => page<FlowTask>(`${F}/work/claim-list`, params),
  todo: (params: ListParams) => page<FlowTask>(`${F}/work/todo-list`, params),
  send: (params: ListParams) => page<FlowInstance>(`${F}/work/send-list`, params),
  done: (params: ListParams) => page<FlowTask>(`${F}/work/done-list`, params),
};

export const followList = (params: ListParams) => page<FlowInstance>(`${F}/follow/list`, params);

/** Ends a running instance (流程跟踪's 删除); its open tasks are cancelled. */
export async function deleteInstance(processInstanceId: string, deleteReason: string): Promise<void> {
  await http.post(`${F}/follow/delete-process-instance`, { json: { processInstanceId, deleteReason } });
}

export async function taskDetail(taskId: string): Promise<FlowTask> {
  return (await http.get<Envelope<FlowTask>>(`${F}/work/task-detail`, { searchParams: { taskId }, ownRefusals: true })).data;
}

/*
 * The task's actions: refusals are the handle page's to show (the task machine tells 任务已被他人签收 and 任务已办结
 * apart and the page says why), so the request layer toasts none of them.
 */

export async function claimTask(taskId: string): Promise<void> {
  await http.post(`${F}/work/claim-task`, { searchParams: { taskId }, ownRefusals: true });
}

export async function completeTask(body: CompleteTaskBody): Promise<void> {
  await http.post(`${F}/work/complete-task`, { json: body, ownRefusals: true });
}

export async function transferTask(body: HandOverBody): Promise<void> {
  await http.post(`${F}/work/transfer-task`, { json: body, ownRefusals: true });
}

export async function delegateTask(body: HandOverBody): Promise<void> {
  await http.post(`${F}/work/delegate-task`, { json: body, ownRefusals: true });
}

export async function historySteps(processInstanceId: string): Promise<FlowHistoryStep[]> {
  return (await http.get<Envelope<FlowHistoryStep[]>>(`${F}/process/history-flow-list`, { searchParams: { processInstanceId } })).data ?? [];
}

export async function instanceDiagram(processInstanceId: string): Promise<FlowDiagram> {
  return (await http.get<Envelope<FlowDiagram>>(`${F}/process/diagram`, { searchParams: { processInstanceId } })).data;
}

/** Starts a process that has no form of its own (process/start-process); a 400 refusal is the form's to show. */
export async function startProcess(processDefinitionId: string, title: string, variables: Record<string, unknown>): Promise<{ processInstanceId: string }> {
  const json = { processDefinitionId, ...(title ? { title } : {}), variables };
  return (await http.post<Envelope<{ processInstanceId: string }>>(`${F}/process/start-process`, { json, ownRefusals: true })).data;
}

/** One instance with its variables, for whoever takes part in it. */
export async function instanceDetail(processInstanceId: string): Promise<FlowInstanceDetail> {
  return (await http.get<Envelope<FlowInstanceDetail>>(`${F}/process/instance`, { searchParams: { processInstanceId } })).data;
}

/** Starts a leave request; a 400 refusal is the form's to show at its fields. */
export async function startLeave(form: LeaveForm): Promise<{ id: string; processInstanceId: string }> {
  return (await http.post<Envelope<{ id: string; processInstanceId: string }>>('api/blade-desk/process/leave/start-process', { json: form, ownRefusals: true })).data;
}

export async function leaveDetail(businessId: string): Promise<LeaveDetail> {
  return (await http.get<Envelope<LeaveDetail>>('api/blade-desk/process/leave/detail', { searchParams: { businessId } })).data;
}

/** An alarm as its detail answers it (resources/iot/alarm.ts, with its references' names). */
export interface AlarmRow {
  id: string;
  title?: string | null;
  content?: string | null;
  deviceId?: string | null;
  deviceName?: string | null;
  deviceCode?: string | null;
  projectName?: string | null;
  pointKey?: string | null;
  alarmLevel?: number | string | null;
  alarmState?: number | string | null;
  handleState?: number | string | null;
  value?: number | string | null;
  firstValue?: number | string | null;
  limitValue?: number | string | null;
  unit?: string | null;
  firstTime?: string | null;
  levelTime?: string | null;
  clearTime?: string | null;
  handleUserName?: string | null;
  handleTime?: string | null;
  handleResult?: string | null;
}

export async function alarmDetail(id: string): Promise<AlarmRow> {
  return (await http.get<Envelope<AlarmRow>>('api/wit-xinde/alarm/detail', { searchParams: { id } })).data;
}

let flowRoutes: Promise<FlowRouteEntry[]> | undefined;

/** The dictionary `flow` with each entry's route (its remark), read once per page load; a failure is read again next time. */
export function flowRouteEntries(): Promise<FlowRouteEntry[]> {
  if (!flowRoutes) {
    const loading = http
      .get<Envelope<Array<Record<string, unknown>>>>('api/blade-system/dict/dictionary', { searchParams: { code: 'flow' } })
      .then((r) =>
        (r.data ?? []).map((e) => ({
          code: String(e.code ?? 'flow'),
          dictKey: String(e.dictKey ?? ''),
          dictValue: String(e.dictValue ?? ''),
          remark: typeof e.remark === 'string' ? e.remark : '',
        })),
      );
    loading.catch(() => {
      flowRoutes = undefined;
    });
    flowRoutes = loading;
  }
  return flowRoutes;
}

/** A colleague of the caller's tenant (work/users). */
export type UserOption = FlowUser;

/** Users of the caller's tenant matching `text` (name or account), the first 20. */
export async function findUsers(text: string): Promise<UserOption[]> {
  const query = text.trim();
  const reply = await http.get<Envelope<FlowUser[]>>('api/blade-flow/work/users', { searchParams: query ? { name: query } : {} });
  return reply.data ?? [];
}
