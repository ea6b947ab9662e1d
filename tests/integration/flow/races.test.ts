import { afterAll, beforeAll, expect, it } from 'vitest';
import { FLOW_MESSAGES, type FlowHistoryStep, type LeaveDetail } from '../../../resources/wire/flow';
import { seedId } from '../../../server/db/seed/ids';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, expectRefused, expectRefusedExactly, type PageData } from '../../support/envelope';
import { loggedErrors } from '../../support/failures';
import { startPeer, type TestServer } from '../../support/server';
import { ACCOUNTS, onEveryStore } from '../../support/suite';
import { reading } from '../alarms/support';
import { demoId, submit } from '../monitoring/support';
import { claim, complete, definitionOf, F, LEAVE, sequence, startLeave, taskIn, upload } from './support';

/**
 * Two processes of one deployment acting on the same task at once (docs/workflow.md "Who acts"): the fixture's server
 * and a peer on its store. The peer's action is held between its read of the task and its write (AppOptions.flowHooks)
 * while the other process acts; then it writes, and must find that it lost.
 */

/** Holds the peer's next task action at its write until opened. */
function gate() {
  let next: { arrived(): void; opened: Promise<void> } | undefined;
  return {
    beforeWrite: async () => {
      const held = next;
      next = undefined;
      if (!held) return;
      held.arrived();
      await held.opened;
    },
    /** Arms the gate: `reached` once an action waits at it, `open` lets it write. */
    hold() {
      let arrived: () => void = () => undefined;
      let open: () => void = () => undefined;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      next = { arrived, opened: new Promise<void>((resolve) => (open = resolve)) };
      return { reached, open };
    },
  };
}

const DEMO = '100001';

onEveryStore('workflow actions racing across two processes', { signIn: ['demo', 'zhangsan', 'lisi'] }, (ctx) => {
  const held = gate();
  let peer: TestServer;
  let onPeer: { zhangsan: ApiClient; lisi: ApiClient; demo: ApiClient };
  let definitionId: string;

  beforeAll(async () => {
    peer = await startPeer(ctx.server, { flowHooks: { beforeWrite: held.beforeWrite } });
    const as = (name: 'zhangsan' | 'lisi' | 'demo') => signedIn(peer.url, ACCOUNTS[name].account, ACCOUNTS[name].password, ACCOUNTS[name].tenantId);
    onPeer = { zhangsan: await as('zhangsan'), lisi: await as('lisi'), demo: await as('demo') };
    // One step any engineer (zhangsan, lisi) may claim.
    const xml = sequence('race_check', [{ id: 'check', candidateGroups: 'role:engineer' }]);
    definitionId = expectOk(await upload(ctx.demo, [{ name: 'race_check.bpmn', xml }]))[0].id;
  });
  afterAll(() => peer?.stop());

  /** A new instance of the process and its open task. */
  async function newTask() {
    const { processInstanceId } = expectOk(await ctx.demo.post<{ processInstanceId: string }>(`${F}/process/start-process`, { processDefinitionId: definitionId }));
    const task = await taskIn(ctx.lisi, 'claim-list', processInstanceId);
    if (!task) throw new Error('the task was not offered');
    return { instanceId: processInstanceId, taskId: task.taskId };
  }

  const userSteps = async (instanceId: string) =>
    expectOk(await ctx.demo.get<FlowHistoryStep[]>(`${F}/process/history-flow-list`, { processInstanceId: instanceId })).filter((s) => s.historyActivityType === 'userTask');

  it('gives a task two candidates claim at once to one of them; the other is told it was claimed', async () => {
    const { instanceId, taskId } = await newTask();
    const gateAt = held.hold();
    const late = claim(onPeer.zhangsan, taskId);
    await gateAt.reached;
    expectOk(await claim(ctx.lisi, taskId));
    gateAt.open();
    expectRefusedExactly(await late, FLOW_MESSAGES.claimedByOther);
    expect(await taskIn(ctx.lisi, 'todo-list', instanceId)).toMatchObject({ assigneeName: '李四' });
    expect(await taskIn(ctx.zhangsan, 'todo-list', instanceId)).toBeUndefined();
  });

  it('refuses a late claim of a task another process completed, which keeps who completed it', async () => {
    const { instanceId, taskId } = await newTask();
    const gateAt = held.hold();
    const late = claim(onPeer.zhangsan, taskId);
    await gateAt.reached;
    expectOk(await complete(ctx.lisi, taskId, true, '已核查'));
    gateAt.open();
    expectRefusedExactly(await late, FLOW_MESSAGES.alreadyDone);
    expect(await taskIn(ctx.lisi, 'done-list', instanceId)).toMatchObject({ assigneeName: '李四', comment: '已核查' });
    expect(await taskIn(ctx.zhangsan, 'todo-list', instanceId)).toBeUndefined();
  });

  it('refuses a transfer of a task its holder completed through another process, and tells nobody of it', async () => {
    const { instanceId, taskId } = await newTask();
    expectOk(await claim(ctx.lisi, taskId));
    const gateAt = held.hold();
    const late = onPeer.lisi.post(`${F}/work/transfer-task`, { taskId, userId: seedId(`user:${DEMO}:zhangsan`), comment: '请张三处理' });
    await gateAt.reached;
    expectOk(await complete(ctx.lisi, taskId, true, '自己处理了'));
    gateAt.open();
    expectRefusedExactly(await late, FLOW_MESSAGES.alreadyDone);
    expect(await taskIn(ctx.zhangsan, 'todo-list', instanceId)).toBeUndefined();
    const notices = expectOk(await ctx.zhangsan.get<PageData<{ title: string }>>('/api/blade-desk/notice/list', { size: 100 })).records;
    expect(notices.map((n) => n.title).filter((title) => title.startsWith('收到转办任务'))).toEqual([]);
    expect((await userSteps(instanceId)).map((s) => [s.assigneeName, s.reason, s.comment])).toEqual([['李四', null, '自己处理了']]);
  });

  it('answers a double submit through two processes as the first, and refuses the other answer with what stands', async () => {
    const same = await newTask();
    expectOk(await claim(ctx.lisi, same.taskId));
    let gateAt = held.hold();
    const repeat = complete(onPeer.lisi, same.taskId, true);
    await gateAt.reached;
    expect((await complete(ctx.lisi, same.taskId, true)).body).toMatchObject({ success: true, msg: '办理成功' });
    gateAt.open();
    expect((await repeat).body).toMatchObject({ success: true, msg: '办理成功' });
    expect(await userSteps(same.instanceId)).toHaveLength(1);

    const other = await newTask();
    expectOk(await claim(ctx.lisi, other.taskId));
    gateAt = held.hold();
    const rejection = complete(onPeer.lisi, other.taskId, false);
    await gateAt.reached;
    expectOk(await complete(ctx.lisi, other.taskId, true));
    gateAt.open();
    expectRefusedExactly(await rejection, FLOW_MESSAGES.alreadyApproved);
    expect((await userSteps(other.instanceId)).map((s) => s.pass)).toEqual([true]);
  });

  it('refuses a start on a deployment deleted while it ran: no instance of a deleted definition escapes', async () => {
    const xml = sequence('race_retire', [{ id: 'only', candidateGroups: 'role:engineer' }]);
    const [definition] = expectOk(await upload(ctx.demo, [{ name: 'race_retire.bpmn', xml }]));
    const gateAt = held.hold();
    const late = onPeer.demo.post(`${F}/process/start-process`, { processDefinitionId: definition.id });
    await gateAt.reached;
    // Nothing runs on it yet: the deletion is not refused.
    expectOk(await ctx.demo.request('POST', `${F}/manager/delete-deployment`, { query: { deploymentIds: definition.id } }));
    gateAt.open();
    expectRefused(await late, '流程定义已删除或挂起,不能发起');
    expect(expectOk(await ctx.demo.get<PageData>(`${F}/follow/list`, { processDefinitionKey: 'race_retire' })).total).toBe(0);
  });

  it('writes a leave request together with its process: neither while the start is held, both once it commits', async () => {
    const leave = await definitionOf(ctx.demo, 'leave');
    const db = ctx.server.app.platform.db;
    const requests = async () => Number((await db.selectFrom('blade_process_leave').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await requests();
    const gateAt = held.hold();
    const started = startLeave(onPeer.zhangsan, leave.id, 2);
    await gateAt.reached;
    expect(await requests()).toBe(before);
    gateAt.open();
    const { id, processInstanceId } = await started;
    expect(await requests()).toBe(before + 1);
    expect(expectOk(await ctx.zhangsan.get<LeaveDetail>(`${LEAVE}/detail`, { businessId: id }))).toMatchObject({ processInstanceId, days: 2, process: { state: 1 } });
  });

  it('answers a delegate resolving twice through two processes as the first; the owner has the task once', async () => {
    const { instanceId, taskId } = await newTask();
    const lisi = seedId(`user:${DEMO}:lisi`);
    expectOk(await claim(ctx.zhangsan, taskId));
    expectOk(await ctx.zhangsan.post(`${F}/work/delegate-task`, { taskId, userId: lisi, comment: '请李四看看' }));
    const gateAt = held.hold();
    const repeat = complete(onPeer.lisi, taskId, true, '看过了');
    await gateAt.reached;
    expect((await complete(ctx.lisi, taskId, true, '看过了')).body).toMatchObject({ success: true, msg: '办理成功' });
    gateAt.open();
    expect((await repeat).body).toMatchObject({ success: true, msg: '办理成功' });
    expect(await taskIn(ctx.zhangsan, 'todo-list', instanceId)).toMatchObject({ delegation: null, assigneeName: '张三' });
    expect((await userSteps(instanceId)).map((s) => [s.assigneeName, s.reason])).toEqual([
      ['张三', 'delegate'],
      ['李四', 'resolve'],
      ['张三', null],
    ]);
  });

  it('starts one disposal of an alarm two processes take up at once: the later start is undone', async () => {
    const db = ctx.server.app.platform.db;
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-HLS-01'), pointKey: 'settlement', level1Upper: 40 });
    // The peer judges a red reading and starts the alarm's disposal (alarm.flow.1), held before it writes.
    const gateAt = held.hold();
    peer.app.platform.events.emit('readings', [reading('QJ-HLS-01', 'settlement', 45)]);
    await gateAt.reached;
    const alarm = await db.selectFrom('wit_alarm').select(['id', 'tenantId', 'processInstanceId']).where('deviceId', '=', demoId('device:QJ-HLS-01')).where('pointKey', '=', 'settlement').executeTakeFirstOrThrow();
    expect(alarm.processInstanceId).toBeNull();

    // Meanwhile this process takes the alarm up too (as after a restart's catch-up), and links its own disposal.
    ctx.server.app.platform.events.emit('alarms', { tenantId: alarm.tenantId, ids: [alarm.id], at: Date.now() });
    await ctx.server.app.workflow.disposal.settled();
    const { processInstanceId: linked } = await db.selectFrom('wit_alarm').select('processInstanceId').where('id', '=', alarm.id).executeTakeFirstOrThrow();
    expect(linked).not.toBeNull();

    gateAt.open();
    await peer.app.workflow.disposal.settled();
    const instances = await db.selectFrom('wf_instance').select('id').where('businessId', '=', alarm.id).execute();
    expect(instances.map((i) => i.id)).toEqual([linked]);
    expect(await loggedErrors(peer, 'alarm.disposal')).toEqual([]);
  });
});
