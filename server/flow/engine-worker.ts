import { parentPort } from 'node:worker_threads';
import { BpmnProblem, type CompiledProcess, compileBpmn } from './bpmn';
import { FlowRunError, runStep, type StepAction } from './engine';

/**
 * A thread that runs engine steps (server/flow/engine-pool.ts): the document is compiled once per definition and
 * kept; each request is one step of one instance, answered with its result or why it could not run.
 */

export interface StepRequest {
  id: number;
  definitionId: string;
  xml: string;
  state: string | null;
  action: StepAction;
}

export type StepReply = { id: number; result: Awaited<ReturnType<typeof runStep>> } | { id: number; error: string; kind: 'run' | 'bpmn' | 'other' };

const compiled = new Map<string, Promise<CompiledProcess>>();

function processOf(definitionId: string, xml: string): Promise<CompiledProcess> {
  let found = compiled.get(definitionId);
  if (!found) {
    if (compiled.size >= 500) compiled.delete(compiled.keys().next().value as string);
    found = compileBpmn(xml);
    compiled.set(definitionId, found);
    found.catch(() => compiled.delete(definitionId));
  }
  return found;
}

parentPort?.on('message', async (request: StepRequest) => {
  let reply: StepReply;
  try {
    const process = await processOf(request.definitionId, request.xml);
    reply = { id: request.id, result: await runStep(process, request.state, request.action) };
  } catch (error) {
    const kind = error instanceof FlowRunError ? 'run' : error instanceof BpmnProblem ? 'bpmn' : 'other';
    reply = { id: request.id, error: (error as Error).message ?? String(error), kind };
  }
  parentPort?.postMessage(reply);
});
