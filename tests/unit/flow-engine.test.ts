// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileBpmn } from '../../server/flow/bpmn';
import { runStep, type StepEvent } from '../../server/flow/engine';

const leave = await compileBpmn(readFileSync(new URL('../../server/flow/processes/leave.bpmn20.xml', import.meta.url), 'utf8'));
const summary = (events: readonly StepEvent[]) => events.map((e) => `${e.phase} ${e.elementId}`);

/** One step at a time on bpmn-engine, the state saved between (server/flow/engine.ts). */
describe('an engine step', () => {
  it('starts, waits at the first task with its escalating timer, and saves the state without the document', async () => {
    const started = await runStep(leave, null, { kind: 'start', variables: { applyUser: 'u1', days: 2 } });
    expect(summary(started.events)).toEqual(['end start', 'start deptLeaderAudit']);
    expect(started.timers).toEqual([{ elementId: 'auditOverdue', executionId: expect.any(String), delay: expect.any(Number) }]);
    // PT24H, as the engine reads it at the time of the step (a millisecond either way).
    expect(Math.abs(started.timers[0].delay - 24 * 3_600_000)).toBeLessThan(1000);
    expect(started.ended).toBe(false);
    expect(started.state).not.toContain('"source"');
  });

  it('completes a task from the saved state: the gateway decides on the variables, the timer goes', async () => {
    const started = await runStep(leave, null, { kind: 'start', variables: { applyUser: 'u1', days: 5 } });
    const task = started.events[1].executionId;
    const approved = await runStep(leave, started.state, { kind: 'complete', executionId: task, variables: { pass: true } });
    // Resuming tells the waiting task again: it is not a new one.
    expect(summary(approved.events)).toEqual(['end deptLeaderAudit', 'end auditGateway', 'start bossAudit']);
    expect(approved.timers).toEqual([]);
    const rejected = await runStep(leave, started.state, { kind: 'complete', executionId: task, variables: { pass: false } });
    expect(summary(rejected.events)).toEqual(['end deptLeaderAudit', 'end auditGateway', 'start adjust']);
  });

  it('fires a timer: the task it guards is cut off and the escalation begins', async () => {
    const started = await runStep(leave, null, { kind: 'start', variables: { applyUser: 'u1', days: 2 } });
    const fired = await runStep(leave, started.state, { kind: 'timers', executionIds: [started.timers[0].executionId] });
    expect(summary(fired.events)).toEqual(['cancel deptLeaderAudit', 'end auditOverdue', 'start escalatedAudit']);
    expect(fired.timers).toEqual([]);
  });

  it('ends, and refuses what it cannot do', async () => {
    const started = await runStep(leave, null, { kind: 'start', variables: { applyUser: 'u1', days: 1 } });
    const done = await runStep(leave, started.state, { kind: 'complete', executionId: started.events[1].executionId, variables: { pass: true } });
    expect(done).toMatchObject({ ended: true, state: null });
    expect(summary(done.events).at(-1)).toBe('end approved');
    await expect(runStep(leave, started.state, { kind: 'complete', executionId: 'nope', variables: {} })).rejects.toThrow('任务 nope 不在等待中');
    // No way out of the gateway: days is not a number, neither condition holds.
    await expect(runStep(leave, started.state, { kind: 'complete', executionId: started.events[1].executionId, variables: { pass: true, days: 'x' } })).rejects.toThrow(/^流程无法继续/);
  });
});
