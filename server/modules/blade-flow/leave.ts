import type { FastifyInstance } from 'fastify';
import { flowDefinition, flowInstance, processLeave } from '../../../resources/flow/flow';
import type { LeaveDetail } from '../../../resources/wire/flow';
import { needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import { BpmnProblem } from '../../flow/bpmn';
import { nextId } from '../../ids';
import type { Workflow } from '../../flow/service';
import { bodyOf, contextOf, paramsOf, text } from '../../http/context';
import { badRequest, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime, parseDateTime } from '../../time';
import { PROCESS_READERS } from './follow';
import { visibleInstance } from './tasks';
import { INSTANCE_COLUMNS, presentInstances } from './views';

/** The business table a leave instance names (BladeX's `blade_process_leave:<id>` business key). */
const LEAVE_TABLE = processLeave.table;

const DAY = 86_400_000;

/**
 * The leave request (blade-desk/process/leave, spec §2 "Workflow routes"): its form starts an instance of the chosen
 * definition with the variables the leave process reads — `applyUser`, `applyDept`, `taskUser` (the approver chosen,
 * if any), `days`, `reason` — and its detail shows the request with its process.
 */
export function registerLeave(app: FastifyInstance, platform: Platform, workflow: Workflow): void {
  const leaves = platform.repo(processLeave);

  app.post('/blade-desk/process/leave/start-process', needs('work_start'), async (request) => {
    const ctx = contextOf(request);
    const body = { ...paramsOf(request), ...bodyOf(request) };
    const definitionId = text(body, 'processDefinitionId');
    if (!definitionId) throw badRequest('请选择流程');
    const start = parseDateTime(text(body, 'startTime') ?? '');
    const end = parseDateTime(text(body, 'endTime') ?? '');
    if (!start) throw badRequest('请选择开始时间');
    if (!end) throw badRequest('请选择结束时间');
    if (end.getTime() <= start.getTime()) throw badRequest('结束时间应晚于开始时间');
    if (end.getTime() - start.getTime() > 366 * DAY) throw badRequest('请假不能超过一年');
    const reason = text(body, 'reason');
    if (!reason) throw badRequest('请输入请假理由');
    if (reason.length > 500) throw badRequest('请假理由不能超过500个字符');
    const taskUser = text(body, 'taskUser')?.replace(/^taskUser_/, '') ?? null;
    if (taskUser && !(await workflow.directory.isUser(ctx.principal.tenantId, taskUser))) throw badRequest('审批人不存在或不属于本租户');

    const definition = await (await platform.repo(flowDefinition).select(ctx, { wholeTenant: true }))
      .select(['id', 'tenantId', 'processKey', 'xml', 'suspensionState'])
      .where('id', '=', definitionId)
      .executeTakeFirst();
    if (!definition) throw badRequest('流程定义不存在或无权操作');
    const days = Math.max(1, Math.ceil((end.getTime() - start.getTime()) / DAY));
    const leave = { id: nextId(), processDefinitionId: definition.id, startTime: formatDateTime(start), endTime: formatDateTime(end), reason, taskUser, applyTime: formatDateTime(), days };
    const applicant = (await workflow.directory.nameOf(ctx.principal.tenantId, ctx.principal.userId)) ?? ctx.principal.account;
    const input = {
      starter: ctx.principal.userId,
      title: `${applicant}的请假申请(${days}天)`,
      businessTable: LEAVE_TABLE,
      businessId: leave.id,
      variables: { applyUser: ctx.principal.userId, applyUserName: applicant, applyDept: ctx.principal.deptId, taskUser, days, reason, startTime: leave.startTime, endTime: leave.endTime },
    };
    // The request is written in its instance's start transaction: no request without its process, nor the reverse.
    const instanceId = await workflow
      .start(definition, input, async (trx, id) => void (await leaves.within(trx).insertMany(ctx, [{ ...leave, processInstanceId: id }])))
      .catch((error: unknown) => {
        throw error instanceof BpmnProblem ? badRequest(error.message) : error;
      });
    // Told again once committed: the row was written inside the start's transaction.
    platform.events.emit('changed', LEAVE_TABLE);
    return ok({ id: leave.id, processInstanceId: instanceId }, '提交成功');
  });

  app.get('/blade-desk/process/leave/detail', needs(...PROCESS_READERS), async (request) => {
    const ctx = contextOf(request);
    const businessId = String(text(paramsOf(request), 'businessId') ?? '');
    const leave = await (await leaves.select(ctx, { wholeTenant: true })).selectAll().where('id', '=', businessId).executeTakeFirst();
    if (!leave?.processInstanceId) throw badRequest('请假申请不存在或无权查看');
    const instance = await visibleInstance(platform, workflow, ctx, leave.processInstanceId).catch(() => {
      throw badRequest('请假申请不存在或无权查看');
    });
    const row = await (await platform.repo(flowInstance).select(ctx, { wholeTenant: true }))
      .innerJoin('wf_definition as d', 'd.id', 'wf_instance.definitionId')
      .select([...INSTANCE_COLUMNS])
      .where('wf_instance.id', '=', instance.id)
      .executeTakeFirstOrThrow();
    const [process] = await presentInstances(platform, ctx, workflow, [row as Row]);
    const detail: LeaveDetail = {
      id: String(leave.id),
      processDefinitionId: String(leave.processDefinitionId),
      processInstanceId: String(leave.processInstanceId),
      startTime: String(leave.startTime),
      endTime: String(leave.endTime),
      reason: String(leave.reason),
      taskUser: leave.taskUser ?? null,
      taskUserName: await workflow.directory.nameOf(String(leave.tenantId), leave.taskUser),
      applyTime: String(leave.applyTime),
      days: Number(leave.days),
      createUser: String(leave.createUser),
      createUserName: await workflow.directory.nameOf(String(leave.tenantId), leave.createUser),
      process,
    };
    return ok(detail);
  });
}
