import type { Db } from '../db/database';
import { nextId } from '../ids';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';
import { BpmnProblem, type CompiledProcess, compileBpmn } from './bpmn';
import { Directory } from './directory';
import { EnginePool } from './engine-pool';
import { PromiseCache } from './promise-cache';
import { FlowRunError, runStep, type StepAction, type StepResult } from './engine';
import { FLOW_MESSAGES } from '../../resources/wire/flow';
import { closeHistory, INSTANCE_STATE, type NewTask, openHistory, StepConflict, type StepInstance, type StepWrite, TASK_STATE, writeStep } from './steps';

/**
 * The workflow service (docs/workflow.md): runs instances step by step on the engine and keeps their state in the
 * database. Callers' rights and rows are checked by the routes (server/modules/blade-flow) through the scoped
 * repository before anything here runs; this is the engine's side: starting, completing and timing out.
 */

export interface FlowClock {
  now(): number;
}

export const systemClock: FlowClock = { now: () => Date.now() };

/** A definition as the service needs it. */
export interface DefinitionRef {
  id: string;
  tenantId: string;
  processKey: string;
  xml: string;
  suspensionState: number;
}

/** An instance as a step reads it. */
export interface InstanceRow extends StepInstance {
  engineState: string | null;
  variables: string | null;
  state: number;
  title: string;
  businessTable: string | null;
  businessId: string | null;
  startUser: string | null;
}

/** How a completion was answered: the process moved (`done`), a delegated task went back to its owner (`resolved`), or
 * it repeats the caller's own submit that stands (`already`, with what that said). */
export interface Completion {
  outcome: 'done' | 'resolved' | 'already';
  pass: boolean | null;
}

/** What a test may put in the workflow's way (AppOptions.flowHooks). */
export interface FlowHooks {
  /**
   * Runs once a task action (claim, give back, transfer, delegate, resolve, complete) has read the task and decided,
   * or a start has run its first step, before it writes: a test holds one process there while another acts on the
   * same task or definition. `id`: the task's, or the definition's for a start.
   */
  beforeWrite?(id: string): Promise<void>;
}

/** How often a completion overtaken by another process's step is tried again on what the instance has become. */
const STEP_ATTEMPTS = 3;

/** What happens once a step has committed: tasks to announce, an end to act on. */
export interface StepOutcome {
  instanceId: string;
  tenantId: string;
  ended: boolean;
  newTasks: readonly NewTask[];
}

export type StepListener = (outcome: StepOutcome, instance: InstanceRow) => Promise<void> | void;
/** Writes that belong to a step, in its transaction (a new task's notice commits with the task). */
export type StepWriteListener = (trx: Db, outcome: StepOutcome, instance: InstanceRow) => Promise<void>;

/**
 * Serialises the steps of one instance within this process. Across processes the revisions decide: a step writes only
 * over the instance's revision it read, a task action only over the task's.
 */
class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

/** Process variables a caller may set: identifiers, plain JSON values, 16 KB in all. */
export function checkVariables(variables: unknown): Record<string, unknown> {
  if (variables === undefined || variables === null) return {};
  if (typeof variables !== 'object' || Array.isArray(variables)) throw new BpmnProblem('流程变量应为对象');
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) throw new BpmnProblem(`流程变量名不合法: ${name.slice(0, 64)}`);
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw new BpmnProblem(`流程变量 ${name} 的值不合法`);
    out[name] = value;
  }
  if (JSON.stringify(out).length > 16_384) throw new BpmnProblem('流程变量过大');
  return out;
}

/** A completion as its caller submits it. */
type Submit = { assignee: string; pass: boolean | null; comment: string | null; variables: Record<string, unknown> };

/** A task as an action reads it in the instance's turn. */
type TaskNow = {
  state: number;
  assignee: string | null;
  owner: string | null;
  delegation: string | null;
  tenantId: string;
  instanceId: string;
  elementId: string;
  name: string;
  executionId: string;
  revision: number;
};

/** A step that lost to another process's, told to the caller as a refusal. */
const conflictAsProblem = (error: unknown): never => {
  throw error instanceof StepConflict ? new BpmnProblem(error.message) : error;
};

const parseVariables = (text: string | null): Record<string, unknown> => {
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export class Workflow {
  readonly directory: Directory;
  private readonly compiled = new PromiseCache<CompiledProcess>(500);
  private readonly documents = new PromiseCache<Pick<DefinitionRef, 'id' | 'xml'>>(500);
  private readonly queue = new KeyedQueue();
  private readonly listeners: StepListener[] = [];
  private readonly writers: StepWriteListener[] = [];

  private readonly pool: EnginePool;

  constructor(
    private readonly platform: Platform,
    readonly clock: FlowClock = systemClock,
    private readonly hooks: FlowHooks = {},
  ) {
    this.directory = new Directory(platform.db, platform.events);
    this.pool = new EnginePool(platform.config.flowThreads);
  }

  /** Stops the engine's threads (the server's close). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** Runs inside every step's transaction, after the step's own writes. */
  onStepWrite(listener: StepWriteListener): void {
    this.writers.push(listener);
  }

  /** Runs after every committed step (notices, alarm disposal, the timer scheduler). */
  onStep(listener: StepListener): void {
    this.listeners.push(listener);
  }

  /** The compiled process of a definition, compiled once and kept (at most 500). */
  process(definition: Pick<DefinitionRef, 'id' | 'xml'>): Promise<CompiledProcess> {
    return this.compiled.get(definition.id, () => compileBpmn(definition.xml));
  }

  /**
   * Starts an instance of a definition; returns its id. The caller's right to start it was checked by the route.
   * `within` writes the business's side of the start (its record, its link to the instance) in the start's own
   * transaction: the instance and its business commit together or not at all.
   */
  async start(
    definition: DefinitionRef,
    input: { starter: string | null; variables: Record<string, unknown>; title: string; businessTable?: string; businessId?: string },
    within?: (trx: Db, instanceId: string) => Promise<void>,
  ): Promise<string> {
    if (definition.suspensionState !== 1) throw new BpmnProblem('流程已挂起,不能发起');
    const process = await this.process(definition);
    const now = this.clock.now();
    const variables = { ...input.variables };
    const result = await this.run(definition, process, null, { kind: 'start', variables });
    const instance: InstanceRow = {
      id: nextId(),
      tenantId: definition.tenantId,
      definitionId: definition.id,
      revision: 0,
      engineState: null,
      variables: null,
      state: INSTANCE_STATE.running,
      title: input.title,
      businessTable: input.businessTable ?? null,
      businessId: input.businessId ?? null,
      startUser: input.starter,
    };
    const at = formatDateTime(new Date(now));
    const insert = {
      id: instance.id,
      tenantId: definition.tenantId,
      definitionId: definition.id,
      processKey: definition.processKey,
      title: input.title.slice(0, 255),
      businessTable: instance.businessTable,
      businessId: instance.businessId,
      startUser: input.starter,
      state: INSTANCE_STATE.running,
      startTime: at,
      createUser: input.starter,
      createTime: at,
      updateUser: input.starter,
      status: 1,
      isDeleted: 0,
    };
    await this.hooks.beforeWrite?.(definition.id);
    const business = within && ((trx: Db) => within(trx, instance.id));
    await this.commit(instance, process, result, variables, { insert, now, cancelReason: 'cancelled', within: business }).catch(conflictAsProblem);
    return instance.id;
  }

  /**
   * Completes a task for its assignee, in the instance's turn. A task the caller already completed — or, delegated to
   * it, resolved — is a repeat and changes nothing: it is answered with what the first submit said ('already'). One
   * completed or cut off otherwise is refused. A delegated task goes back to its owner instead of moving the process
   * ('resolved').
   */
  completeTask(
    task: { id: string; instanceId: string; executionId: string },
    by: Submit,
  ): Promise<Completion> {
    return this.queue.run(task.instanceId, () => this.completeInTurn(task, by, STEP_ATTEMPTS));
  }

  /** One try at a completion; a write another process overtook is tried again from what the task has become. */
  private async completeInTurn(
    task: { id: string; instanceId: string; executionId: string },
    by: Submit,
    attempts: number,
  ): Promise<Completion> {
    // The instance before the task: a step another process commits after either read fails this one's revisions.
    const instance = await this.load(task.instanceId).catch((error: unknown) => {
      if (error instanceof BpmnProblem) return undefined;
      throw error;
    });
    const now = await this.taskNow(task.id);
    const stands = await this.standing(task.id, now, by.assignee);
    if (stands) return stands;
    try {
      if (now.delegation === 'pending' && now.owner) return await this.resolve(task.id, now, now.owner, by);
      if (!instance) throw new BpmnProblem(FLOW_MESSAGES.alreadyDone);
      await this.step(instance, { id: task.id, executionId: task.executionId, revision: now.revision }, by);
      return { outcome: 'done', pass: by.pass };
    } catch (error) {
      if (!(error instanceof StepConflict)) throw error;
      if (attempts <= 1) throw new BpmnProblem(error.message);
      return this.completeInTurn(task, by, attempts - 1);
    }
  }

  /**
   * What already stands against a completion by `userId` of a task as read: its own earlier submit (a repeat), else a
   * refusal. Undefined when the caller may complete it now: open, and its own or nobody's yet.
   */
  private async standing(taskId: string, now: TaskNow, userId: string): Promise<Completion | undefined> {
    if (now.state === TASK_STATE.open && (now.assignee === null || now.assignee === userId)) return undefined;
    const earlier = await this.submitted(taskId, userId);
    if (earlier) return earlier;
    throw new BpmnProblem(now.state === TASK_STATE.open ? FLOW_MESSAGES.claimedByOther : FLOW_MESSAGES.alreadyDone);
  }

  /**
   * The caller's own submit of a task that stands — its completion, or its resolve of a delegation — with what it
   * said; undefined when there is none. The history keeps both: a completion closes the row with no reason, a resolve
   * with `resolve`.
   */
  async submitted(taskId: string, userId: string): Promise<Completion | undefined> {
    // The engine's read of a task the route found through the caller's scope.
    const row = await this.platform.db
      .selectFrom('wf_history')
      .select('pass')
      .where('taskId', '=', taskId)
      .where('assignee', '=', userId)
      .where('endTime', 'is not', null)
      .where((eb) => eb.or([eb('reason', 'is', null), eb('reason', '=', 'resolve')]))
      .orderBy('endTime', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!row) return undefined;
    return { outcome: 'already', pass: row.pass === null ? null : Number(row.pass) === 1 };
  }

  /** A delegate's completion: the task goes back to its owner, the process does not move. */
  private async resolve(taskId: string, now: TaskNow, owner: string, by: Submit): Promise<Completion> {
    await this.hooks.beforeWrite?.(taskId);
    const said = { ...by, reason: 'resolve', next: owner };
    if (!(await this.handOver(taskId, now, { assignee: owner, owner: null, delegation: null }, said))) throw new StepConflict(FLOW_MESSAGES.conflict);
    return { outcome: 'resolved', pass: by.pass };
  }

  /** The engine step of a completion, written over the instance's and the task's revisions as read. */
  private async step(
    instance: InstanceRow,
    task: { id: string; executionId: string; revision: number },
    by: Submit,
  ): Promise<void> {
    const { definition, process, variables } = await this.prepare(instance);
    const result = await this.run(definition, process, instance.engineState, { kind: 'complete', executionId: task.executionId, variables: by.variables });
    await this.hooks.beforeWrite?.(task.id);
    await this.commit(instance, process, result, { ...variables, ...by.variables }, {
      now: this.clock.now(),
      cancelReason: 'cancelled',
      completed: { taskId: task.id, executionId: task.executionId, revision: task.revision, assignee: by.assignee, pass: by.pass, comment: by.comment },
    });
  }

  /**
   * Changes who holds an open task — claim, give back, transfer, delegate — in the instance's turn and only over the
   * holder it had (`from`); returns false when it had another by then. The write is over the task's revision as read:
   * when another process changed the task in between, the change is decided again on what the task has become. A
   * hand-over to someone else closes the history row of the holder with what was said and opens one for the next.
   */
  assignTask(
    task: { id: string; instanceId: string },
    from: string | null,
    change: { assignee: string | null; owner?: string | null; delegation?: string | null },
    said?: { assignee: string; comment: string | null; reason: string },
  ): Promise<boolean> {
    return this.queue.run(task.instanceId, async () => {
      for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
        const now = await this.taskNow(task.id);
        if (now.state !== TASK_STATE.open) throw new BpmnProblem(FLOW_MESSAGES.alreadyDone);
        if (now.assignee !== from) return false;
        await this.hooks.beforeWrite?.(task.id);
        if (await this.handOver(task.id, now, change, said && { ...said, pass: null, next: change.assignee })) return true;
      }
      throw new BpmnProblem(FLOW_MESSAGES.conflict);
    });
  }

  /** Ends a running instance: its open tasks and timers go, the history says why (follow/delete-process-instance). */
  deleteInstance(instanceId: string, reason: string, by: string | null): Promise<void> {
    return this.queue.run(instanceId, async () => {
      const at = formatDateTime(new Date(this.clock.now()));
      await this.platform.db.transaction().execute(async (trx) => {
        const ended = await trx
          .updateTable('wf_instance')
          .set({ state: INSTANCE_STATE.deleted, endTime: at, deleteReason: reason, engineState: null, updateTime: at, updateUser: by })
          .where('id', '=', instanceId)
          .where('state', 'in', [INSTANCE_STATE.running, INSTANCE_STATE.suspended])
          .executeTakeFirst();
        if (Number(ended.numUpdatedRows) !== 1) throw new BpmnProblem('流程已结束');
        await trx
          .updateTable('wf_task')
          .set((eb) => ({ state: TASK_STATE.cancelled, endTime: at, reason: 'deleted', updateTime: at, revision: eb('revision', '+', 1) }))
          .where('instanceId', '=', instanceId)
          .where('state', '=', TASK_STATE.open)
          .execute();
        await trx.updateTable('wf_history').set({ endTime: at, reason: 'deleted', comment: reason, updateTime: at }).where('instanceId', '=', instanceId).where('endTime', 'is', null).execute();
        await trx.deleteFrom('wf_timer').where('instanceId', '=', instanceId).execute();
      });
      for (const table of ['wf_instance', 'wf_task', 'wf_history']) this.platform.events.emit('changed', table);
    });
  }

  /** A task's state as it is now, read in the instance's turn. */
  private async taskNow(taskId: string): Promise<TaskNow> {
    // The engine's read of a task the route found through the caller's scope.
    const row = await this.platform.db.selectFrom('wf_task').select(['state', 'assignee', 'owner', 'delegation', 'tenantId', 'instanceId', 'elementId', 'name', 'executionId', 'revision']).where('id', '=', taskId).executeTakeFirst();
    if (!row) throw new BpmnProblem(FLOW_MESSAGES.taskMissing);
    return row;
  }

  /**
   * Writes a change of an open task's holder over the revision `read` had; false, writing nothing, when another
   * process changed the task since.
   */
  private async handOver(
    taskId: string,
    read: TaskNow,
    change: { assignee: string | null; owner?: string | null; delegation?: string | null },
    said?: { assignee: string; pass: boolean | null; comment: string | null; reason: string; next: string | null },
  ): Promise<boolean> {
    const now = this.clock.now();
    const at = formatDateTime(new Date(now));
    const moved = await this.platform.db.transaction().execute(async (trx) => {
      const claimTime = change.assignee ? { claimTime: at } : { claimTime: null };
      const updated = await trx
        .updateTable('wf_task')
        .set({ ...change, ...claimTime, revision: read.revision + 1, updateTime: at })
        .where('id', '=', taskId)
        .where('state', '=', TASK_STATE.open)
        .where('revision', '=', read.revision)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      if (!said) return true;
      const pass = said.pass === null ? null : said.pass ? 1 : 0;
      await closeHistory(trx, read.instanceId, { taskId }, at, now, { assignee: said.assignee, pass, comment: said.comment, reason: said.reason });
      if (said.next) await openHistory(trx, { ...read, id: taskId }, said.next, at);
      return true;
    });
    if (moved) for (const table of ['wf_task', 'wf_history']) this.platform.events.emit('changed', table);
    return moved;
  }

  /** Fires the instance's timers that are due by the platform's clock (server/flow/timers.ts). */
  fire(instanceId: string, executionIds: readonly string[]): Promise<StepOutcome | undefined> {
    return this.queue.run(instanceId, async () => {
      const instance = await this.load(instanceId).catch(() => undefined);
      if (!instance || instance.state !== INSTANCE_STATE.running) return undefined;
      const { definition, process, variables } = await this.prepare(instance);
      const result = await this.run(definition, process, instance.engineState, { kind: 'timers', executionIds });
      return this.commit(instance, process, result, variables, { now: this.clock.now(), cancelReason: 'timeout', fired: executionIds }).catch(conflictAsProblem);
    });
  }

  private async load(instanceId: string): Promise<InstanceRow> {
    // The engine's read of the instance a step runs on: found first through the caller's scope or the scheduler.
    const row = await this.platform.db
      .selectFrom('wf_instance')
      .select(['id', 'tenantId', 'definitionId', 'revision', 'engineState', 'variables', 'state', 'title', 'businessTable', 'businessId', 'startUser'])
      .where('id', '=', instanceId)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (!row) throw new BpmnProblem('流程实例不存在');
    if (row.state !== INSTANCE_STATE.running) throw new BpmnProblem('流程已结束');
    return row as InstanceRow;
  }

  private async prepare(instance: InstanceRow): Promise<{ definition: Pick<DefinitionRef, 'id' | 'xml'>; process: CompiledProcess; variables: Record<string, unknown> }> {
    const definition = await this.definition(instance.definitionId);
    return { definition, process: await this.process(definition), variables: parseVariables(instance.variables) };
  }

  /** A definition's document: deployed once and never changed, so read once (at most 500 kept). */
  private definition(id: string): Promise<Pick<DefinitionRef, 'id' | 'xml'>> {
    return this.documents.get(id, async () => {
      const row = await this.platform.db.selectFrom('wf_definition').select(['id', 'xml']).where('id', '=', id).executeTakeFirst();
      if (!row) throw new BpmnProblem('流程定义不存在');
      return row;
    });
  }

  /** One engine step, on the pool's threads when it has any. */
  private async run(definition: Pick<DefinitionRef, 'id' | 'xml'>, process: CompiledProcess, state: string | null, action: StepAction): Promise<StepResult> {
    try {
      return this.pool.threads > 0 ? await this.pool.run(definition.id, definition.xml, state, action) : await runStep(process, state, action);
    } catch (error) {
      if (error instanceof FlowRunError) throw new BpmnProblem(error.message);
      throw error;
    }
  }

  /** Resolves the tasks that began, writes the step, then tells the listeners. */
  private async commit(
    instance: InstanceRow,
    process: CompiledProcess,
    result: StepResult,
    variables: Record<string, unknown>,
    options: Pick<StepWrite, 'now' | 'cancelReason' | 'insert' | 'fired' | 'completed' | 'within'>,
  ): Promise<StepOutcome> {
    const newTasks: NewTask[] = [];
    for (const event of result.events.filter((e) => e.phase === 'start')) {
      const spec = process.userTasks.get(event.elementId) ?? { id: event.elementId, name: event.elementId };
      const due = result.timers
        .filter((t) => process.boundaries.get(t.elementId) === event.elementId)
        .map((t) => options.now + Math.max(0, t.delay))
        .sort((a, b) => a - b)[0];
      newTasks.push({
        id: nextId(),
        elementId: event.elementId,
        executionId: event.executionId,
        name: spec.name,
        formKey: 'formKey' in spec && spec.formKey ? spec.formKey.slice(0, 255) : null,
        assignment: await this.directory.assign(instance.tenantId, spec, variables),
        dueAt: due ?? null,
      });
    }
    const outcome = { instanceId: instance.id, tenantId: instance.tenantId, ended: result.ended, newTasks };
    const within = async (trx: Db) => {
      for (const writer of this.writers) await writer(trx, outcome, instance);
      await options.within?.(trx);
    };
    // A StepConflict goes to the caller: a completion tries again, a start or a timer tells it.
    await writeStep(this.platform.db, { instance, process, result, variables, newTasks, ...options, within });
    for (const table of ['wf_instance', 'wf_task', 'wf_history']) this.platform.events.emit('changed', table);
    for (const listener of this.listeners) {
      try {
        await listener(outcome, instance);
      } catch (error) {
        this.platform.logs.error('workflow', error, outcome.instanceId);
      }
    }
    return outcome;
  }
}
