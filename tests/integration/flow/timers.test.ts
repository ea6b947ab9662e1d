import { expect, it } from 'vitest';
import type { FlowHistoryStep, FlowTask } from '../../../resources/wire/flow';
import { signedIn } from '../../support/client';
import { expectOk } from '../../support/envelope';
import type { TestServer } from '../../support/server';
import { ACCOUNTS, onEveryStore } from '../../support/suite';
import { claim, complete, definitionOf, F, instanceOf, startLeave, taskIn } from './support';

const HOUR = 3_600_000;

/** The platform's clock as the workflow reads it: moved by the test, never by waiting. */
const START = new Date(2026, 11, 1, 8, 0, 0).getTime();
const clock = { at: START, now: () => clock.at };

onEveryStore('workflow timers and restarts', { signIn: ['demo', 'zhangsan', 'lisi'], app: { flowClock: clock } }, (ctx) => {
  const signIn = async (server: TestServer, name: 'demo' | 'zhangsan' | 'lisi') => {
    const { account, password, tenantId } = ACCOUNTS[name];
    return signedIn(server.url, account, password, tenantId);
  };

  it('escalates a task left overdue by its boundary timer, by the platform clock', async () => {
    clock.at = START;
    const leave = await definitionOf(ctx.demo, 'leave');
    const { processInstanceId } = await startLeave(ctx.zhangsan, leave.id, 2);
    const task = (await taskIn(ctx.lisi, 'claim-list', processInstanceId)) as FlowTask;
    expect(task.dueTime).toBe('2026-12-02 08:00:00');
    const timers = ctx.server.app.workflow.timers;

    clock.at += 23 * HOUR;
    expect(await timers.fireDue()).toBe(0);
    expect(await taskIn(ctx.lisi, 'claim-list', processInstanceId)).toBeDefined();

    clock.at += 2 * HOUR;
    expect(await timers.fireDue()).toBe(1);
    expect(await taskIn(ctx.lisi, 'claim-list', processInstanceId)).toBeUndefined();
    const escalated = (await taskIn(ctx.demo, 'claim-list', processInstanceId)) as FlowTask;
    expect(escalated.taskName).toBe('上级审批(超时上报)');
    const steps = expectOk(await ctx.zhangsan.get<FlowHistoryStep[]>(`${F}/process/history-flow-list`, { processInstanceId }));
    expect(steps.map((s) => [s.historyActivityId, s.reason, s.historyActivityDurationTime])).toEqual([
      ['start', null, '0秒'],
      ['deptLeaderAudit', 'timeout', '1天1小时'],
      ['auditOverdue', null, '0秒'],
      ['escalatedAudit', null, ''],
    ]);
    // The escalated approval decides like the first would have.
    expectOk(await complete(ctx.demo, escalated.taskId, true, '补批'));
    expect((await instanceOf(ctx.demo, processInstanceId)).state).toBe(3);
    expect(await timers.fireDue()).toBe(0);
  });

  it('resumes every instance where it was after a restart, timers included', async () => {
    const leave = await definitionOf(ctx.demo, 'leave');
    const waiting = await startLeave(ctx.zhangsan, leave.id, 1);
    const claimed = await startLeave(ctx.zhangsan, leave.id, 1);
    const claimedTask = (await taskIn(ctx.lisi, 'claim-list', claimed.processInstanceId)) as FlowTask;
    expectOk(await claim(ctx.lisi, claimedTask.taskId));

    const server = await ctx.server.restart();
    try {
      const [lisi, demo] = [await signIn(server, 'lisi'), await signIn(server, 'demo')];
      // The claimed task is still lisi's, and completing it moves the process on from where it was.
      expect(await taskIn(lisi, 'todo-list', claimed.processInstanceId)).toMatchObject({ taskId: claimedTask.taskId, status: 'todo' });
      expectOk(await complete(lisi, claimedTask.taskId));
      expect((await instanceOf(demo, claimed.processInstanceId)).state).toBe(3);
      // The other one's timer survived the restart and escalates when due.
      clock.at += 25 * HOUR;
      expect(await server.app.workflow.timers.fireDue()).toBe(1);
      expect(await taskIn(demo, 'claim-list', waiting.processInstanceId)).toMatchObject({ taskName: '上级审批(超时上报)' });
    } finally {
      await server.stop();
    }
  });
});
