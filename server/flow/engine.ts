import { EventEmitter } from 'node:events';
import type { ITimers } from 'bpmn-elements';
import { Engine } from 'bpmn-engine';
import type { CompiledProcess } from './bpmn';
import { engineExpressions } from './expressions';

/**
 * One step of an instance on bpmn-engine: recover its saved state (or start it), do one thing — start, complete a
 * user task, fire due timers — let the engine run until every path waits or ends, and hand back the new state and
 * what happened. No instance stays in memory between steps: 10,000 waiting instances are 10,000 rows, not engines
 * (docs/workflow.md "State").
 *
 * Timers are the platform's, not the engine's: the engine's timer calls are caught (`timers` below) and reported, the
 * service stores when each is due by its own clock, and firing one is a step like any other.
 */

export type StepAction =
  | { kind: 'start'; variables: Record<string, unknown> }
  | { kind: 'complete'; executionId: string; variables: Record<string, unknown> }
  | { kind: 'timers'; executionIds: readonly string[] };

/** An activity that started or ended during the step. */
export interface StepEvent {
  elementId: string;
  type: string;
  executionId: string;
  /** start: a user task began to wait; end: an activity completed; cancel: it was left without completing. */
  phase: 'start' | 'end' | 'cancel';
}

export interface StepResult {
  /** The engine's state to save (without the document, which the definition holds); null once ended. */
  state: string | null;
  ended: boolean;
  /** Timers waiting now, with the delay the engine asked for (the service keeps the due time of known ones). */
  timers: Array<{ elementId: string; executionId: string; delay: number }>;
  events: StepEvent[];
}

/** The engine could not go on: a gateway with no way out, a timer it cannot read… */
export class FlowRunError extends Error {}

interface CaughtTimer {
  elementId: string;
  executionId: string;
  delay: number;
  fire: () => void;
}

/** bpmn-elements' timers API, catching every timer instead of scheduling it. */
function catchingTimers(caught: Map<string, CaughtTimer>) {
  return {
    /** What the engine clears when an execution completes. */
    get executing() {
      return [...caught.values()];
    },
    register(owner: { id: string; executionId: string }) {
      return {
        setTimeout(callback: CallableFunction, delay: number, ...args: unknown[]) {
          const timer = { elementId: owner.id, executionId: owner.executionId, delay, fire: () => Reflect.apply(callback, undefined, args) };
          caught.set(owner.executionId, timer);
          return timer;
        },
        clearTimeout(ref: CaughtTimer | undefined) {
          if (ref) caught.delete(ref.executionId);
        },
      };
    },
    // Timer event definitions clear through the environment's API, not the registered one.
    setTimeout(): never {
      throw new Error('unregistered timers are not used');
    },
    clearTimeout(ref: CaughtTimer | undefined) {
      if (ref) caught.delete(ref.executionId);
    },
  };
}

const silent = () => ({ debug() {}, error() {}, warn() {} });

/** Postponed activities as the engine's execution API lists them (bpmn-engine's types leave them loose). */
interface Postponed {
  id: string;
  type: string;
  executionId: string;
  owner: { environment: { variables: Record<string, unknown> } };
  signal(message?: unknown): void;
}

interface ActivityApi {
  id: string;
  type: string;
  executionId: string;
}

/** Runs one step. Throws FlowRunError when the engine stops on an error; nothing of the step is then kept. */
export async function runStep(process: CompiledProcess, saved: string | null, action: StepAction): Promise<StepResult> {
  const caught = new Map<string, CaughtTimer>();
  const events: StepEvent[] = [];
  /** User tasks waiting when the step began (the engine tells them again on resume) and those begun in it. */
  const waited = new Set<string>();
  let resuming = saved !== null;
  const ended = new Set<string>();
  const listener = new EventEmitter();
  const isElement = (api: ActivityApi) => process.elements.get(api.id)?.type === api.type;
  listener.on('activity.wait', (api: ActivityApi) => {
    if (api.type !== 'bpmn:UserTask' || waited.has(api.executionId)) return;
    waited.add(api.executionId);
    if (!resuming) events.push({ elementId: api.id, type: api.type, executionId: api.executionId, phase: 'start' });
  });
  listener.on('activity.end', (api: ActivityApi) => {
    // A boundary or catch event tells its end through its timer's definition (execution id `<event's>_<n>`).
    const definition = api.type.endsWith('EventDefinition');
    if (!isElement(api) && !(definition && process.elements.has(api.id))) return;
    const executionId = definition ? api.executionId.replace(/_\d+$/, '') : api.executionId;
    if (ended.has(executionId)) return;
    ended.add(executionId);
    events.push({ elementId: api.id, type: process.elements.get(api.id)?.type ?? api.type, executionId, phase: 'end' });
  });
  listener.on('activity.leave', (api: ActivityApi) => {
    // A user task left without ending was cut off: by a timer, a terminating end or another branch.
    if (api.type !== 'bpmn:UserTask' || ended.has(api.executionId) || !waited.has(api.executionId)) return;
    events.push({ elementId: api.id, type: api.type, executionId: api.executionId, phase: 'cancel' });
  });

  const engine = new Engine({
    name: process.key,
    sourceContext: process.context,
    expressions: engineExpressions,
    // bpmn-elements types its timers as its own Timer objects; ours carry what the step needs (elementId, fire).
    timers: catchingTimers(caught) as unknown as ITimers,
    Logger: silent,
    ...(action.kind === 'start' ? { variables: action.variables } : {}),
  });
  let failure: Error | undefined;
  engine.once('error', (error: Error) => {
    failure = error;
  });

  let execution: Awaited<ReturnType<Engine['execute']>>;
  try {
    if (saved === null) {
      execution = await engine.execute({ listener });
    } else {
      engine.recover(JSON.parse(saved));
      execution = await engine.resume({ listener });
      resuming = false;
    }
    const postponed = () => execution.getPostponed() as unknown as Postponed[];
    if (action.kind === 'complete') {
      const task = postponed().find((a) => a.executionId === action.executionId);
      if (!task) throw new FlowRunError(`任务 ${action.executionId} 不在等待中`);
      Object.assign(task.owner.environment.variables, action.variables);
      task.signal();
    } else if (action.kind === 'timers') {
      for (const executionId of action.executionIds) caught.get(executionId)?.fire();
    }
    // The engine runs synchronously; one turn lets anything it deferred settle.
    await new Promise((resolve) => setImmediate(resolve));
    if (failure) throw failure;
    if (engine.activityStatus === 'executing') throw new FlowRunError('流程未能停在等待状态');

    const done = engine.state !== 'running' || postponed().length === 0;
    let state: string | null = null;
    if (!done) {
      const snapshot = await engine.getState();
      // The document is the definition's; saving it with every instance would be ~5 KB each for nothing.
      for (const definition of snapshot.definitions ?? []) delete (definition as { source?: unknown }).source;
      state = JSON.stringify(snapshot);
    }
    return {
      state,
      ended: done,
      timers: done ? [] : [...caught.values()].map(({ elementId, executionId, delay }) => ({ elementId, executionId, delay })),
      events,
    };
  } catch (error) {
    if (error instanceof FlowRunError) throw error;
    throw new FlowRunError(`流程无法继续: ${(error as Error).message ?? String(error)}`);
  } finally {
    engine.removeAllListeners();
    listener.removeAllListeners();
  }
}
