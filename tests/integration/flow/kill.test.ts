import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FlowTask } from '../../../resources/wire/flow';
import { signedIn } from '../../support/client';
import { createPgDatabase, storeKinds } from '../../support/databases';
import { expectOk } from '../../support/envelope';
import { freePort, kill, startProcess, terminate } from '../../support/process';
import { ACCOUNTS } from '../../support/suite';
import { claim, complete, definitionOf, instanceOf, startLeave, taskIn } from './support';

/** Three process starts (the first seeds): slow on a busy 2-core machine. */
const TEST_TIMEOUT_MS = 180_000;

describe.each(await storeKinds())('workflow after kill -9 (%s)', (kind) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-flow-kill-'));
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes every instance where it was: a waiting task, a claimed one, and the step after', async () => {
    const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
    if (pg) cleanups.push(() => pg.drop());
    const port = await freePort();
    const env = {
      PORT: String(port), MQTT_PORT: String(await freePort()), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SIMULATE: '0',
      JWT_SECRET: 'test-secret-0123456789abcdef', CONSOLE_DIR: join(dataDir, 'no-console'), ...(pg ? { DATABASE_URL: pg.url } : {}),
    };
    const url = `http://127.0.0.1:${port}`;
    const as = (name: 'demo' | 'zhangsan' | 'lisi') => signedIn(url, ACCOUNTS[name].account, ACCOUNTS[name].password, ACCOUNTS[name].tenantId);

    const first = await startProcess(env);
    cleanups.push(() => first.child.kill('SIGKILL'));
    const [zhangsan, lisi] = [await as('zhangsan'), await as('lisi')];
    const leave = await definitionOf(await as('demo'), 'leave');
    const waiting = await startLeave(zhangsan, leave.id, 1);
    const claimed = await startLeave(zhangsan, leave.id, 5);
    const task = (await taskIn(lisi, 'claim-list', claimed.processInstanceId)) as FlowTask;
    expectOk(await claim(lisi, task.taskId));
    expect(await kill(first)).toMatchObject({ signal: 'SIGKILL' });

    // The second is the build a deployment runs (build/server.mjs): its engine worker takes the steps after.
    const second = await startProcess(env, { built: true });
    cleanups.push(() => second.child.kill('SIGKILL'));
    const [lisi2, demo2] = [await as('lisi'), await as('demo')];
    expect(await taskIn(lisi2, 'claim-list', waiting.processInstanceId)).toMatchObject({ taskName: '部门领导审批', status: 'claim' });
    expect(await taskIn(lisi2, 'todo-list', claimed.processInstanceId)).toMatchObject({ taskId: task.taskId, status: 'todo' });
    // The claimed leave goes on from its step: approved for five days, it reaches the general manager.
    expectOk(await complete(lisi2, task.taskId, true, '同意'));
    expect(await taskIn(demo2, 'claim-list', claimed.processInstanceId)).toMatchObject({ taskName: '总经理审批' });
    expect((await instanceOf(demo2, claimed.processInstanceId)).currentTasks).toBe('总经理审批');
    expect(await terminate(second, 10_000)).toMatchObject({ code: 0 });
  }, TEST_TIMEOUT_MS);
});
