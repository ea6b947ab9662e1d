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

/** A user task: its id, its name (the id unless given) and its camunda attributes, e.g. `candidateGroups`. */
export type UserTask = Readonly<Record<string, string> & { id: string }>;

const userTask = ({ id, name = id, ...attributes }: UserTask) =>
  `<userTask id="${id}" name="${name}" ${Object.entries(attributes).map(([k, v]) => `camunda:${k}="${v}"`).join(' ')} />`;

/** A process document of these elements and flows (`[from, to]`), from its `start` to its `end`. */
function processXml(key: string, name: string, elements: readonly string[], flows: ReadonlyArray<readonly [string, string]>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions id="defs_${key}" xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="http://vigil.test">
  <process id="${key}" name="${name}" isExecutable="true">
    <startEvent id="start" />
    ${elements.join('\n    ')}
    <endEvent id="end" />
    ${flows.map(([from, to], i) => `<sequenceFlow id="f${i}" sourceRef="${from}" targetRef="${to}" />`).join('\n    ')}
  </process>
</definitions>`;
}

/** A process of user tasks in a row, e.g. `[{ id: 'a', candidateGroups: 'role:engineer' }]`. */
export function sequence(key: string, tasks: readonly UserTask[], name = key): string {
  const ids = ['start', ...tasks.map((t) => t.id), 'end'];
  return processXml(key, name, tasks.map(userTask), ids.slice(1).map((id, i) => [ids[i], id] as const));
}

/** A process that forks into `branches` run side by side, joins them, then runs `then` in a row. */
export function parallel(key: string, branches: readonly UserTask[], then: readonly UserTask[] = [], name = key): string {
  const tail = [...then.map((t) => t.id), 'end'];
  const flows: Array<readonly [string, string]> = [
    ['start', 'fork'],
    ...branches.flatMap((b) => [['fork', b.id] as const, [b.id, 'join'] as const]),
    ['join', tail[0]],
    ...tail.slice(1).map((id, i) => [tail[i], id] as const),
  ];
  return processXml(key, name, ['<parallelGateway id="fork" />', ...branches.map(userTask), '<parallelGateway id="join" />', ...then.map(userTask)], flows);
}

/** Deploys a document by multipart upload (manager/deploy-upload), as the deployment manager does. */
export async function upload(api: ApiClient, files: ReadonlyArray<{ name: string; xml: string }>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append('files', new Blob([file.xml], { type: 'text/xml' }), file.name);
  return api.request<{ code: number; success: boolean; data: FlowDefinition[]; msg: string }>('POST', `${F}/manager/deploy-upload`, { raw: form });
}
