import { expect, it } from 'vitest';
import type { FlowDefinition, FlowInstance } from '../../../resources/wire/flow';
import { expectOk, expectRefused, expectRefusedExactly, type PageData, refused, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { claim, complete, definitionOf, F, instanceOf, sequence, taskIn, upload } from './support';

onEveryStore('workflow models and deployments', { signIn: ['admin', 'demo', 'zhangsan'] }, (ctx) => {
  it('refuses a model whose XML the engine cannot run, saying where', async () => {
    const save = (xml: string, modelKey = 'review') => ctx.demo.post<Row>(`${F}/model/submit`, { modelKey, name: '复核', xml });
    const good = sequence('review', [{ id: 'check', candidateGroups: 'role:engineer' }]);
    expectRefused(await save(good.replace('</process>', '<scriptTask id="script1" />\n</process>')), '元素 script1, 不支持的元素类型 ScriptTask');
    expectRefused(await save(good.replace('<endEvent id="end" />', '<endEvent id="end">')), '行, XML 无法解析');
    // Lines are the document's as its author counts them, blank lines before it included.
    const garbled = `\n\n${good.replace('<userTask id="check"', '<userTask id="check" foo=bar')}`;
    expect(garbled.split('\n')[6]).toContain('foo=bar');
    expectRefusedExactly(await save(garbled), '第7行, unparsable content <userTask> detected');
    expectRefused(await save(`\n\n${good.replace('targetRef="end" />', 'targetRef="nowhere" />')}`), '第10行, 元素 f1');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a model's expression, not a template
    const badCondition = good.replace('<sequenceFlow id="f1" sourceRef="check" targetRef="end" />', '<sequenceFlow id="f1" sourceRef="check" targetRef="end"><conditionExpression>${pass &amp;&amp;}</conditionExpression></sequenceFlow>');
    const refusal = await save(badCondition);
    expectRefused(refusal, '元素 f1');
    expect(refusal.body.msg).toMatch(/^第\d+行/);
    expectRefused(await save(good.replace('targetRef="end" />', 'targetRef="nowhere" />')), 'nowhere');
    expectRefused(await save(good, 'other_key'), '流程标识 review 与模型标识 other_key 不一致');
    // A loop through gateways only would run for ever within one step.
    const spin = good.replace('<endEvent id="end" />', '<endEvent id="end" />\n    <exclusiveGateway id="g1" />\n    <exclusiveGateway id="g2" />').replace('<sequenceFlow id="f0" sourceRef="start" targetRef="check" />', '<sequenceFlow id="f0" sourceRef="start" targetRef="g1" /><sequenceFlow id="fa" sourceRef="g1" targetRef="g2" /><sequenceFlow id="fb" sourceRef="g2" targetRef="g1" /><sequenceFlow id="fc" sourceRef="g2" targetRef="check" />');
    expectRefused(await save(spin), '不经过用户任务或定时器的循环');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a model's expression, not a template
    expectRefused(await save(good.replace('camunda:candidateGroups="role:engineer"', 'camunda:assignee="${applyUser +}"')), '元素 check');
    // Nothing half-written: no model was kept.
    expect(expectOk(await ctx.demo.get<PageData>(`${F}/model/list`, { modelKey: 'review' })).total).toBe(0);
  });

  it('deploys a model as the next version of its key; running instances keep theirs', async () => {
    const v1 = sequence('review', [{ id: 'check', candidateGroups: 'role:engineer' }], '复核 v1');
    const model = expectOk(await ctx.demo.post<Row>(`${F}/model/submit`, { modelKey: 'review', name: '复核', category: 'flow_leave', xml: v1 }));
    expect(model.version).toBe(1);
    const [first] = expectOk(await ctx.demo.post<FlowDefinition[]>(`${F}/model/deploy`, { modelId: model.id }));
    expect(first).toMatchObject({ key: 'review', version: 1, category: 'flow_leave', latest: true, suspensionState: 1 });

    // An instance of version 1, waiting at `check`.
    const started = await ctx.server.app.workflow.service.start(
      { id: first.id, tenantId: '100001', processKey: 'review', xml: v1, suspensionState: 1 },
      { starter: null, variables: {}, title: '复核一号' },
    );
    const v2 = sequence('review', [{ id: 'check', candidateGroups: 'role:engineer' }, { id: 'second', candidateGroups: 'role:engineer' }], '复核 v2');
    expectOk(await ctx.demo.post(`${F}/model/submit`, { id: model.id, xml: v2 }));
    const [second] = expectOk(await ctx.demo.post<FlowDefinition[]>(`${F}/model/deploy`, { modelId: model.id }));
    expect(second.version).toBe(2);
    expect((await definitionOf(ctx.demo, 'review')).id).toBe(second.id);
    const all = expectOk(await ctx.demo.get<PageData<FlowDefinition>>(`${F}/manager/list`, { processKey: 'review' })).records;
    expect(all.map((d) => [d.version, d.latest, d.runningCount])).toEqual([
      [2, true, 0],
      [1, false, 1],
    ]);

    // The version 1 instance ends after its one task: the second task of version 2 is not its.
    const task = await taskIn(ctx.zhangsan, 'claim-list', started);
    expect(task?.processDefinitionVersion).toBe(1);
    expectOk(await claim(ctx.zhangsan, String(task?.taskId)));
    expectOk(await complete(ctx.zhangsan, String(task?.taskId)));
    expect((await instanceOf(ctx.demo, started)).state).toBe(3);
  });

  it('removes a model; what it deployed stays deployed', async () => {
    const xml = sequence('retired', [{ id: 'look', candidateGroups: 'role:engineer' }]);
    const model = expectOk(await ctx.demo.post<Row>(`${F}/model/submit`, { modelKey: 'retired', name: '停用', xml }));
    const [deployed] = expectOk(await ctx.demo.post<FlowDefinition[]>(`${F}/model/deploy`, { modelId: model.id }));
    const remove = (api: typeof ctx.demo) => api.request('POST', `${F}/model/remove`, { query: { ids: model.id } });
    refused((await remove(ctx.zhangsan)) as never, 403); // an engineer designs no models
    expect(expectOk(await ctx.demo.get<PageData>(`${F}/model/list`, { modelKey: 'retired' })).total).toBe(1);
    expectOk((await remove(ctx.demo)) as never);
    expect(expectOk(await ctx.demo.get<PageData>(`${F}/model/list`, { modelKey: 'retired' })).total).toBe(0);
    expectRefused((await ctx.demo.post(`${F}/model/deploy`, { modelId: model.id })) as never, '模型不存在或无权操作');
    // Its definition is the deployment's: still listed, still started.
    expect(await definitionOf(ctx.demo, 'retired')).toMatchObject({ id: deployed.id, version: 1 });
    expectOk(await ctx.zhangsan.post(`${F}/process/start-process`, { processDefinitionId: deployed.id }));
  });

  it('suspends a definition: no new instance, until it is activated', async () => {
    const leave = await definitionOf(ctx.demo, 'leave');
    expectOk(await ctx.demo.post(`${F}/manager/change-state`, { processId: leave.id, state: 'suspend' }));
    const form = { processDefinitionId: leave.id, startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 09:00:00', reason: '探亲' };
    expectRefused(await ctx.zhangsan.post('/api/blade-desk/process/leave/start-process', form), '流程已挂起');
    const starts = expectOk(await ctx.zhangsan.get<PageData<FlowDefinition>>(`${F}/work/start-list`)).records;
    expect(starts.map((d) => d.key)).not.toContain('leave');
    // The refused request left no leave row behind.
    expect(await ctx.server.app.platform.db.selectFrom('blade_process_leave').select('id').where('processInstanceId', 'is', null).execute()).toEqual([]);
    expectRefused(await ctx.demo.post(`${F}/manager/change-state`, { processId: leave.id, state: 'sleep' }), 'active 或 suspend');
    expectOk(await ctx.demo.post(`${F}/manager/change-state`, { processId: leave.id, state: 'active' }));
    expectOk(await ctx.zhangsan.post('/api/blade-desk/process/leave/start-process', form));
  });

  it('uploads BPMN files as new versions, checking every file before deploying any', async () => {
    const xml = sequence('inspection', [{ id: 'walk', candidateGroups: 'role:engineer' }], '巡检');
    const made = expectOk(await upload(ctx.demo, [{ name: 'inspection.bpmn20.xml', xml }], { category: 'flow_leave' }));
    expect(made).toMatchObject([{ key: 'inspection', version: 1, resourceName: 'inspection.bpmn20.xml' }]);
    const broken = await upload(ctx.demo, [
      { name: 'ok.bpmn', xml },
      { name: 'broken.bpmn', xml: xml.replace('<userTask', '<serviceTask').replace('/>', '/>') },
    ]);
    expectRefused(broken, 'broken.bpmn: ');
    expectRefused(await upload(ctx.demo, [{ name: 'notes.txt', xml }]), '只能上传');
    expect((await definitionOf(ctx.demo, 'inspection')).version).toBe(1);
    // Another tenant only by the platform administrator.
    refused(await upload(ctx.demo, [{ name: 'x.bpmn', xml }], { tenantIds: '000000' }), 403);
    const forDemo = expectOk(await upload(ctx.admin, [{ name: 'x.bpmn', xml }], { tenantIds: '100001' }));
    expect(forDemo).toMatchObject([{ tenantId: '100001', key: 'inspection', version: 2 }]);
  });

  it('refuses to delete a deployment with running instances unless asked to end them', async () => {
    const xml = sequence('cleanup', [{ id: 'only', candidateGroups: 'role:engineer' }]);
    const [definition] = expectOk(await upload(ctx.demo, [{ name: 'cleanup.bpmn', xml }]));
    const instanceId = await ctx.server.app.workflow.service.start(
      { id: definition.id, tenantId: '100001', processKey: 'cleanup', xml, suspensionState: 1 },
      { starter: null, variables: {}, title: '清理' },
    );
    const remove = (cascade?: boolean) => ctx.demo.request('POST', `${F}/manager/delete-deployment`, { query: { deploymentIds: definition.id, ...(cascade ? { cascade: 'true' } : {}) } });
    expectRefused(await remove() as never, '1个运行中的流程实例');
    expectOk(await remove(true) as never);
    const instance: FlowInstance = await instanceOf(ctx.demo, instanceId);
    expect(instance).toMatchObject({ state: 4, deleteReason: '删除部署', currentTasks: '' });
    expect(await taskIn(ctx.zhangsan, 'claim-list', instanceId)).toBeUndefined();
  });
});
