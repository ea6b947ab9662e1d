import type { FastifyInstance, FastifyRequest } from 'fastify';
import { flowDefinition, flowInstance, flowTask } from '../../../resources/flow/flow';
import { user } from '../../../resources/system/user';
import { type CompleteTaskBody, FLOW_MESSAGES, type FlowUser } from '../../../resources/wire/flow';
import { splitIds } from '../blade-user/tenancy';
import { needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { BpmnProblem } from '../../flow/bpmn';
import { checkVariables, type Completion, type Workflow } from '../../flow/service';
import { TASK_STATE } from '../../flow/steps';
import type { Condition } from '../../http/conditions';
import { pagingOf } from '../../http/conditions';
import { bodyOf, contextOf, paramsOf, text } from '../../http/context';
import { badRequest, ok, pageOf } from '../../http/envelope';
import type { Platform } from '../../platform';
import { announceTask } from './notices';
import { actionable, candidateOf, deptsOf, isCandidate, type TaskRow, taskOf } from './tasks';
import { INSTANCE_COLUMNS, newestVersion, presentDefinitions, presentInstances, presentTasks, TASK_COLUMNS } from './views';

/**
 * My work (spec §4 "Workflow task lists"): what the caller may start, claim, has to do, has sent and has done, and the
 * actions on a task — claim, give back, complete (approve or reject), transfer, delegate (docs/workflow.md).
 */

type Params = Record<string, unknown>;

/** The menus of my work: whoever holds one takes part in processes. */
const WORK_MENUS = ['work_start', 'work_claim', 'work_todo', 'work_send', 'work_done'];

/** BladeX's complete-task body: `pass` (or `flag: ok`) approves, a comment, variables. */
function completionOf(body: Params): { pass: boolean; comment: string | null; variables: Record<string, unknown> } {
  // Clients send pass as a boolean, a string or a number: read it as sent, not as CompleteTaskBody types it.
  const input = body as Omit<Partial<CompleteTaskBody>, 'pass'> & Params;
  const rawPass = input.pass ?? (input.flag === undefined ? undefined : input.flag === 'ok');
  const pass = rawPass === undefined || rawPass === null || rawPass === '' ? true : rawPass === true || rawPass === 'true' || rawPass === 1 || rawPass === '1';
  const comment = typeof input.comment === 'string' && input.comment.trim() ? input.comment.trim().slice(0, 2000) : pass ? '同意' : '驳回';
  let variables: Record<string, unknown>;
  try {
    variables = checkVariables(input.variables);
  } catch (error) {
    throw error instanceof BpmnProblem ? badRequest(error.message) : error;
  }
  return { pass, comment, variables: { ...variables, pass } };
}

/** The workflow's refusal (the task moved on meanwhile) as the caller's answer. */
const asRefusal = (error: unknown): never => {
  throw error instanceof BpmnProblem ? badRequest(error.message) : error;
};

/**
 * The answer to a completion: a repeat is answered as the submit that stands; one that said the other thing is refused
 * with what stands (never told it was done).
 */
function answerOf(result: Completion, pass: boolean) {
  const stands = result.pass ?? pass;
  if (stands !== pass) throw badRequest(stands ? FLOW_MESSAGES.alreadyApproved : FLOW_MESSAGES.alreadyRejected);
  return ok(true, stands ? '办理成功' : '驳回成功');
}

/** Filters every task list takes: the process's name, the task's name, the category. */
function taskFilters(params: Params): Condition[] {
  const process = text(params, 'processDefinitionName');
  const task = text(params, 'taskName');
  const category = text(params, 'category');
  const conditions: Condition[] = [];
  if (process) conditions.push((eb) => eb('d.name', 'like', `%${process}%`));
  if (task) conditions.push((eb) => eb('wf_task.name', 'like', `%${task}%`));
  if (category) conditions.push((eb) => eb('d.category', '=', category));
  return conditions;
}

export function registerWork(app: FastifyInstance, platform: Platform, workflow: Workflow): void {
  const tasks = platform.repo(flowTask);
  /** What an instance is about, for a notice of one of its tasks. */
  const titleOf = async (ctx: CallContext, instanceId: string) =>
    (await (await platform.repo(flowInstance).select(ctx, { wholeTenant: true })).select('title').where('id', '=', instanceId).executeTakeFirst())?.title ?? '';

  /** A page of tasks of the caller's tenant narrowed by `narrow`, newest first (ended ones by their end). */
  const taskPage = async (request: FastifyRequest, narrow: (ctx: CallContext) => Promise<Parameters<typeof candidateOf>[1] | null>, finished = false) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const { current, size } = pagingOf(params as Record<string, string>);
    const depts = await narrow(ctx);
    let qb = (await tasks.select(ctx, { wholeTenant: true }))
      .innerJoin('wf_instance as i', 'i.id', 'wf_task.instanceId')
      .innerJoin('wf_definition as d', 'd.id', 'wf_task.definitionId');
    qb = finished
      ? qb.where('wf_task.state', '=', TASK_STATE.completed).where('wf_task.assignee', '=', ctx.principal.userId)
      : depts
        ? qb.where('wf_task.state', '=', TASK_STATE.open).where('wf_task.assignee', 'is', null).where(candidateOf(ctx, depts))
        : qb.where('wf_task.state', '=', TASK_STATE.open).where('wf_task.assignee', '=', ctx.principal.userId);
    for (const condition of taskFilters(params)) qb = qb.where(condition);
    const total = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await qb
      .select([...TASK_COLUMNS])
      .orderBy(finished ? 'wf_task.endTime' : 'wf_task.createTime', 'desc')
      .orderBy('wf_task.id', 'desc')
      .limit(size)
      .offset((current - 1) * size)
      .execute();
    return ok(pageOf(await presentTasks(platform, workflow, rows as Row[]), Number(total?.n ?? 0), current, size));
  };

  app.get('/blade-flow/work/todo-list', needs('work_todo'), (request) => taskPage(request, async () => null));
  app.get('/blade-flow/work/claim-list', needs('work_claim'), (request) => taskPage(request, (ctx) => deptsOf(workflow, ctx)));
  app.get('/blade-flow/work/done-list', needs('work_done'), (request) => taskPage(request, async () => null, true));

  app.get('/blade-flow/work/start-list', needs('work_start'), async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const { current, size } = pagingOf(params as Record<string, string>);
    let qb = (await platform.repo(flowDefinition).select(ctx, { wholeTenant: true }))
      .where('suspensionState', '=', 1)
      .where(newestVersion);
    const name = text(params, 'name') ?? text(params, 'processDefinitionName');
    const category = text(params, 'category');
    if (name) qb = qb.where('name', 'like', `%${name}%`);
    if (category) qb = qb.where('category', '=', category);
    // Processes other modules start themselves (an alarm's disposal) are not offered here.
    qb = qb.where((eb) => eb.or([eb('category', 'is', null), eb('category', '<>', 'flow_alarm')]));
    const total = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await qb.selectAll().orderBy('name').limit(size).offset((current - 1) * size).execute();
    return ok(pageOf(await presentDefinitions(platform, ctx, rows as Row[]), Number(total?.n ?? 0), current, size));
  });

  app.get('/blade-flow/work/send-list', needs('work_send'), async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const { current, size } = pagingOf(params as Record<string, string>);
    let qb = (await platform.repo(flowInstance).select(ctx, { wholeTenant: true }))
      .innerJoin('wf_definition as d', 'd.id', 'wf_instance.definitionId')
      .where('wf_instance.startUser', '=', ctx.principal.userId);
    const name = text(params, 'processDefinitionName');
    if (name) qb = qb.where('d.name', 'like', `%${name}%`);
    const total = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await qb.select([...INSTANCE_COLUMNS]).orderBy('wf_instance.startTime', 'desc').orderBy('wf_instance.id', 'desc').limit(size).offset((current - 1) * size).execute();
    return ok(pageOf(await presentInstances(platform, ctx, workflow, rows as Row[]), Number(total?.n ?? 0), current, size));
  });

  /**
   * Starts an instance of a process that has no business form of its own (our addition; the leave request has its
   * own call): the variables are the caller's, plus who applies (`applyUser`, `applyDept`).
   */
  app.post('/blade-flow/process/start-process', needs('work_start'), async (request) => {
    const ctx = contextOf(request);
    const body = { ...paramsOf(request), ...bodyOf(request) };
    const definition = await (await platform.repo(flowDefinition).select(ctx, { wholeTenant: true }))
      .select(['id', 'tenantId', 'processKey', 'name', 'xml', 'suspensionState'])
      .where('id', '=', String(text(body, 'processDefinitionId') ?? ''))
      .executeTakeFirst();
    if (!definition) throw badRequest('流程定义不存在或无权操作');
    const { principal } = ctx;
    const applicant = (await workflow.directory.nameOf(principal.tenantId, principal.userId)) ?? principal.account;
    const title = (text(body, 'title') ?? `${definition.name} - ${applicant}`).slice(0, 255);
    try {
      const variables = { ...checkVariables(body.variables), applyUser: principal.userId, applyDept: principal.deptId };
      const processInstanceId = await workflow.start(definition, { starter: principal.userId, title, variables });
      return ok({ processInstanceId }, '提交成功');
    } catch (error) {
      throw error instanceof BpmnProblem ? badRequest(error.message) : error;
    }
  });

  /**
   * Colleagues to hand a task to or to name as the approver: the tenant's enabled users by name or account, the first
   * 20 — ids, accounts, names and departments only (the user list itself is the user manager's).
   */
  app.get('/blade-flow/work/users', needs(...WORK_MENUS), async (request) => {
    const ctx = contextOf(request);
    const query = text(paramsOf(request), 'name')?.slice(0, 64);
    let qb = (await platform.repo(user).select(ctx, { wholeTenant: true })).select(['id', 'account', 'realName', 'deptId']).where('status', '=', 1);
    if (query) qb = qb.where((eb) => eb.or([eb('realName', 'like', `%${query}%`), eb('account', 'like', `%${query}%`), eb('name', 'like', `%${query}%`)]));
    const rows = await qb.orderBy('account').limit(20).execute();
    const org = await workflow.directory.organisation(ctx.principal.tenantId);
    const users: FlowUser[] = rows.map((r) => ({
      id: String(r.id),
      account: String(r.account),
      realName: r.realName ?? null,
      deptName: splitIds(r.deptId).map((id) => org.depts.get(id)?.name).filter(Boolean).join(',') || null,
    }));
    return ok(users);
  });

  /** One task the caller holds, held, may claim, or delegated (the handle page). */
  app.get('/blade-flow/work/task-detail', needs('work_todo', 'work_claim', 'work_done'), async (request) => {
    const ctx = contextOf(request);
    const task = await taskOf(platform, ctx, text(paramsOf(request), 'taskId'));
    const me = ctx.principal.userId;
    const mine = task.assignee === me || task.owner === me || (!task.assignee && (await isCandidate(platform, workflow, ctx, task.id)));
    if (!mine) throw badRequest(FLOW_MESSAGES.taskMissing);
    const row = await (await tasks.select(ctx, { wholeTenant: true }))
      .innerJoin('wf_instance as i', 'i.id', 'wf_task.instanceId')
      .innerJoin('wf_definition as d', 'd.id', 'wf_task.definitionId')
      .select([...TASK_COLUMNS])
      .where('wf_task.id', '=', task.id)
      .executeTakeFirstOrThrow();
    return ok((await presentTasks(platform, workflow, [row as Row]))[0]);
  });

  app.post('/blade-flow/work/claim-task', needs('work_claim'), async (request) => {
    const ctx = contextOf(request);
    const task = await taskOf(platform, ctx, text({ ...paramsOf(request), ...bodyOf(request) }, 'taskId'));
    if (task.state !== TASK_STATE.open) throw badRequest(FLOW_MESSAGES.alreadyDone);
    if (task.assignee === ctx.principal.userId) return ok(true, '签收成功');
    if (task.assignee) throw badRequest(FLOW_MESSAGES.claimedByOther);
    if (!(await isCandidate(platform, workflow, ctx, task.id))) throw badRequest(FLOW_MESSAGES.notYours);
    const claimed = await workflow.assignTask(task, null, { assignee: ctx.principal.userId }).catch(asRefusal);
    if (!claimed) {
      const now = await taskOf(platform, ctx, task.id);
      if (now.assignee !== ctx.principal.userId) throw badRequest(FLOW_MESSAGES.claimedByOther);
    }
    return ok(true, '签收成功');
  });

  app.post('/blade-flow/work/unclaim-task', needs('work_todo'), async (request) => {
    const ctx = contextOf(request);
    const task = await taskOf(platform, ctx, text({ ...paramsOf(request), ...bodyOf(request) }, 'taskId'));
    if (task.assignee !== ctx.principal.userId || task.owner) throw badRequest(FLOW_MESSAGES.notYours);
    const candidates = await platform.db.selectFrom('wf_task_candidate').select('id').where('taskId', '=', task.id).limit(1).execute();
    if (candidates.length === 0) throw badRequest('该任务没有候选人,不能退回');
    if (!(await workflow.assignTask(task, ctx.principal.userId, { assignee: null }).catch(asRefusal))) throw badRequest(FLOW_MESSAGES.notYours);
    return ok(true, '退回成功');
  });

  app.post('/blade-flow/work/complete-task', needs('work_todo'), async (request) => {
    const ctx = contextOf(request);
    const body = { ...paramsOf(request), ...bodyOf(request) };
    const task = await taskOf(platform, ctx, body.taskId);
    if (body.processInstanceId !== undefined && body.processInstanceId !== null && body.processInstanceId !== '' && String(body.processInstanceId) !== task.instanceId) {
      throw badRequest(FLOW_MESSAGES.taskMissing);
    }
    const said = completionOf(body);
    const me = ctx.principal.userId;
    // A task the caller no longer holds may be one it completed or resolved already: that is answered, not refused.
    const mayAct = task.state === TASK_STATE.open && (task.assignee === null || task.assignee === me);
    let result = mayAct ? undefined : await workflow.submitted(task.id, me);
    if (!result) {
      await actionable(platform, workflow, ctx, task);
      result = await workflow.completeTask(task, { assignee: me, pass: said.pass, comment: said.comment, variables: said.variables }).catch(asRefusal);
    }
    if (result.outcome === 'resolved') await announceTask(platform, task, await titleOf(ctx, task.instanceId), task.owner ? [task.owner] : [], '委派任务已办理');
    return answerOf(result, said.pass);
  });

  /** Transfer (the task is the other's for good) and delegation (it comes back once the delegate resolves it). */
  const handOver = (delegate: boolean) => async (request: FastifyRequest) => {
    const ctx = contextOf(request);
    const body = { ...paramsOf(request), ...bodyOf(request) };
    const task: TaskRow = await taskOf(platform, ctx, body.taskId);
    await actionable(platform, workflow, ctx, task);
    const me = ctx.principal.userId;
    if (delegate && task.delegation === 'pending') throw badRequest('委派中的任务不能再委派');
    const to = String(text(body, 'userId') ?? text(body, 'assignee') ?? '');
    if (!to || to === me) throw badRequest('请选择其他办理人');
    if (!(await workflow.directory.isUser(ctx.principal.tenantId, to))) throw badRequest('办理人不存在或不属于本租户');
    const comment = (text(body, 'comment') ?? null)?.slice(0, 2000) ?? null;
    const change = delegate ? { assignee: to, owner: task.owner ?? me, delegation: 'pending' } : { assignee: to, owner: task.delegation === 'pending' ? task.owner : null };
    const moved = await workflow.assignTask(task, task.assignee, change, { assignee: me, comment, reason: delegate ? 'delegate' : 'transfer' }).catch(asRefusal);
    if (!moved) throw badRequest(FLOW_MESSAGES.claimedByOther);
    await announceTask(platform, task, await titleOf(ctx, task.instanceId), [to], delegate ? '收到委派任务' : '收到转办任务');
    return ok(true, delegate ? '委派成功' : '转办成功');
  };
  app.post('/blade-flow/work/transfer-task', needs('work_todo'), handOver(false));
  app.post('/blade-flow/work/delegate-task', needs('work_todo'), handOver(true));
}
