import { PostgresAdapter } from 'kysely';
import type { Db, Row } from '../db/database';
import { nextId } from '../ids';
import { formatDateTime } from '../time';
import type { CompiledProcess } from './bpmn';
import type { Assignment } from './directory';
import type { StepResult } from './engine';
import { FLOW_MESSAGES } from '../../resources/wire/flow';

/**
 * Writing one step of an instance (docs/workflow.md "State"): its engine state and variables, the user tasks that
 * began (with their candidates) or were cut off, the history of every activity, and the timers it now waits on — in
 * one transaction, over the revision the step read. A step that lost the race to another writes nothing.
 *
 * The queries here are the engine's own (server/db/raw-queries.ts): every one is of the instance the step runs on,
 * which the caller's scoped read or the timer scheduler found; its tenant is the instance's.
 */

export const INSTANCE_STATE = { running: 1, suspended: 2, completed: 3, deleted: 4 } as const;
export const TASK_STATE = { open: 1, completed: 2, cancelled: 3 } as const;

/** The instance a step runs on, as read before it. */
export interface StepInstance {
  id: string;
  tenantId: string;
  definitionId: string;
  revision: number;
}

/** A task that began in the step, resolved to who acts on it. */
export interface NewTask {
  id: string;
  elementId: string;
  executionId: string;
  name: string;
  /** The model's form key, if it gives one. */
  formKey: string | null;
  assignment: Assignment;
  dueAt: number | null;
}

export interface StepWrite {
  instance: StepInstance;
  process: CompiledProcess;
  result: StepResult;
  variables: Record<string, unknown>;
  newTasks: readonly NewTask[];
  /**
   * The task whose completion the step was, with what was said and the task's revision as read: it completes only
   * over that revision. Its history row closes with it.
   */
  completed?: { taskId: string; executionId: string; revision: number; assignee: string; pass: boolean | null; comment: string | null };
  /** Why tasks cut off in this step ended: `timeout` when a timer fired. */
  cancelReason: string;
  /** Epoch ms of the platform's clock: timers fall due from it. */
  now: number;
  /** Timers fired by the step: a timer that repeats is due again from now. */
  fired?: readonly string[];
  /** The instance's first step: insert it rather than update. */
  insert?: Row;
  /** More writes of the step, in its transaction. */
  within?: (trx: Db) => Promise<void>;
}

/** Thrown when the instance moved on since it was read: someone else's step won. */
export class StepConflict extends Error {}

const datetime = (ms: number) => formatDateTime(new Date(ms));

/** Writes a step; returns the new revision. */
export async function writeStep(db: Db, write: StepWrite): Promise<number> {
  const { instance, result, now } = write;
  const at = datetime(now);
  const revision = instance.revision + 1;
  return db.transaction().execute(async (trx) => {
    const instanceValues = {
      engineState: result.state,
      variables: JSON.stringify(write.variables),
      revision,
      updateTime: at,
      ...(result.ended ? { state: INSTANCE_STATE.completed, endTime: at } : {}),
    };
    if (write.insert) {
      await holdDefinition(trx, instance.definitionId);
      await trx.insertInto('wf_instance').values({ ...write.insert, ...instanceValues }).execute();
    } else {
      const updated = await trx
        .updateTable('wf_instance')
        .set(instanceValues)
        .where('id', '=', instance.id)
        .where('revision', '=', instance.revision)
        .where('state', '=', INSTANCE_STATE.running)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new StepConflict(FLOW_MESSAGES.conflict);
    }
    const base = { tenantId: instance.tenantId, createTime: at, updateTime: at, status: 1, isDeleted: 0 };

    if (write.completed) await completeTask(trx, instance.id, write.completed, at, now);

    const ended: Row[] = [];
    for (const event of result.events) {
      if (event.phase === 'cancel') {
        await trx
          .updateTable('wf_task')
          .set((eb) => ({ state: TASK_STATE.cancelled, endTime: at, reason: write.cancelReason, updateTime: at, revision: eb('revision', '+', 1) }))
          .where('instanceId', '=', instance.id)
          .where('executionId', '=', event.executionId)
          .where('state', '=', TASK_STATE.open)
          .execute();
        await closeHistory(trx, instance.id, { executionId: event.executionId }, at, now, { reason: write.cancelReason });
      } else if (event.phase === 'end' && event.type !== 'bpmn:UserTask') {
        const name = write.process.elements.get(event.elementId)?.name ?? event.elementId;
        ended.push({ id: nextId(), ...base, instanceId: instance.id, elementId: event.elementId, elementType: event.type, name, executionId: event.executionId, startTime: at, endTime: at, durationMs: 0 });
      }
    }
    // Events and gateways the step passed through: one row each, written at once.
    if (ended.length) await trx.insertInto('wf_history').values(ended).execute();

    for (const task of write.newTasks) {
      const { assignee, candidates, display } = task.assignment;
      await trx
        .insertInto('wf_task')
        .values({
          id: task.id,
          ...base,
          instanceId: instance.id,
          definitionId: instance.definitionId,
          elementId: task.elementId,
          name: task.name,
          formKey: task.formKey,
          executionId: task.executionId,
          assignee,
          candidates: display.slice(0, 2000),
          state: TASK_STATE.open,
          revision: 0,
          dueTime: task.dueAt === null ? null : datetime(task.dueAt),
        })
        .execute();
      if (candidates.length) await trx.insertInto('wf_task_candidate').values(candidates.map((c) => ({ id: nextId(), taskId: task.id, kind: c.kind, ref: c.ref }))).execute();
      await trx
        .insertInto('wf_history')
        .values({ id: nextId(), ...base, instanceId: instance.id, elementId: task.elementId, elementType: 'bpmn:UserTask', name: task.name, executionId: task.executionId, taskId: task.id, assignee, startTime: at })
        .execute();
    }

    await syncTimers(trx, write);
    await write.within?.(trx);
    return revision;
  });
}

/**
 * The definition a new instance starts on, still deployed and active — on PostgreSQL held (for share) until the start
 * commits: a deletion's write of the row waits for the start, then counts its instance; a start after the deletion
 * finds the row deleted. SQLite writes one transaction at a time, which orders them as well.
 */
async function holdDefinition(trx: Db, definitionId: string): Promise<void> {
  // The definition the start was given (found through the caller's scope, or the alarm's tenant).
  const query = trx.selectFrom('wf_definition').select('id').where('id', '=', definitionId).where('isDeleted', '=', 0).where('suspensionState', '=', 1);
  const live = await (trx.getExecutor().adapter instanceof PostgresAdapter ? query.forShare() : query).executeTakeFirst();
  if (!live) throw new StepConflict('流程定义已删除或挂起,不能发起');
}

/**
 * Marks the completed task done over the revision its completion read: a task another process changed since (handed
 * over, completed, cut off) makes the whole step a conflict, written nothing.
 */
async function completeTask(trx: Db, instanceId: string, completed: NonNullable<StepWrite['completed']>, at: string, now: number): Promise<void> {
  const { taskId, assignee, pass, comment, revision } = completed;
  const passValue = pass === null ? null : pass ? 1 : 0;
  const done = await trx
    .updateTable('wf_task')
    .set({ state: TASK_STATE.completed, assignee, endTime: at, pass: passValue, comment, revision: revision + 1, updateTime: at, updateUser: assignee })
    .where('id', '=', taskId)
    .where('state', '=', TASK_STATE.open)
    .where('revision', '=', revision)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new StepConflict(FLOW_MESSAGES.conflict);
  await closeHistory(trx, instanceId, { taskId }, at, now, { assignee, pass: passValue, comment, reason: null });
}

/** Timers: those the engine no longer waits on go; new ones fall due their delay from now; known ones keep their time. */
async function syncTimers(trx: Db, { instance, result, now, fired = [] }: StepWrite): Promise<void> {
  const all = await trx.selectFrom('wf_timer').select(['id', 'executionId']).where('instanceId', '=', instance.id).execute();
  const known = all.filter((t) => !fired.includes(t.executionId));
  if (known.length < all.length) await trx.deleteFrom('wf_timer').where('instanceId', '=', instance.id).where('executionId', 'in', [...fired]).execute();
  const live = new Set(result.timers.map((t) => t.executionId));
  const gone = known.filter((t) => !live.has(t.executionId)).map((t) => t.id);
  if (gone.length) await trx.deleteFrom('wf_timer').where('id', 'in', gone).execute();
  const had = new Set(known.map((t) => t.executionId));
  const fresh = result.timers.filter((t) => !had.has(t.executionId));
  if (fresh.length) {
    await trx
      .insertInto('wf_timer')
      .values(fresh.map((t) => ({ id: nextId(), tenantId: instance.tenantId, instanceId: instance.id, elementId: t.elementId, executionId: t.executionId, dueAt: now + Math.max(0, t.delay) })))
      .execute();
  }
}

/** Closes the open history row of a task (by task id or execution id) with its duration and what was said. */
export async function closeHistory(
  trx: Db,
  instanceId: string,
  which: { taskId: string } | { executionId: string },
  at: string,
  now: number,
  values: { assignee?: string | null; pass?: number | null; comment?: string | null; reason: string | null },
): Promise<void> {
  const open = await trx
    .selectFrom('wf_history')
    .select(['id', 'startTime'])
    .where('instanceId', '=', instanceId)
    .where('endTime', 'is', null)
    .where('taskId' in which ? 'taskId' : 'executionId', '=', 'taskId' in which ? which.taskId : which.executionId)
    .execute();
  for (const row of open) {
    const started = new Date(String(row.startTime).replace(' ', 'T')).getTime();
    await trx
      .updateTable('wf_history')
      .set({ ...values, endTime: at, durationMs: Math.max(0, now - started), updateTime: at })
      .where('id', '=', row.id)
      .execute();
  }
}

/** Opens a history row for a task handed to someone else (transfer, delegation and its return). */
export async function openHistory(trx: Db, task: { id: string; tenantId: string; instanceId: string; elementId: string; name: string; executionId: string }, assignee: string, at: string): Promise<void> {
  await trx
    .insertInto('wf_history')
    .values({ id: nextId(), tenantId: task.tenantId, createTime: at, updateTime: at, status: 1, isDeleted: 0, instanceId: task.instanceId, elementId: task.elementId, elementType: 'bpmn:UserTask', name: task.name, executionId: task.executionId, taskId: task.id, assignee, startTime: at })
    .execute();
}
