import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BPMN_MAX_BYTES, flowDefinition, flowInstance, flowModel } from '../../../resources/flow/flow';
import { isPlatformAdmin } from '../../auth/principal';
import { needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import { type CallContext, transact } from '../../db/repository';
import { BpmnProblem, compileBpmn } from '../../flow/bpmn';
import type { Workflow } from '../../flow/service';
import { INSTANCE_STATE } from '../../flow/steps';
import { bodyOf, contextOf, idsOf, paramsOf, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, forbidden, ok, pageOf } from '../../http/envelope';
import { pagingOf } from '../../http/conditions';
import { formatDateTime } from '../../time';
import type { Platform } from '../../platform';
import { newestVersion, presentDefinitions } from './views';
import { limited } from '../../http/limits';

/**
 * Models (模型管理) and deployments (部署管理): a model's XML is checked by the engine on every save; deploying it, or
 * uploading a file, makes the next version of its process key (docs/workflow.md "Deployments").
 */

/** The tenants a deployment goes to: the caller's own; the platform administrator may name others. */
function tenantsOf(ctx: CallContext, named: unknown): string[] {
  const ids = String(named ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) return [ctx.principal.tenantId];
  if (ids.some((id) => id !== ctx.principal.tenantId) && !isPlatformAdmin(ctx.principal)) throw forbidden('只有平台管理员可以部署到其他租户');
  if (ids.some((id) => !/^\d{6,12}$/.test(id))) throw badRequest('租户编号不合法');
  return [...new Set(ids)];
}

/** A category `flow_<dictKey>` of the dictionary `flow`, or none. */
function categoryOf(value: unknown): string | null {
  const category = typeof value === 'string' ? value.trim() : '';
  if (!category) return null;
  if (!/^flow_[A-Za-z0-9_-]{1,58}$/.test(category)) throw badRequest('流程分类不合法');
  return category;
}

/** Deploys a document as the next version of its process key in each tenant; returns the definitions made. */
export async function deploy(
  platform: Platform,
  ctx: CallContext,
  input: { xml: string; resourceName: string; category: string | null; modelId?: string | null; tenantIds: readonly string[] },
): Promise<Row[]> {
  if (Buffer.byteLength(input.xml) > BPMN_MAX_BYTES) throw badRequest('流程文件过大');
  const process = await compileBpmn(input.xml).catch((error) => {
    throw error instanceof BpmnProblem ? badRequest(`${input.resourceName}: ${error.message}`) : error;
  });
  const repo = platform.repo(flowDefinition);
  const made: Row[] = [];
  for (const tenantId of input.tenantIds) {
    const newest = await (await repo.select(ctx, { wholeTenant: true, deleted: 'either' }))
      .select((eb) => eb.fn.max('version').as('version'))
      .where('processKey', '=', process.key)
      .where('tenantId', '=', tenantId)
      .executeTakeFirst();
    const version = Number(newest?.version ?? 0) + 1;
    const [row] = await repo.insertMany(ctx, [
      {
        tenantId,
        processKey: process.key,
        name: process.name,
        version,
        category: input.category,
        description: process.description,
        resourceName: input.resourceName.slice(0, 255),
        xml: input.xml,
        suspensionState: 1,
        modelId: input.modelId ?? null,
        deployTime: formatDateTime(),
      },
    ]);
    made.push(row);
  }
  return made;
}

export function registerDefinitions(app: FastifyInstance, platform: Platform, workflow: Workflow): void {
  const models = platform.repo(flowModel);
  const definitions = platform.repo(flowDefinition);

  registerCrud(app, platform, flowModel, {
    /** The XML the designer saves must be a process the engine runs, whose id is the model's key. */
    async beforeSave(_ctx, values, existing) {
      const out: Row = { ...values };
      if (typeof values.xml === 'string' && values.xml.trim()) {
        const process = await compileBpmn(values.xml).catch((error) => {
          throw error instanceof BpmnProblem ? badRequest(error.message) : error;
        });
        const key = values.modelKey ?? existing?.modelKey;
        if (key && process.key !== key) throw badRequest(`流程标识 ${process.key} 与模型标识 ${String(key)} 不一致`);
        out.version = Number(existing?.version ?? 0) + 1;
      } else if (!existing) {
        out.version = 0;
      }
      delete out.deployedVersion;
      return out;
    },
  });

  app.post('/blade-flow/model/deploy', needs('flow_model_deploy'), async (request) => {
    const ctx = contextOf(request);
    const params = { ...paramsOf(request), ...bodyOf(request) };
    const model = await models.byId(ctx, String(text(params, 'modelId') ?? ''));
    if (!model) throw badRequest('模型不存在或无权操作');
    if (!model.xml) throw badRequest('模型还没有流程图,请先设计并保存');
    const made = await deploy(platform, ctx, {
      xml: model.xml,
      resourceName: `${model.modelKey}.bpmn20.xml`,
      category: categoryOf(params.category ?? model.category),
      modelId: model.id,
      tenantIds: tenantsOf(ctx, params.tenantIds),
    });
    await models.updateWhere(ctx, { deployedVersion: Number(made[0].version) }, [(eb) => eb('id', '=', model.id)]);
    return ok(await presentDefinitions(platform, ctx, made));
  });

  app.get('/blade-flow/manager/list', needs('flow_deploy'), async (request) => {
    const ctx = contextOf(request);
    const params = paramsOf(request);
    const { current, size } = pagingOf(params as Record<string, string>);
    let qb = await definitions.select(ctx);
    const key = text(params, 'processKey') ?? text(params, 'key');
    const name = text(params, 'name') ?? text(params, 'processDefinitionName');
    const category = text(params, 'category');
    if (key) qb = qb.where('processKey', 'like', `%${key}%`);
    if (name) qb = qb.where('name', 'like', `%${name}%`);
    if (category) qb = qb.where('category', '=', category);
    if (text(params, 'latest') === 'true') qb = qb.where(newestVersion);
    const total = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await qb.selectAll().orderBy('processKey').orderBy('version', 'desc').limit(size).offset((current - 1) * size).execute();
    return ok(pageOf(await presentDefinitions(platform, ctx, rows as Row[]), Number(total?.n ?? 0), current, size));
  });

  app.post('/blade-flow/manager/change-state', needs('flow_deploy_edit'), async (request) => {
    const ctx = contextOf(request);
    const params = { ...paramsOf(request), ...bodyOf(request) };
    const state = text(params, 'state');
    if (state !== 'active' && state !== 'suspend') throw badRequest('状态只能是 active 或 suspend');
    const id = String(text(params, 'processId') ?? text(params, 'processDefinitionId') ?? '');
    const changed = await definitions.updateWhere(ctx, { suspensionState: state === 'active' ? 1 : 2 }, [(eb) => eb('id', '=', id)]);
    if (changed === 0) throw badRequest('流程定义不存在或无权操作');
    return ok(true, state === 'active' ? '激活成功' : '挂起成功');
  });

  app.post('/blade-flow/manager/deploy-upload', limited('upload', needs('flow_deploy_upload')), async (request: FastifyRequest) => {
    const ctx = contextOf(request);
    if (!request.isMultipart()) throw badRequest('请选择要上传的流程文件');
    const fields: Record<string, string> = {};
    const files: Array<{ name: string; xml: string }> = [];
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const name = part.filename || 'process.bpmn';
        if (!/\.(bpmn|bpmn20\.xml|xml)$/i.test(name)) throw badRequest(`${name}: 只能上传 .bpmn、.bpmn20.xml 或 .xml 文件`);
        const buffer = await part.toBuffer();
        if (buffer.length > BPMN_MAX_BYTES) throw badRequest(`${name}: 流程文件过大`);
        files.push({ name, xml: buffer.toString('utf8') });
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
    if (files.length === 0) throw badRequest('请选择要上传的流程文件');
    const category = categoryOf(fields.category);
    const tenantIds = tenantsOf(ctx, fields.tenantIds ?? fields.tenantId);
    // Every file is checked before any is deployed: a batch with a bad file deploys nothing.
    for (const file of files) {
      await compileBpmn(file.xml).catch((error) => {
        throw error instanceof BpmnProblem ? badRequest(`${file.name}: ${error.message}`) : error;
      });
    }
    const made: Row[] = [];
    for (const file of files) made.push(...(await deploy(platform, ctx, { xml: file.xml, resourceName: file.name, category, tenantIds })));
    return ok(await presentDefinitions(platform, ctx, made), '部署成功');
  });

  app.post('/blade-flow/manager/delete-deployment', needs('flow_deploy_delete'), async (request) => {
    const ctx = contextOf(request);
    const params = { ...paramsOf(request), ...bodyOf(request) };
    const ids = idsOf(params, params.deploymentIds !== undefined ? 'deploymentIds' : 'ids');
    const cascade = text(params, 'cascade') === 'true';
    const found = await (await definitions.select(ctx)).select(['id', 'name', 'version']).where('id', 'in', ids).execute();
    if (found.length === 0) throw badRequest('流程定义不存在或无权操作');
    const running = await transact(platform, async (trx) => {
      // Deleted first, then counted, in one transaction: a start holding a definition (server/flow/steps.ts) commits
      // before the deletion's write and is counted; one after it finds the definition deleted. A refusal undoes it.
      await definitions.within(trx).removeWhere(ctx, [(eb) => eb('id', 'in', found.map((d) => d.id))]);
      const instances = await (await platform.repo(flowInstance).within(trx).select(ctx, { wholeTenant: true }))
        .select('id')
        .where('definitionId', 'in', found.map((d) => d.id))
        .where('state', 'in', [INSTANCE_STATE.running, INSTANCE_STATE.suspended])
        .execute();
      if (instances.length && !cascade) throw badRequest(`该部署有${instances.length}个运行中的流程实例,不能删除`);
      return instances.map((i) => i.id);
    });
    for (const instanceId of running) {
      // One that ended meanwhile needs no ending.
      await workflow.deleteInstance(instanceId, '删除部署', ctx.principal.userId).catch((error: unknown) => {
        if (!(error instanceof BpmnProblem)) throw error;
      });
    }
    return ok(true, '删除成功');
  });
}
