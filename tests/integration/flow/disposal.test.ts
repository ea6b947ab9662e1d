import type { Socket } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { signedIn } from '../../support/client';
import type { FlowDefinition, FlowTask } from '../../../resources/wire/flow';
import { seedId } from '../../../server/db/seed/ids';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { failWrites, hideTable, loggedErrors, takeLoggedErrors } from '../../support/failures';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { BRIDGE, emit, reading } from '../alarms/support';
import { DEMO, demoId, submit, X } from '../monitoring/support';
import { createLink, screenSocket } from '../screen/support';
import { claim, complete, F, instanceOf, parallel, sequence, taskIn, tasksOf, upload } from './support';

onEveryStore('alarm disposal as a process', { signIn: ['demo', 'operator', 'zhangsan'] }, (ctx) => {
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });
  const alarmOf = async (code: string, pointKey: string) =>
    expectOk(await ctx.demo.get<PageData<Row & Record<string, unknown>>>(`${X}/alarm/list`, { deviceId: demoId(`device:${code}`), pointKey_equal: pointKey, descs: 'firstTime' })).records[0];
  /** A channel's rule with these limits, a reading of `value`, and the alarm it raised once the disposal looked at it. */
  const raise = async (code: string, pointKey: string, value: number, limits: Record<string, number>) => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId(`device:${code}`), pointKey, ...limits });
    await emit(ctx.server, [reading(code, pointKey, value)]);
    await ctx.server.app.workflow.disposal.settled();
    return alarmOf(code, pointKey);
  };

  it('starts the disposal of a red alarm, shows it on the alarm, and closing the process handles the alarm', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-HLS-01'), pointKey: 'settlement', level1Upper: 40, level2Upper: 30 });
    let t = Date.now() - 60_000;
    // Orange first: its level names no process (only alarm.flow.1 is seeded).
    await emit(ctx.server, [reading('QJ-HLS-01', 'settlement', 35, (t += 1000))]);
    await ctx.server.app.workflow.disposal.settled();
    expect(await alarmOf('QJ-HLS-01', 'settlement')).toMatchObject({ alarmLevel: 2, processInstanceId: null, processState: null });

    // Escalated to red: one disposal starts, and a second red reading starts no other.
    await emit(ctx.server, [reading('QJ-HLS-01', 'settlement', 45, (t += 1000))], [reading('QJ-HLS-01', 'settlement', 46, (t += 1000))]);
    await ctx.server.app.workflow.disposal.settled();
    const alarm = await alarmOf('QJ-HLS-01', 'settlement');
    expect(alarm).toMatchObject({ alarmLevel: 1, processState: 1, processTasks: '告警确认' });
    const instanceId = String(alarm.processInstanceId);
    expect(expectOk(await ctx.demo.get<PageData>(`${F}/follow/list`, { processDefinitionKey: 'alarm_disposal' })).total).toBe(1);

    // The duty operator confirms and checks on site; the administrator reviews, sends it back once, then closes it.
    const confirm = (await taskIn(ctx.operator, 'claim-list', instanceId)) as FlowTask;
    expect(confirm).toMatchObject({ taskName: '告警确认', category: 'flow_alarm', businessTable: 'wit_alarm', businessId: alarm.id });
    expectOk(await claim(ctx.operator, confirm.taskId));
    expectOk(await complete(ctx.operator, confirm.taskId, true, '已确认, 派人核查'));
    const check = (await taskIn(ctx.zhangsan, 'claim-list', instanceId)) as FlowTask;
    expectOk(await complete(ctx.zhangsan, check.taskId, true, '支座沉降, 已加密观测'));
    const review = (await taskIn(ctx.demo, 'claim-list', instanceId)) as FlowTask;
    expectOk(await complete(ctx.demo, review.taskId, false, '补充照片'));
    const recheck = (await taskIn(ctx.zhangsan, 'claim-list', instanceId)) as FlowTask;
    expect(recheck.taskName).toBe('现场核查');
    expect((await alarmOf('QJ-HLS-01', 'settlement')).handleState).toBe(0);
    expectOk(await complete(ctx.zhangsan, recheck.taskId, true, '照片已上传'));
    const close = (await taskIn(ctx.demo, 'claim-list', instanceId)) as FlowTask;
    // The duty operator sees the disposal on the alarm as well; the unhandled alarms' count is read (and kept a while).
    const listed = async (client: typeof ctx.demo, query: Record<string, unknown> = {}) =>
      expectOk(await client.get<PageData<Row & Record<string, unknown>>>(`${X}/alarm/list`, { deviceId: demoId('device:QJ-HLS-01'), pointKey_equal: 'settlement', ...query }));
    expect((await listed(ctx.operator)).records[0]).toMatchObject({ id: alarm.id, processState: 1, processTasks: '复核' });
    expect((await listed(ctx.demo, { handleState: 0 })).total).toBe(1);
    const logged = async () => expectOk(await ctx.demo.get<PageData>(`${X}/alarmlog/list`, { alarmId: alarm.id })).total;
    const before = await logged();
    // The wall screen hears of the handling, as of a person's.
    const screen = await screenSocket(ctx.server, (await createLink(ctx.demo, { projectIds: [BRIDGE] })).secret, sockets);
    expectOk(await complete(ctx.demo, close.taskId, true, '同意关闭'));
    await until(() => screen.alarms.some((a) => a.id === alarm.id && a.handleState === 1), 10_000, 'the handling on the wall screen');

    expect((await instanceOf(ctx.demo, instanceId)).state).toBe(3);
    const handled = await alarmOf('QJ-HLS-01', 'settlement');
    // Handled by whoever acted last, with what each step said, in order.
    expect(handled).toMatchObject({ handleState: 1, handleUser: seedId(`user:${DEMO}:admin`), handleUserName: '管理员', processState: 3, processTasks: '' });
    expect(handled.handleResult).toBe('告警处置流程完成 (告警确认: 已确认, 派人核查; 现场核查: 支座沉降, 已加密观测; 复核: 补充照片; 现场核查: 照片已上传; 复核: 同意关闭)');
    // The lists count it as handled at once, and its log the handling: announced, not left to the counts' expiry.
    expect((await listed(ctx.demo, { handleState: 0 })).total).toBe(0);
    expect(await logged()).toBe(before + 1);
    const logs = expectOk(await ctx.demo.get<PageData<Row & { action: number }>>(`${X}/alarmlog/list`, { alarmId: alarm.id, size: 50 })).records;
    expect(logs.filter((l) => l.action === 5)).toHaveLength(1);
  });

  it('starts the newest version of the process a level names, for an open, unhandled alarm without one only; none while it is suspended', async () => {
    const orange = (code: string, pointKey: string, value: number, level2Upper: number) => raise(code, pointKey, value, { level2Upper });
    // Two orange alarms raised before their level named a process: one is handled by hand, the other clears.
    const handled = await orange('QJ-TH-01', 'humidity', 95, 90);
    const cleared = await orange('QJ-TH-01', 'temperature', 55, 50);

    // Orange alarms start `quick_check` from now on (typed with spaces: the param is stored trimmed), version 2 of it.
    const xml = (steps: number) => sequence('quick_check', Array.from({ length: steps }, (_, i) => ({ id: `look${i}`, candidateGroups: 'role:administrator' })), '快速核查');
    const model = expectOk(await ctx.demo.post<Row>(`${F}/model/submit`, { modelKey: 'quick_check', name: '快速核查', category: 'flow_alarm', xml: xml(1) }));
    expectOk(await ctx.demo.post(`${F}/model/deploy`, { modelId: model.id }));
    expectOk(await ctx.demo.post(`${F}/model/submit`, { id: model.id, xml: xml(2) }));
    const [newest] = expectOk(await ctx.demo.post<FlowDefinition[]>(`${F}/model/deploy`, { modelId: model.id }));
    expectOk(await ctx.demo.post('/api/blade-system/param/submit', { paramName: '橙色告警处置流程', paramKey: 'alarm.flow.2', paramValue: ' quick_check ' }));

    // Both are announced again (handled; cleared): neither starts a disposal now.
    expectOk(await postParams(ctx.demo, `${X}/alarm/batchHandle`, { ids: handled.id, handleResult: '已现场确认' }));
    await emit(ctx.server, [reading('QJ-TH-01', 'temperature', 20)]);
    await ctx.server.app.workflow.disposal.settled();
    expect(await alarmOf('QJ-TH-01', 'humidity')).toMatchObject({ id: handled.id, handleState: 1, processInstanceId: null });
    expect(await alarmOf('QJ-TH-01', 'temperature')).toMatchObject({ id: cleared.id, alarmState: 2, processInstanceId: null });

    // A new orange alarm starts version 2, titled and described by the alarm.
    const tilt = await orange('QJ-TILT-01', 'tilt_x', 1.5, 1);
    const instance = await instanceOf(ctx.demo, String(tilt.processInstanceId));
    expect(instance).toMatchObject({ processDefinitionId: newest.id, processDefinitionVersion: 2, processTitle: tilt.title, businessTable: 'wit_alarm', businessId: tilt.id });
    const variables = await ctx.server.app.platform.db.selectFrom('wf_instance').select('variables').where('id', '=', instance.processInstanceId).executeTakeFirstOrThrow();
    expect(JSON.parse(String(variables.variables))).toMatchObject({ alarmId: tilt.id, alarmLevel: 2, deviceId: demoId('device:QJ-TILT-01'), pointKey: 'tilt_x', value: 1.5, unit: '°' });

    // Suspended, the process starts nothing, and the error log says why; so does a level naming a process never deployed.
    // Levels that name no process are no error.
    expectOk(await ctx.demo.post(`${F}/manager/change-state`, { processId: newest.id, state: 'suspend' }));
    expect(await orange('QJ-GNSS-01', 'dz', 15, 10)).toMatchObject({ alarmLevel: 2, processInstanceId: null });
    expectOk(await ctx.demo.post('/api/blade-system/param/submit', { paramName: '蓝色告警处置流程', paramKey: 'alarm.flow.4', paramValue: 'never_deployed' }));
    expect(await raise('QJ-TILT-01', 'tilt_y', 0.2, { level4Upper: 0.1 })).toMatchObject({ alarmLevel: 4, processInstanceId: null });
    expect(await loggedErrors(ctx.server, 'alarm.disposal')).toEqual([
      expect.stringContaining('process quick_check is not deployed or is suspended'),
      expect.stringContaining('process never_deployed is not deployed or is suspended'),
    ]);
  });

  it('lists every task a disposal has open, and none once the process ended', async () => {
    const xml = parallel(
      'parallel_check',
      [
        { id: 'structure', name: '结构检查', assignee: 'admin' },
        { id: 'sensors', name: '传感器检查', assignee: 'admin' },
      ],
      [],
      '联合核查',
    );
    expectOk(await upload(ctx.demo, [{ name: 'parallel_check.bpmn', xml }]));
    expectOk(await ctx.demo.post('/api/blade-system/param/submit', { paramName: '黄色告警处置流程', paramKey: 'alarm.flow.3', paramValue: 'parallel_check' }));
    const alarm = await raise('QJ-RAIN-01', 'rainfall', 60, { level3Upper: 50 });
    expect(alarm).toMatchObject({ alarmLevel: 3, processState: 1 });
    expect(String(alarm.processTasks).split(',').sort()).toEqual(['传感器检查', '结构检查']);

    const open = async () => (await tasksOf(ctx.demo, 'todo-list')).filter((t) => t.processInstanceId === alarm.processInstanceId);
    const [first] = (await open()).filter((t) => t.taskName === '结构检查');
    expectOk(await complete(ctx.demo, first.taskId, true, '结构完好'));
    expect(await alarmOf('QJ-RAIN-01', 'rainfall')).toMatchObject({ processState: 1, processTasks: '传感器检查' });
    const [last] = await open();
    expectOk(await complete(ctx.demo, last.taskId, true, '传感器正常'));
    expect(await alarmOf('QJ-RAIN-01', 'rainfall')).toMatchObject({ processState: 3, processTasks: '', handleState: 1 });
  });

  it('logs a disposal the store refuses to start, with its alarm, leaves nothing half-started and goes on with the next alarm', async () => {
    const db = ctx.server.app.platform.db;
    const red = (pointKey: string) => raise('QJ-TILT-02', pointKey, 45, { level1Upper: 40 });
    const restore = await failWrites(ctx.server, 'wf_instance', "new.business_table = 'wit_alarm'");
    let refused: Row;
    try {
      refused = await red('tilt_x');
    } finally {
      await restore();
    }
    const logged = await loggedErrors(ctx.server, 'alarm.disposal');
    expect(logged.filter((message) => message.includes('storage failure'))).toEqual([`${refused.id}: storage failure`]);
    expect(refused).toMatchObject({ alarmLevel: 1, processInstanceId: null, processState: null });
    expect(await db.selectFrom('wf_instance').select('id').where('businessId', '=', refused.id).execute()).toEqual([]);
    // The failure ends that consideration only: the next alarm's disposal starts.
    expect(await red('tilt_y')).toMatchObject({ alarmLevel: 1, processState: 1, processTasks: '告警确认' });
  });

  // Last: it restarts the suite's server.
  it('repairs at start what a crash left: an ended disposal’s alarm unhandled, a disposal its alarm does not name (adopted, or ended when the alarm has one or needs none), an alarm without one', async () => {
    const { app } = ctx.server;
    const db = app.platform.db;
    const red = (code: string, pointKey: string) => raise(code, pointKey, 45, { level1Upper: 40, level2Upper: 30 });

    // 1. A disposal that ended, its alarm handled with it; then put back as a crash after the step's commit left it.
    const ended = await red('QJ-HLS-02', 'settlement');
    const endedInstance = String(ended.processInstanceId);
    for (const step of ['告警确认', '现场核查', '复核']) {
      const task = (await taskIn(ctx.demo, 'claim-list', endedInstance)) as FlowTask;
      expect(task.taskName).toBe(step);
      expectOk(await complete(ctx.demo, task.taskId, true, `${step}完成`));
    }
    expect(await alarmOf('QJ-HLS-02', 'settlement')).toMatchObject({ handleState: 1, processState: 3 });
    await db.updateTable('wit_alarm').set({ handleState: 0, handleUser: null, handleUserName: null, handleTime: null, handleResult: null }).where('id', '=', ended.id).execute();
    await db.deleteFrom('wit_alarm_log').where('alarmId', '=', ended.id).where('action', '=', 5).execute();

    // 2. and 3. With the disposal deaf, as a process that died before it heard: an alarm whose instance started but
    // was never linked, and an alarm nothing started.
    const doubled = await red('QJ-GNSS-01', 'dx');
    app.workflow.disposal.stop();
    const unlinked = await red('QJ-CRACK-01', 'crack');
    const waiting = await red('QJ-CRACK-02', 'crack');
    expect([unlinked.processInstanceId, waiting.processInstanceId]).toEqual([null, null]);
    const definition = await db.selectFrom('wf_definition').select(['id', 'tenantId', 'processKey', 'xml', 'suspensionState']).where('tenantId', '=', DEMO).where('processKey', '=', 'alarm_disposal').executeTakeFirstOrThrow();
    const startFor = (alarmId: string) => app.workflow.service.start(definition, { starter: null, title: '告警处置', businessTable: 'wit_alarm', businessId: alarmId, variables: {} });
    const orphan = await startFor(unlinked.id);
    // 4. and 5. Disposals started twice, as two processes might: for an alarm that has its own (raised before the
    // disposal went deaf), and for one handled meanwhile, which needs none. Both are ended at start, as the store lets it.
    const second = await startFor(doubled.id);
    const handledMeanwhile = await red('QJ-GNSS-01', 'dy');
    expectOk(await postParams(ctx.demo, `${X}/alarm/batchHandle`, { ids: handledMeanwhile.id, handleResult: '已现场处理' }));
    const needless = await startFor(handledMeanwhile.id);

    // A start whose reconciliation fails (the steps' history cannot be read) logs it and repairs nothing half-way.
    await takeLoggedErrors(ctx.server, 'alarm.disposal'); // the earlier tests'
    const history = await hideTable(ctx.server, 'wf_history');
    const failed = await ctx.server.restart();
    let server = failed;
    try {
      await failed.app.workflow.disposal.settled();
      expect(await takeLoggedErrors(failed, 'alarm.disposal')).toEqual([expect.stringMatching(/^reconcile: .*wf_history/)]);
      const unrepaired = await failed.app.platform.db.selectFrom('wit_alarm').select(['id', 'handleState', 'processInstanceId']).where('id', 'in', [ended.id, waiting.id]).execute();
      expect(new Map(unrepaired.map((a) => [a.id, [Number(a.handleState), a.processInstanceId]]))).toEqual(
        new Map([
          [ended.id, [0, endedInstance]],
          [waiting.id, [0, null]],
        ]),
      );
      // The next start repairs it all, but for a disposal whose ending the store refuses: logged by its id, left running.
      await history(failed);
      const refuse = await failWrites(failed, 'wf_instance', `new.id = '${needless}'`, 'update');
      server = await failed.restart();
      await server.app.workflow.disposal.settled();
      // (Besides the earlier tests' levels that name processes not deployed, met again by the catch-up.)
      const logged = await takeLoggedErrors(server, 'alarm.disposal');
      expect(logged.filter((message) => message.includes('storage failure'))).toEqual([`${needless}: storage failure`]);
      await refuse(server);
      const demo = await signedIn(server.url, 'admin', 'admin', DEMO);
      const alarm = async (code: string, pointKey: string) =>
        expectOk(await demo.get<PageData<Row & Record<string, unknown>>>(`${X}/alarm/list`, { deviceId: demoId(`device:${code}`), pointKey_equal: pointKey, descs: 'firstTime' })).records[0];
      const handled = await alarm('QJ-HLS-02', 'settlement');
      expect(handled).toMatchObject({ handleState: 1, handleUserName: '管理员', processInstanceId: endedInstance });
      expect(String(handled.handleResult)).toContain('复核: 复核完成');
      const logs = expectOk(await demo.get<PageData<Row & { action: number }>>(`${X}/alarmlog/list`, { alarmId: ended.id, size: 50 })).records;
      expect(logs.filter((l) => l.action === 5)).toHaveLength(1);
      expect(await alarm('QJ-CRACK-01', 'crack')).toMatchObject({ processInstanceId: orphan, processState: 1, processTasks: '告警确认' });
      const started = await alarm('QJ-CRACK-02', 'crack');
      expect(started).toMatchObject({ processState: 1, processTasks: '告警确认' });
      // One disposal each: nothing started twice.
      const instances = await server.app.platform.db.selectFrom('wf_instance').select(['businessId']).where('businessId', 'in', [ended.id, unlinked.id, waiting.id]).execute();
      expect(instances.map((i) => i.businessId).sort()).toEqual([ended.id, unlinked.id, waiting.id].sort());
      // The second disposal of an alarm is ended (deleted, 4); the one an alarm handled meanwhile does not need would
      // have been, but the store refused it.
      const states = await server.app.platform.db.selectFrom('wf_instance').select(['id', 'state', 'deleteReason']).where('id', 'in', [String(doubled.processInstanceId), second, needless]).execute();
      expect(new Map(states.map((i) => [i.id, [Number(i.state), i.deleteReason]]))).toEqual(
        new Map([
          [String(doubled.processInstanceId), [1, null]],
          [second, [4, '告警已有处置流程']],
          [needless, [1, null]],
        ]),
      );
      expect(await alarm('QJ-GNSS-01', 'dx')).toMatchObject({ processInstanceId: doubled.processInstanceId, processState: 1 });
      expect(await alarm('QJ-GNSS-01', 'dy')).toMatchObject({ handleState: 1, processInstanceId: null });
    } finally {
      await server.stop();
    }
  });
});
