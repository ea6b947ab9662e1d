import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';
import type { FlowDiagram } from '../../../resources/wire/flow';

/** The calls of the model and deployment screens (docs/workflow.md "Calls"). */

const F = 'api/blade-flow';

/** A model as its detail answers it (resources/flow/flow.ts `flowModel`). */
export interface FlowModelRow {
  id: string;
  modelKey: string;
  name: string;
  description?: string | null;
  category?: string | null;
  xml?: string | null;
  version?: number | null;
  deployedVersion?: number | null;
}

/** What the designer saves (model/submit): the model's own columns and its XML. */
export interface ModelSubmitBody {
  id?: string;
  modelKey: string;
  name: string;
  description?: string | null;
  category?: string | null;
  xml: string;
}

/** Where a deployment goes: its category (`flow_<dictKey>`) and, for the platform administrator, the tenants. */
export interface DeployTarget {
  category: string;
  /** Comma-joined tenant ids; absent: the caller's tenant. */
  tenantIds?: string;
}

export async function modelDetail(id: string): Promise<FlowModelRow> {
  return (await http.get<Envelope<FlowModelRow>>(`${F}/model/detail`, { searchParams: { id } })).data;
}

/** Saves a model; the server's refusal (a BPMN problem naming the element and line) is toasted by the request layer. */
export async function submitModel(body: ModelSubmitBody): Promise<FlowModelRow> {
  return (await http.post<Envelope<FlowModelRow>>(`${F}/model/submit`, { json: body })).data;
}

export async function deployModel(modelId: string, target: DeployTarget): Promise<void> {
  await http.post(`${F}/model/deploy`, { json: { modelId, ...target } });
}

/** Suspends (no new instances) or activates a process definition. */
export async function changeDefinitionState(processId: string, state: 'active' | 'suspend'): Promise<void> {
  await http.post(`${F}/manager/change-state`, { json: { processId, state } });
}

/**
 * Deletes deployments. Without `cascade` the server refuses while instances of them run; the refusal is the
 * caller's to show (it offers to repeat with `cascade`, which deletes those instances too).
 */
export async function deleteDeployments(deploymentIds: readonly string[], cascade = false): Promise<void> {
  await http.post(`${F}/manager/delete-deployment`, {
    searchParams: { deploymentIds: deploymentIds.join(','), cascade: cascade ? 'true' : undefined },
    ownRefusals: !cascade,
  });
}

/** Uploads BPMN files as the next version of their process keys; `onProgress` gets the bytes sent. */
export async function uploadDeployment(files: readonly File[], target: DeployTarget, onProgress?: (sent: number, total: number) => void): Promise<Row[]> {
  const body = new FormData();
  body.append('category', target.category);
  if (target.tenantIds) body.append('tenantIds', target.tenantIds);
  for (const file of files) body.append('files', file, file.name);
  return (await http.upload<Envelope<Row[] | null>>(`${F}/manager/deploy-upload`, body, { onProgress })).data ?? [];
}

/** A definition's XML (finished and active are empty for a definition). */
export async function definitionDiagram(processDefinitionId: string): Promise<FlowDiagram> {
  return (await http.get<Envelope<FlowDiagram>>(`${F}/process/diagram`, { searchParams: { processDefinitionId } })).data;
}
