import { flowInstance, flowTask } from '../../../resources/flow/flow';
import { FLOW_MESSAGES } from '../../../resources/wire/flow';
import type { Condition } from '../../http/conditions';
import type { CallContext } from '../../db/repository';
import { CANDIDATE } from '../../flow/directory';
import type { Workflow } from '../../flow/service';
import { TASK_STATE } from '../../flow/steps';
import { badRequest } from '../../http/envelope';
import type { Platform } from '../../platform';

/**
 * Who may act on a task and who may see an instance (docs/workflow.md "Who acts"): the rows are read through the
 * scoped repository (the caller's tenant), then the task's own people decide.
 */

/** A task as its actions read it. */
export interface TaskRow {
  id: string;
  tenantId: string;
  instanceId: string;
  definitionId: string;
  elementId: string;
  name: string;
  executionId: string;
  assignee: string | null;
  owner: string | null;
  delegation: string | null;
  state: number;
}

/** The departments the caller belongs to: the token's and the user's own. */
export async function deptsOf(workflow: Workflow, ctx: CallContext): Promise<string[]> {
  const { principal } = ctx;
  const person = (await workflow.directory.organisation(principal.tenantId)).users.get(principal.userId);
  return [...new Set([principal.deptId, ...(person?.depts ?? [])].filter(Boolean))];
}

/**
 * Tasks the caller is a candidate of: named as a user, through one of its roles or one of its departments. One set of
 * task ids for the whole query (an uncorrelated `in`), not a lookup per task: 5,000 unclaimed tasks cost PostgreSQL a
 * scan of the candidates each in the correlated form.
 */
export function candidateOf(ctx: CallContext, depts: readonly string[]): Condition {
  const { principal } = ctx;
  return (eb) => {
    // Candidates are rows of a task, no tenant's: the task row itself is the scoped one.
    const mine = eb
      .selectFrom('wf_task_candidate as c')
      .select('c.taskId')
      .where((w) =>
        w.or([
          w.and([w('c.kind', '=', CANDIDATE.user), w('c.ref', '=', principal.userId)]),
          ...(principal.roleIds.length ? [w.and([w('c.kind', '=', CANDIDATE.role), w('c.ref', 'in', principal.roleIds)])] : []),
          ...(depts.length ? [w.and([w('c.kind', '=', CANDIDATE.dept), w('c.ref', 'in', [...depts])])] : []),
        ]),
      );
    return eb('wf_task.id', 'in', mine);
  };
}

/** A task of the caller's tenant, or the refusal every missing or foreign task gets. */
export async function taskOf(platform: Platform, ctx: CallContext, taskId: unknown): Promise<TaskRow> {
  const id = typeof taskId === 'string' || typeof taskId === 'number' ? String(taskId).trim() : '';
  if (!/^\d{1,20}$/.test(id)) throw badRequest(FLOW_MESSAGES.taskMissing);
  const row = await (await platform.repo(flowTask).select(ctx, { wholeTenant: true }))
    .select(['id', 'tenantId', 'instanceId', 'definitionId', 'elementId', 'name', 'executionId', 'assignee', 'owner', 'delegation', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw badRequest(FLOW_MESSAGES.taskMissing);
  return row as TaskRow;
}

/** Whether the caller may claim the task: a candidate of it. */
export async function isCandidate(platform: Platform, workflow: Workflow, ctx: CallContext, taskId: string): Promise<boolean> {
  const found = await (await platform.repo(flowTask).select(ctx, { wholeTenant: true }))
    .select('id')
    .where('id', '=', taskId)
    .where(candidateOf(ctx, await deptsOf(workflow, ctx)))
    .executeTakeFirst();
  return found !== undefined;
}

/** An open task the caller may act on now: its assignee, or a candidate of an unclaimed one (claimed on the way). */
export async function actionable(platform: Platform, workflow: Workflow, ctx: CallContext, task: TaskRow): Promise<void> {
  if (task.state !== TASK_STATE.open) throw badRequest(FLOW_MESSAGES.alreadyDone);
  const me = ctx.principal.userId;
  if (task.assignee === me) return;
  const candidate = await isCandidate(platform, workflow, ctx, task.id);
  // Someone else holds it: that is news only to those who could have had it.
  if (task.assignee) throw badRequest(candidate || task.owner === me ? FLOW_MESSAGES.claimedByOther : FLOW_MESSAGES.notYours);
  if (!candidate) throw badRequest(FLOW_MESSAGES.notYours);
}

/**
 * Instances the caller may see the history, diagram and business of: all of the tenant's with `flow_follow`, else
 * those it started or where it holds, held or may claim a task.
 */
export async function involvedIn(platform: Platform, workflow: Workflow, ctx: CallContext): Promise<Condition | undefined> {
  if (await platform.rights.allows(ctx.principal, { kind: 'menu', codes: ['flow_follow'] })) return undefined;
  const me = ctx.principal.userId;
  const depts = await deptsOf(workflow, ctx);
  return (eb) => {
    const tasks = eb
      .selectFrom('wf_task')
      .select('wf_task.id')
      .whereRef('wf_task.instanceId', '=', `${flowInstance.table}.id`)
      .where((w) => w.or([w('wf_task.assignee', '=', me), w('wf_task.owner', '=', me), candidateOf(ctx, depts)(w)]));
    const history = eb.selectFrom('wf_history').select('wf_history.id').whereRef('wf_history.instanceId', '=', `${flowInstance.table}.id`).where('wf_history.assignee', '=', me);
    return eb.or([eb(`${flowInstance.table}.startUser`, '=', me), eb.exists(tasks), eb.exists(history)]);
  };
}

/** An instance the caller may see, or the refusal every other instance gets. */
export async function visibleInstance(platform: Platform, workflow: Workflow, ctx: CallContext, instanceId: unknown) {
  const id = typeof instanceId === 'string' || typeof instanceId === 'number' ? String(instanceId).trim() : '';
  const refusal = badRequest('流程实例不存在或无权查看');
  if (!/^\d{1,20}$/.test(id)) throw refusal;
  const condition = await involvedIn(platform, workflow, ctx);
  let qb = (await platform.repo(flowInstance).select(ctx, { wholeTenant: true })).selectAll().where('id', '=', id);
  if (condition) qb = qb.where(condition);
  const row = await qb.executeTakeFirst();
  if (!row) throw refusal;
  return row;
}
