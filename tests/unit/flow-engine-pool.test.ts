// @vitest-environment node
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../../server/flow/engine-pool';

const leave = readFileSync(new URL('../../server/flow/processes/leave.bpmn20.xml', import.meta.url), 'utf8');
/** A timer cycle of no delay: the engine would fire it for ever within one step. */
const spinning = `<?xml version="1.0" encoding="UTF-8"?>
<definitions id="d" xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://vigil.test">
  <process id="spin" isExecutable="true">
    <startEvent id="start" />
    <userTask id="t" name="t" />
    <boundaryEvent id="b" attachedToRef="t" cancelActivity="false"><timerEventDefinition><timeCycle>R/PT0S</timeCycle></timerEventDefinition></boundaryEvent>
    <endEvent id="e" /><endEvent id="e2" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="t" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><sequenceFlow id="f3" sourceRef="b" targetRef="e2" />
  </process>
</definitions>`;

describe('engine steps on worker threads', () => {
  const pool = new EnginePool(1, 3000);
  afterAll(() => pool.close());
  const start = (id: string, xml: string) => pool.run(id, xml, null, { kind: 'start', variables: { applyUser: 'u1', days: 1 } });

  it('runs a step on a thread and answers its result', async () => {
    const result = await start('leave', leave);
    expect(result.events.map((e) => `${e.phase} ${e.elementId}`)).toEqual(['end start', 'start deptLeaderAudit']);
  });

  it('stops a step that never comes to a wait, and the next step runs on a new thread', async () => {
    await expect(start('spin', spinning)).rejects.toThrow('流程步骤超过3秒未完成,已中止');
    expect((await start('leave', leave)).ended).toBe(false);
  }, 20_000);
});
