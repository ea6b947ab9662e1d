import type { FlowDefinition, FlowInstance, FlowTask } from '../../../resources/wire/flow';
import type { ApiClient } from '../../support/client';
import { expectOk, type PageData } from '../../support/envelope';

/** Fixtures of the workflow suites (docs/workflow.md): calls, the seeded processes and small test processes. */

export const F = '/api/blade-flow';
export const LEAVE = '/api/blade-desk/process/leave';

type TaskList = 'todo-list' | 'claim-list' | 'done-list';

export const tasksOf = async (api: ApiClient, list: TaskList, query: Record<string, string> = {}) =>
  expectOk(await api.get<PageData<FlowTask>>(`${F}/work/${list}`, { size: 200, ...query })).records;

/** The caller's task of an instance in a list, if any. */
export const taskIn = async (api: ApiClient, list: TaskList, instanceId: string) => (await tasksOf(api, list)).find((t) => t.processInstanceId === instanceId);

export const definitionOf = async (api: ApiClient, key: string) => {
  const found = expectOk(await api.get<PageData<FlowDefinition>>(`${F}/manager/list`, { processKey: key, latest: 'true', size: 100 })).records.find((d) => d.key === key);
  if (!found) throw new Error(`no definition of ${key}`);
  return found;
};

export const instanceOf = async (api: ApiClient, id: string) => {
  const found = expectOk(await api.get<PageData<FlowInstance>>(`${F}/follow/list`, { processInstanceId: id })).records[0];
  if (!found) throw new Error(`no instance ${id}`);
  return found;
};

/** Starts a leave request of `days` days from 2026-12-01 09:00 on the newest leave definition. */
export async function startLeave(api: ApiClient, definitionId: string, days: number, extra: Record<string, unknown> = {}) {
  const end = new Date(2026, 11, 1 + days, 9, 0, 0);
  const endTime = `${end.getFullYear()}-${String(end.getMonth() + 1).padStart(2, '0')}-${String(end.getDate()).padStart(2, '0')} 09:00:00`;
  return expectOk(await api.post<{ id: string; processInstanceId: string }>(`${LEAVE}/start-process`, { processDefinitionId: definitionId, startTime: '2026-12-01 09:00:00', endTime, reason: '探亲', ...extra }));
}

export const complete = (api: ApiClient, taskId: string, pass = true, comment?: string, variables?: Record<string, unknown>) =>
  api.post(`${F}/work/complete-task`, { taskId, pass, comment, variables });

export const claim = (api: ApiClient, taskId: string) => api.request('POST', `${F}/work/claim-task`, { query: { taskId } });

/** The titles of the notices the notice centre holds for the caller (a task reaching it: `待办任务: <task> - <title>`). */
export const noticeTitles = async (api: ApiClient) =>
  expectOk(await api.get<PageData<{ title: string }>>('/api/blade-desk/notice/list', { size: 200 })).records.map((n) => n.title);

/** A process of user tasks in a row, each with its attributes, e.g. `[{ id: 'a', candidateGroups: 'role:engineer' }]`. */
export function sequence(key: string, tasks: ReadonlyArray<Record<string, string> & { id: string }>, name = key): string {
  const ids = ['start', ...tasks.map((t) => t.id), 'end'];
  const body = tasks
    .map(({ id, ...attributes }) => `<userTask id="${id}" name="${id}" ${Object.entries(attributes).map(([k, v]) => `camunda:${k}="${v}"`).join(' ')} />`)
    .join('\n    ');
  const flows = ids.slice(1).map((id, i) => `<sequenceFlow id="f${i}" sourceRef="${ids[i]}" targetRef="${id}" />`).join('\n    ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions id="defs_${key}" xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="http://vigil.test">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" />
    ${body}
    <endEvent id="end" />
    ${flows}
  </process>
</definitions>`;
}

/** Deploys a document by multipart upload (manager/deploy-upload), as the deployment manager does. */
export async function upload(api: ApiClient, files: ReadonlyArray<{ name: string; xml: string }>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('files', new Blob([file.xml], { type: 'text/xml' }), file.name);
  return api.request<{ code: number; success: boolean; data: FlowDefinition[]; msg: string }>('POST', `${F}/manager/deploy-upload`, { raw: form });
}
