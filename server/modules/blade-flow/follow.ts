import type { FastifyInstance } from 'fastify';
import { flowDefinition, flowHistory, flowInstance, flowTask } from '../../../resources/flow/flow';
import type { FlowDiagram, FlowInstanceDetail } from '../../../resources/wire/flow';
import { needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import { BpmnProblem } from '../../flow/bpmn';
import type { Workflow } from '../../flow/service';
import { INSTANCE_STATE, TASK_STATE } from '../../flow/steps';
import { pagingOf } from '../../http/conditions';
import { bodyOf, contextOf, paramsOf, text } from '../../http/context';
import { badRequest, ok, pageOf } from '../../http/envelope';
import type { Platform } from '../../platform';
import { visibleInstance } from './tasks';
import { INSTANCE_COLUMNS, presentHistory, presentInstances } from './views';

/** Everyone who takes part in a process may read its history and diagram; who may is decided per instance. */
export const PROCESS_READERS = ['work_start', 'work_claim', 'work_todo', 'work_send', 'work_done', 'flow_follow'] as const;

/**
 * Follow-up (流程跟踪) and an instance's history and diagram (docs/workflow.md "Follow-up").
 */
export function registerFollow(app: FastifyInstance, platform: Platform, workflow: Workflow): void {
  app.get('/blade-flow/follow/list', needs('flow_follow'), async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const { current, size } = pagingOf(params as Record<string, string>);
    let qb = (await platform.repo(flowInstance).select(ctx)).innerJoin('wf_definition as d', 'd.id', 'wf_instance.definitionId');
    const id = text(params, 'processInstanceId');
    const key = text(params, 'processDefinitionKey');
    const state = text(params, 'state');
    const title = text(params, 'processTitle') ?? text(params, 'title');
    if (id) qb = qb.where('wf_instance.id', '=', id);
    if (key) qb = qb.where('d.processKey', 'like', `%${key}%`);
    if (state && /^[1-4]$/.test(state)) qb = qb.where('wf_instance.state', '=', Number(state));
    if (title) qb = qb.where('wf_instance.title', 'like', `%${title}%`);
    const total = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await qb.select([...INSTANCE_COLUMNS]).orderBy('wf_instance.startTime', 'desc').orderBy('wf_instance.id', 'desc').limit(size).offset((current - 1) * size).execute();
    return ok(pageOf(await presentInstances(platform, ctx, workflow, rows as Row[]), Number(total?.n ?? 0), current, size));
  });

  app.post('/blade-flow/follow/delete-process-instance', needs('flow_follow_delete'), async (request) => {
    const ctx = contextOf(request);
    const params = { ...paramsOf(request), ...bodyOf(request) };
    const reason = text(params, 'deleteReason') ?? text(params, 'reason');
    if (!reason) throw badRequest('请输入删除原因');
    const instance = await (await platform.repo(flowInstance).select(ctx)).select(['id', 'state']).where('id', '=', String(text(params, 'processInstanceId') ?? '')).executeTakeFirst();
    if (!instance) throw badRequest('流程实例不存在或无权查看');
    if (instance.state !== INSTANCE_STATE.running) throw badRequest('流程已结束');
    await workflow.deleteInstance(instance.id, reason.slice(0, 500), ctx.principal.userId).catch((error) => {
      throw error instanceof BpmnProblem ? badRequest(error.message) : error;
    });
    return ok(true, '删除成功');
  });

  /** One instance with its variables, for whoever may see it (the process pages' heading and a formless process's panel). */
  app.get('/blade-flow/process/instance', needs(...PROCESS_READERS), async (request) => {
    const ctx = contextOf(request);
    const instance = await visibleInstance(platform, workflow, ctx, text(paramsOf(request), 'processInstanceId'));
    const row = await (await platform.repo(flowInstance).select(ctx, { wholeTenant: true }))
      .innerJoin('wf_definition as d', 'd.id', 'wf_instance.definitionId')
      .select([...INSTANCE_COLUMNS])
      .where('wf_instance.id', '=', instance.id)
      .executeTakeFirstOrThrow();
    const [presented] = await presentInstances(platform, ctx, workflow, [row as Row]);
    let variables: Record<string, unknown> = {};
    try {
      variables = JSON.parse(String(instance.variables ?? '{}')) as Record<string, unknown>;
    } catch {
      // a row written before its variables were: none to show
    }
    return ok({ ...presented, variables } satisfies FlowInstanceDetail);
  });

  app.get('/blade-flow/process/history-flow-list', needs(...PROCESS_READERS), async (request) => {
    const ctx = contextOf(request);
    const instance = await visibleInstance(platform, workflow, ctx, text(paramsOf(request), 'processInstanceId'));
    const rows = await (await platform.repo(flowHistory).select(ctx, { wholeTenant: true }))
      .selectAll()
      .where('instanceId', '=', instance.id)
      .orderBy('startTime')
      .orderBy('id')
      .execute();
    return ok(await presentHistory(workflow, instance.tenantId, rows as Row[]));
  });

  /** The definition's XML with what ran: finished activities and flows taken, and what waits now. */
  app.get('/blade-flow/process/diagram', needs(...PROCESS_READERS, 'flow_deploy'), async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const instanceId = text(params, 'processInstanceId');
    if (!instanceId) {
      const definition = await (await platform.repo(flowDefinition).select(ctx, { wholeTenant: true, deleted: 'either' }))
        .select(['xml'])
        .where('id', '=', String(text(params, 'processDefinitionId') ?? ''))
        .executeTakeFirst();
      if (!definition) throw badRequest('流程定义不存在或无权操作');
      return ok({ xml: definition.xml, finished: [], active: [] } satisfies FlowDiagram);
    }
    const instance = await visibleInstance(platform, workflow, ctx, instanceId);
    const definition = await (await platform.repo(flowDefinition).select(ctx, { wholeTenant: true, deleted: 'either' }))
      .select(['id', 'xml'])
      .where('id', '=', instance.definitionId)
      .executeTakeFirst();
    if (!definition) throw badRequest('流程定义不存在或无权操作');
    const steps = await (await platform.repo(flowHistory).select(ctx, { wholeTenant: true })).select(['elementId', 'endTime']).where('instanceId', '=', instance.id).execute();
    const open = await (await platform.repo(flowTask).select(ctx, { wholeTenant: true })).select('elementId').where('instanceId', '=', instance.id).where('wf_task.state', '=', TASK_STATE.open).execute();
    const timers = await platform.db.selectFrom('wf_timer').select('elementId').where('instanceId', '=', instance.id).execute();
    const active = new Set([...open.map((t) => t.elementId), ...timers.map((t) => t.elementId)]);
    const finished = new Set(steps.filter((s) => s.endTime && !active.has(s.elementId)).map((s) => s.elementId));
    // Flows taken: those between two elements that ran (the history keeps activities; the document has the flows).
    const process = await workflow.process(definition).catch(() => undefined);
    const ran = new Set([...finished, ...active]);
    for (const [id, element] of process?.elements ?? []) {
      if (element.type !== 'bpmn:SequenceFlow') continue;
      const flow = process?.flows.get(id);
      if (flow && finished.has(flow.source) && ran.has(flow.target)) finished.add(id);
    }
    return ok({ xml: definition.xml, finished: [...finished], active: [...active] } satisfies FlowDiagram);
  });
}
