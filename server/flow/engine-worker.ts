import { parentPort } from 'node:worker_threads';
import { BpmnProblem, type CompiledProcess, compileBpmn } from './bpmn';
import { FlowRunError, runStep, type StepAction } from './engine';
import { PromiseCache } from './promise-cache';

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

/** Compiled once per definition in this thread (at most 500 kept). */
const compiled = new PromiseCache<CompiledProcess>(500);

parentPort?.on('message', async (request: StepRequest) => {
  let reply: StepReply;
  try {
    const process = await compiled.get(request.definitionId, () => compileBpmn(request.xml));
    reply = { id: request.id, result: await runStep(process, request.state, request.action) };
  } catch (error) {
    const kind = error instanceof FlowRunError ? 'run' : error instanceof BpmnProblem ? 'bpmn' : 'other';
    reply = { id: request.id, error: (error as Error).message ?? String(error), kind };
  }
  parentPort?.postMessage(reply);
});
