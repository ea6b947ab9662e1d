import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { builtFile, bundled, serverFile } from '../files';
import { BpmnProblem } from './bpmn';
import { FlowRunError, type StepAction, type StepResult } from './engine';
import type { StepReply, StepRequest } from './engine-worker';

/**
 * Engine steps on worker threads. A step is a few milliseconds of the engine's own work (recovering its state,
 * running, saving it again) with no I/O; on the main thread it would hold up every request and every commit. The
 * threads take steps in turn (the least busy first); the instance's queue (server/flow/service.ts) still keeps one
 * instance's steps in order. `threads` 0 runs steps on the main thread (a process that has one core to give).
 */
/** Longest a step may take by default. */
const STEP_LIMIT_MS = 10_000;

/**
 * What a thread runs: the build's worker (build/engine-worker.mjs), or the TypeScript with tsx's loader registered in
 * the thread first, as the server's own is.
 */
const WORKER_SCRIPT = bundled
  ? `import(${JSON.stringify(pathToFileURL(builtFile('engine-worker')).href)});`
  : `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(serverFile('flow/engine-worker.ts')).href)}); });`;

export class EnginePool {
  private readonly workers: Slot[] = [];
  private nextId = 0;

  constructor(
    readonly threads: number,
    /** Longest a step may take on a thread before the thread is stopped. */
    private readonly limitMs = STEP_LIMIT_MS,
  ) {}

  async run(definitionId: string, xml: string, state: string | null, action: StepAction): Promise<StepResult> {
    const slot = this.slot();
    const id = this.nextId++;
    const step = new Promise<StepResult>((resolve, reject) => {
      slot.waiting.set(id, { resolve, reject });
      slot.worker.postMessage({ id, definitionId, xml, state, action } satisfies StepRequest);
    });
    // A step is milliseconds; one that runs on (a timer cycle of no delay, say) takes its thread down with it.
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new FlowRunError(`流程步骤超过${this.limitMs / 1000}秒未完成,已中止`);
        this.drop(slot, error);
        reject(error);
      }, this.limitMs);
      timer.unref();
    });
    try {
      return await Promise.race([step, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A thread that died or hung: the steps it held fail, the next step starts another. */
  private drop(slot: Slot, error: Error): void {
    for (const waiter of slot.waiting.values()) waiter.reject(error);
    slot.waiting.clear();
    const at = this.workers.indexOf(slot);
    if (at >= 0) this.workers.splice(at, 1);
    void slot.worker.terminate();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
    this.workers.length = 0;
  }

  /** The least busy thread, starting one while there are fewer than `threads`. */
  private slot(): Slot {
    if (this.workers.length < this.threads) {
      // A step allocates many short-lived messages: a larger young generation collects them less often.
      const worker = new Worker(WORKER_SCRIPT, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
      worker.unref();
      const slot: Slot = { worker, waiting: new Map() };
      worker.on('message', (reply: StepReply) => answer(slot, reply));
      worker.on('error', (error) => this.drop(slot, error));
      this.workers.push(slot);
      return slot;
    }
    return this.workers.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
  }
}

interface Slot {
  worker: Worker;
  /** The steps sent to it and not answered yet. */
  waiting: Map<number, { resolve(result: StepResult): void; reject(error: Error): void }>;
}

function answer(slot: Slot, reply: StepReply): void {
  const waiter = slot.waiting.get(reply.id);
  if (!waiter) return;
  slot.waiting.delete(reply.id);
  if ('result' in reply) waiter.resolve(reply.result);
  else waiter.reject(reply.kind === 'run' ? new FlowRunError(reply.error) : reply.kind === 'bpmn' ? new BpmnProblem(reply.error) : new Error(reply.error));
}
