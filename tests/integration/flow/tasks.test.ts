import { beforeAll, expect, it } from 'vitest';
import type { FlowHistoryStep, FlowTask, LeaveDetail } from '../../../resources/wire/flow';
import { FLOW_MESSAGES } from '../../../resources/wire/flow';
import { seedId } from '../../../server/db/seed/ids';
import { expectOk, expectRefused, expectRefusedExactly, type PageData, type Row } from '../../support/envelope';
import { createStaff, type Staff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';
import { claim, complete, definitionOf, F, instanceOf, LEAVE, noticeTitles, parallel, sequence, startLeave, taskIn, tasksOf, upload } from './support';

const DEMO = '100001';

onEveryStore('workflow tasks', { signIn: ['demo', 'zhangsan', 'lisi', 'operator'] }, (ctx) => {
  let leaveId: string;
  let ids: { admin: string; lisi: string; zhangsan: string };
  let outsider: Staff;

  beforeAll(async () => {
    leaveId = (await definitionOf(ctx.demo, 'leave')).id;
    ids = { admin: seedId(`user:${DEMO}:admin`), lisi: seedId(`user:${DEMO}:lisi`), zhangsan: seedId(`user:${DEMO}:zhangsan`) };
    outsider = await createStaff(ctx.server, '000000', 'flow_outsider');
  });

  const history = async (instanceId: string) => expectOk(await ctx.zhangsan.get<FlowHistoryStep[]>(`${F}/process/history-flow-list`, { processInstanceId: instanceId }));

  it('offers the applicant’s department head the leave to claim; others are refused clearly', async () => {
    const { id, processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 2);
    // lisi heads 监测部 (post manager): a candidate; zhangsan (the applicant) and the operator are not.
    const offered = await taskIn(ctx.lisi, 'claim-list', processInstanceId);
    expect(offered).toMatchObject({ taskName: '部门领导审批', status: 'claim', assignee: null, candidates: '李四', processTitle: '张三的请假申请(2天)', startUserName: '张三' });
    expect(offered?.dueTime).not.toBeNull();
    expect(await taskIn(ctx.zhangsan, 'claim-list', processInstanceId)).toBeUndefined();
    const taskId = String(offered?.taskId);
    expectRefusedExactly(await complete(ctx.operator, taskId), FLOW_MESSAGES.notYours);
    expectRefusedExactly(await claim(ctx.operator, taskId), FLOW_MESSAGES.notYours);

    // lisi was told through the notice centre.
    const notices = expectOk(await ctx.lisi.get<PageData<Row & { title: string }>>('/api/blade-desk/notice/list', { size: 50 })).records;
    expect(notices.map((n) => n.title)).toContain('待签任务: 部门领导审批 - 张三的请假申请(2天)');

    expectOk(await claim(ctx.lisi, taskId));
    expectOk(await claim(ctx.lisi, taskId)); // claiming one's own task again is harmless
    expect(await taskIn(ctx.lisi, 'todo-list', processInstanceId)).toMatchObject({ status: 'todo', assigneeName: '李四' });
    expectRefusedExactly(await claim(ctx.demo, taskId), FLOW_MESSAGES.claimedByOther);
    expectRefusedExactly(await complete(ctx.zhangsan, taskId), FLOW_MESSAGES.notYours);

    // Two submits at once, and one more after: one completion.
    const [a, b] = await Promise.all([complete(ctx.lisi, taskId, true, '同意, 注意安全'), complete(ctx.lisi, taskId, true, '同意, 注意安全')]);
    expectOk(a);
    expectOk(b);
    expectOk(await complete(ctx.lisi, taskId));
    expectRefusedExactly(await complete(ctx.demo, taskId), FLOW_MESSAGES.alreadyDone);

    expect(await instanceOf(ctx.demo, processInstanceId)).toMatchObject({ state: 3, processIsFinished: true, status: 'finished' });
    expect(await taskIn(ctx.lisi, 'done-list', processInstanceId)).toMatchObject({ status: 'finished', pass: true, comment: '同意, 注意安全' });
    const steps = await history(processInstanceId);
    expect(steps.map((s) => [s.historyActivityId, s.assigneeName, s.pass])).toEqual([
      ['start', null, null],
      ['deptLeaderAudit', '李四', true],
      ['auditGateway', null, null],
      ['approved', null, null],
    ]);
    const detail = expectOk(await ctx.zhangsan.get<LeaveDetail>(`${LEAVE}/detail`, { businessId: id }));
    expect(detail).toMatchObject({ days: 2, reason: '探亲', createUserName: '张三', process: { state: 3 } });
  });

  it('rejects back to the applicant, who resubmits; more than three days also goes to the general manager', async () => {
    const { processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 5, { taskUser: ids.admin });
    // The approver chosen on the form holds the task; nobody claims it.
    const first = await taskIn(ctx.demo, 'todo-list', processInstanceId);
    expect(first).toMatchObject({ taskName: '部门领导审批', assignee: ids.admin });
    expect(await taskIn(ctx.lisi, 'claim-list', processInstanceId)).toBeUndefined();
    // The named approver is told the task is theirs to do, not to claim.
    expect(await noticeTitles(ctx.demo)).toContain('待办任务: 部门领导审批 - 张三的请假申请(5天)');
    expectOk(await complete(ctx.demo, String(first?.taskId), false, '时间太长'));

    const adjust = await taskIn(ctx.zhangsan, 'todo-list', processInstanceId);
    expect(adjust?.taskName).toBe('调整申请');
    expectOk(await complete(ctx.zhangsan, String(adjust?.taskId), true, '已调整'));
    const again = await taskIn(ctx.demo, 'todo-list', processInstanceId);
    expect(again?.taskName).toBe('部门领导审批');
    expectOk(await complete(ctx.demo, String(again?.taskId), true));

    // 5 days > 3: the general manager's step, offered to holders of post ceo and administrators.
    const boss = await taskIn(ctx.demo, 'claim-list', processInstanceId);
    expect(boss?.taskName).toBe('总经理审批');
    expectOk(await complete(ctx.demo, String(boss?.taskId), true, '准假')); // a candidate completes without claiming first
    const steps = await history(processInstanceId);
    expect(steps.filter((s) => s.historyActivityType === 'userTask').map((s) => [s.historyActivityName, s.comment, s.pass])).toEqual([
      ['部门领导审批', '时间太长', false],
      ['调整申请', '已调整', true],
      ['部门领导审批', '同意', true],
      ['总经理审批', '准假', true],
    ]);
    expect(steps.at(-1)?.historyActivityId).toBe('approved');
    const diagram = expectOk(await ctx.zhangsan.get<{ finished: string[]; active: string[] }>(`${F}/process/diagram`, { processInstanceId }));
    expect(diagram.active).toEqual([]);
    expect(diagram.finished).toEqual(expect.arrayContaining(['deptLeaderAudit', 'adjust', 'bossAudit', 'approved', 'flow_long', 'flow_boss_ok']));
  });

  it('offers tasks to roles and departments by membership at the time of claiming', async () => {
    const monitoring = seedId(`dept:${DEMO}:monitoring`);
    const xml = sequence('teamwork', [{ id: 'byRole', candidateGroups: 'role:engineer' }, { id: 'byDept', candidateGroups: `dept:${monitoring}` }, { id: 'byPost', candidateGroups: 'post:manager' }]);
    const [definition] = expectOk(await upload(ctx.demo, [{ name: 'teamwork.bpmn', xml }]));
    const instanceId = await ctx.server.app.workflow.service.start({ id: definition.id, tenantId: DEMO, processKey: 'teamwork', xml, suspensionState: 1 }, { starter: ids.admin, variables: {}, title: '协作' });
    const offeredTo = async () =>
      (await Promise.all([ctx.zhangsan, ctx.lisi, ctx.operator, ctx.demo].map(async (api) => Boolean(await taskIn(api, 'claim-list', instanceId))))).map(Number);
    expect(await offeredTo()).toEqual([1, 1, 0, 0]); // engineers
    const byRole = await taskIn(ctx.zhangsan, 'claim-list', instanceId);
    expectOk(await complete(ctx.zhangsan, String(byRole?.taskId)));
    expect(await offeredTo()).toEqual([1, 1, 0, 0]); // members of 监测部
    const byDept = await taskIn(ctx.lisi, 'claim-list', instanceId);
    expectOk(await complete(ctx.lisi, String(byDept?.taskId)));
    expect(await offeredTo()).toEqual([0, 1, 0, 0]); // holders of post manager
  });

  it('carries each task’s form key from its model to the console', async () => {
    const xml = sequence('formed', [{ id: 'inspect', candidateGroups: 'role:engineer', formKey: 'process' }, { id: 'sign', candidateGroups: 'role:engineer' }]);
    const [definition] = expectOk(await upload(ctx.demo, [{ name: 'formed.bpmn', xml }]));
    const { processInstanceId } = expectOk(await ctx.zhangsan.post<{ processInstanceId: string }>(`${F}/process/start-process`, { processDefinitionId: definition.id }));
    const inspect = (await taskIn(ctx.lisi, 'claim-list', processInstanceId)) as FlowTask;
    expect(inspect).toMatchObject({ taskName: 'inspect', formKey: 'process' });
    expect(expectOk(await ctx.lisi.get<FlowTask>(`${F}/work/task-detail`, { taskId: inspect.taskId })).formKey).toBe('process');
    expectOk(await complete(ctx.lisi, inspect.taskId));
    expect(await taskIn(ctx.lisi, 'done-list', processInstanceId)).toMatchObject({ formKey: 'process' });
    expect(await taskIn(ctx.lisi, 'claim-list', processInstanceId)).toMatchObject({ taskName: 'sign', formKey: null });
  });

  it('runs parallel branches and joins them: the process goes on once both are done', async () => {
    const xml = parallel(
      'inspection_parallel',
      [
        { id: 'structure', name: '结构检查', assignee: 'zhangsan' },
        { id: 'sensors', name: '传感器检查', assignee: 'lisi' },
      ],
      [{ id: 'sign', name: '签发', assignee: 'admin' }],
      '联合检查',
    );
    const [definition] = expectOk(await upload(ctx.demo, [{ name: 'parallel.bpmn', xml }]));
    const { processInstanceId } = expectOk(await ctx.zhangsan.post<{ processInstanceId: string }>(`${F}/process/start-process`, { processDefinitionId: definition.id, variables: { remark: '季度检查' } }));
    // A process without a business record: its instance and variables are what its pages show.
    const detail = expectOk(await ctx.lisi.get<{ processTitle: string; variables: Record<string, unknown> }>(`${F}/process/instance`, { processInstanceId }));
    expect(detail).toMatchObject({ processTitle: '联合检查 - 张三', variables: { remark: '季度检查', applyUser: ids.zhangsan } });
    expectRefused(await ctx.operator.get(`${F}/process/instance`, { processInstanceId }), '流程实例不存在或无权查看');
    const structure = (await taskIn(ctx.zhangsan, 'todo-list', processInstanceId)) as FlowTask;
    const sensors = (await taskIn(ctx.lisi, 'todo-list', processInstanceId)) as FlowTask;
    expect([structure.taskName, sensors.taskName]).toEqual(['结构检查', '传感器检查']);
    expectOk(await complete(ctx.lisi, sensors.taskId));
    // One branch done: the join waits, nothing to sign yet.
    expect(await taskIn(ctx.demo, 'todo-list', processInstanceId)).toBeUndefined();
    expect((await instanceOf(ctx.demo, processInstanceId)).currentTasks).toBe('结构检查');
    expectOk(await complete(ctx.zhangsan, structure.taskId));
    const sign = (await taskIn(ctx.demo, 'todo-list', processInstanceId)) as FlowTask;
    expect(sign.taskName).toBe('签发');
    expectOk(await complete(ctx.demo, sign.taskId));
    expect((await instanceOf(ctx.demo, processInstanceId)).state).toBe(3);
  });

  it('transfers and delegates: a delegated task comes back to its owner', async () => {
    const { processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 1, { taskUser: ids.admin });
    const task = (await taskIn(ctx.demo, 'todo-list', processInstanceId)) as FlowTask;
    // Colleagues to hand it to: the tenant's users by name, also for staff who do not manage users.
    const found = expectOk(await ctx.zhangsan.get<Array<{ id: string; realName: string; deptName: string }>>(`${F}/work/users`, { name: '李' }));
    expect(found).toEqual([{ id: ids.lisi, account: 'lisi', realName: '李四', deptName: '监测部' }]);
    expect(expectOk(await ctx.zhangsan.get<Array<{ account: string }>>(`${F}/work/users`)).map((u) => u.account)).not.toContain('flow_outsider');
    expectRefused(await ctx.demo.post(`${F}/work/delegate-task`, { taskId: task.taskId, userId: ids.admin }), '请选择其他办理人');
    expectRefused(await ctx.demo.post(`${F}/work/delegate-task`, { taskId: task.taskId, userId: '123' }), '办理人不存在');
    const about = '部门领导审批 - 张三的请假申请(1天)';
    expectOk(await ctx.demo.post(`${F}/work/delegate-task`, { taskId: task.taskId, userId: ids.lisi, comment: '请李四先看' }));
    expect(await noticeTitles(ctx.lisi)).toContain(`收到委派任务: ${about}`);
    expect(await taskIn(ctx.lisi, 'todo-list', processInstanceId)).toMatchObject({ delegation: 'pending', ownerName: '管理员', assigneeName: '李四' });
    expect(await taskIn(ctx.demo, 'todo-list', processInstanceId)).toBeUndefined();
    expectOk(await complete(ctx.lisi, task.taskId, true, '没有问题'));
    // Resolved: back with the owner, who is told; the process has not moved.
    expect(await noticeTitles(ctx.demo)).toContain(`委派任务已办理: ${about}`);
    expect(await taskIn(ctx.demo, 'todo-list', processInstanceId)).toMatchObject({ delegation: null, assigneeName: '管理员', taskName: '部门领导审批' });
    expectOk(await ctx.demo.post(`${F}/work/transfer-task`, { taskId: task.taskId, userId: ids.lisi, comment: '交给李四' }));
    expect(await noticeTitles(ctx.lisi)).toContain(`收到转办任务: ${about}`);
    expectRefusedExactly(await complete(ctx.demo, task.taskId), FLOW_MESSAGES.notYours);
    expectOk(await complete(ctx.lisi, task.taskId, true, '批准'));
    const steps = (await history(processInstanceId)).filter((s) => s.historyActivityType === 'userTask');
    expect(steps.map((s) => [s.assigneeName, s.reason, s.comment])).toEqual([
      ['管理员', 'delegate', '请李四先看'],
      ['李四', 'resolve', '没有问题'],
      ['管理员', 'transfer', '交给李四'],
      ['李四', null, '批准'],
    ]);
  });

  it('answers a second submit as the first; one that says the other thing is refused with what stands', async () => {
    const { processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 1, { taskUser: ids.admin });
    const task = (await taskIn(ctx.demo, 'todo-list', processInstanceId)) as FlowTask;
    const answer = async (pass: boolean) => (await complete(ctx.demo, task.taskId, pass)).body;
    expect(await answer(true)).toMatchObject({ success: true, msg: '办理成功' });
    expect(await answer(true)).toMatchObject({ success: true, msg: '办理成功' });
    expect(await answer(false)).toMatchObject({ success: false, msg: FLOW_MESSAGES.alreadyApproved });
    expect(await taskIn(ctx.demo, 'done-list', processInstanceId)).toMatchObject({ pass: true, comment: '同意' });
    expect((await instanceOf(ctx.demo, processInstanceId)).state).toBe(3);

    // A rejection repeated is a rejection; an approval after it is refused.
    const second = await startLeave(ctx.zhangsan, leaveId, 1, { taskUser: ids.admin });
    const rejected = (await taskIn(ctx.demo, 'todo-list', second.processInstanceId)) as FlowTask;
    expect((await complete(ctx.demo, rejected.taskId, false, '不批')).body).toMatchObject({ success: true, msg: '驳回成功' });
    expect((await complete(ctx.demo, rejected.taskId, false, '不批')).body).toMatchObject({ success: true, msg: '驳回成功' });
    expectRefusedExactly(await complete(ctx.demo, rejected.taskId, true), FLOW_MESSAGES.alreadyRejected);
    expect((await taskIn(ctx.zhangsan, 'todo-list', second.processInstanceId))?.taskName).toBe('调整申请');
  });

  it('answers a delegate’s second resolve as the first, and tells the owner once', async () => {
    const { processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 1, { taskUser: ids.admin });
    const task = (await taskIn(ctx.demo, 'todo-list', processInstanceId)) as FlowTask;
    expectOk(await ctx.demo.post(`${F}/work/delegate-task`, { taskId: task.taskId, userId: ids.lisi }));
    const resolved = `委派任务已办理: 部门领导审批 - 张三的请假申请(1天)`;
    const before = (await noticeTitles(ctx.demo)).filter((t) => t === resolved).length;
    expect((await complete(ctx.lisi, task.taskId, true, '看过了')).body).toMatchObject({ success: true, msg: '办理成功' });
    expect((await complete(ctx.lisi, task.taskId, true, '看过了')).body).toMatchObject({ success: true, msg: '办理成功' });
    expectRefusedExactly(await complete(ctx.lisi, task.taskId, false), FLOW_MESSAGES.alreadyApproved);
    expect((await noticeTitles(ctx.demo)).filter((t) => t === resolved)).toHaveLength(before + 1);
    // The owner holds it once more and completes it; the delegate's repeat still answers as its resolve did.
    expect(await taskIn(ctx.demo, 'todo-list', processInstanceId)).toMatchObject({ delegation: null, assigneeName: '管理员' });
    expectOk(await complete(ctx.demo, task.taskId, true));
    expect((await complete(ctx.lisi, task.taskId, true, '看过了')).body).toMatchObject({ success: true, msg: '办理成功' });
    expect((await history(processInstanceId)).filter((s) => s.historyActivityType === 'userTask').map((s) => [s.assigneeName, s.reason])).toEqual([
      ['管理员', 'delegate'],
      ['李四', 'resolve'],
      ['管理员', null],
    ]);
  });

  it('gives a claimed task back to its candidates; only its holder may, and only when it has candidates', async () => {
    const { processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 1);
    const task = (await taskIn(ctx.lisi, 'claim-list', processInstanceId)) as FlowTask;
    const unclaim = (api: typeof ctx.lisi) => api.request('POST', `${F}/work/unclaim-task`, { query: { taskId: task.taskId } });
    expectRefusedExactly(await unclaim(ctx.lisi), FLOW_MESSAGES.notYours); // not claimed yet
    expectOk(await claim(ctx.lisi, task.taskId));
    expectRefusedExactly(await unclaim(ctx.demo), FLOW_MESSAGES.notYours);
    expect((await unclaim(ctx.lisi)).body).toMatchObject({ success: true, msg: '退回成功' });
    expect(await taskIn(ctx.lisi, 'claim-list', processInstanceId)).toMatchObject({ status: 'claim', assignee: null, claimTime: null });
    expect(await taskIn(ctx.lisi, 'todo-list', processInstanceId)).toBeUndefined();
    // A delegated task is the owner's to take back, not the delegate's to give away.
    expectOk(await claim(ctx.lisi, task.taskId));
    expectOk(await ctx.lisi.post(`${F}/work/delegate-task`, { taskId: task.taskId, userId: ids.admin }));
    expectRefusedExactly(await unclaim(ctx.demo), FLOW_MESSAGES.notYours);
    // A task named to one person has nobody to go back to.
    const named = await startLeave(ctx.zhangsan, leaveId, 1, { taskUser: ids.admin });
    const mine = (await taskIn(ctx.demo, 'todo-list', named.processInstanceId)) as FlowTask;
    expectRefusedExactly(await ctx.demo.request('POST', `${F}/work/unclaim-task`, { query: { taskId: mine.taskId } }), '该任务没有候选人,不能退回');
  });

  it('keeps tenants apart: another tenant sees, claims and completes nothing', async () => {
    const { id, processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 1);
    const task = (await taskIn(ctx.lisi, 'claim-list', processInstanceId)) as FlowTask;
    const api = outsider.client;
    expectRefusedExactly(await claim(api, task.taskId), FLOW_MESSAGES.taskMissing);
    expectRefusedExactly(await complete(api, task.taskId), FLOW_MESSAGES.taskMissing);
    expectRefusedExactly(await api.get(`${F}/work/task-detail`, { taskId: task.taskId }), FLOW_MESSAGES.taskMissing);
    expectRefused(await api.get(`${F}/process/history-flow-list`, { processInstanceId }), '流程实例不存在或无权查看');
    expectRefused(await api.get(`${F}/process/diagram`, { processInstanceId }), '流程实例不存在或无权查看');
    expectRefused(await api.get(`${LEAVE}/detail`, { businessId: id }), '请假申请不存在或无权查看');
    expectRefused(await api.post(`${F}/follow/delete-process-instance`, { processInstanceId, deleteReason: 'x' }), '流程实例不存在或无权查看');
    expect(expectOk(await api.get<PageData>(`${F}/follow/list`, { processInstanceId })).total).toBe(0);
    expect(await tasksOf(api, 'claim-list')).toEqual([]);
    // The same instance is not the operator's business either: not involved, no flow_follow.
    expectRefused(await ctx.operator.get(`${F}/process/history-flow-list`, { processInstanceId }), '流程实例不存在或无权查看');
    // Deleting it is the follow-up's: the tenant's administrator ends it, and its task goes.
    expectRefused(await ctx.demo.post(`${F}/follow/delete-process-instance`, { processInstanceId }), '请输入删除原因');
    expectOk(await ctx.demo.post(`${F}/follow/delete-process-instance`, { processInstanceId, deleteReason: '重复申请' }));
    expect(await instanceOf(ctx.demo, processInstanceId)).toMatchObject({ state: 4, deleteReason: '重复申请' });
    expectRefusedExactly(await claim(ctx.lisi, task.taskId), FLOW_MESSAGES.alreadyDone);
  });

  it('answers bad input with a message, never a 500', async () => {
    const start = (body: Record<string, unknown>) => ctx.zhangsan.post(`${LEAVE}/start-process`, body);
    const form = { processDefinitionId: leaveId, startTime: '2026-12-01 09:00:00', endTime: '2026-12-02 09:00:00', reason: '探亲' };
    expectRefused(await start({ ...form, processDefinitionId: undefined }), '请选择流程');
    expectRefused(await start({ ...form, processDefinitionId: '42' }), '流程定义不存在或无权操作');
    expectRefused(await start({ ...form, startTime: 'tomorrow' }), '请选择开始时间');
    expectRefused(await start({ ...form, endTime: '2026-11-30 09:00:00' }), '结束时间应晚于开始时间');
    expectRefused(await start({ ...form, reason: ' ' }), '请输入请假理由');
    expectRefused(await start({ ...form, taskUser: '123' }), '审批人不存在');
    expectRefusedExactly(await complete(ctx.lisi, 'abc'), FLOW_MESSAGES.taskMissing);
    expectRefusedExactly(await complete(ctx.lisi, '99999'), FLOW_MESSAGES.taskMissing);
    const { processInstanceId } = await startLeave(ctx.zhangsan, leaveId, 1);
    const task = (await taskIn(ctx.lisi, 'claim-list', processInstanceId)) as FlowTask;
    expectRefused(await complete(ctx.lisi, task.taskId, true, undefined, { 'bad name': 1 }), '流程变量名不合法');
    expectRefused(await ctx.lisi.post(`${F}/work/complete-task`, { taskId: task.taskId, variables: [1] }), '流程变量应为对象');
    expectRefused(await ctx.lisi.post(`${F}/work/complete-task`, { taskId: task.taskId, processInstanceId: '1' }), FLOW_MESSAGES.taskMissing);
    // Still open, unchanged.
    expect(await taskIn(ctx.lisi, 'claim-list', processInstanceId)).toMatchObject({ status: 'claim' });
  });
});
