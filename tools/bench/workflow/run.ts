import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedId } from '../../../server/db/seed/ids';
import { describeMachine } from '../support/machine';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { onEveryStore, percentile } from '../support/stores';

/**
 * The workflow at 10,000 running instances (docs/workflow.md, docs/benchmarks.md), against the real server process:
 * how fast instances start; todo-list, claim-list and follow/list p50/p99 with them all waiting; complete-task
 * throughput with 16 callers at once (each completion a real step: recover, signal, save, a new task); and the
 * server's resident memory before and after — the instances are rows, not engines held in memory.
 * Targets: todo-list p99 < 50 ms; complete-task ≥ 200 tasks/s on SQLite.
 * Usage: npm run bench:workflow [-- --instances 10000 --requests 200 --complete 2000 --concurrency 16]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const INSTANCES = Number(args.get('--instances') ?? 10_000);
const REQUESTS = Number(args.get('--requests') ?? 200);
const COMPLETE = Number(args.get('--complete') ?? 2000);
const CONCURRENCY = Number(args.get('--concurrency') ?? 16);
const TENANT = '100001';
const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** Two reviews in a row: the first to `${assignee}` when the starter names one, else to the engineers to claim. */
const PROCESS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions id="bench_defs" xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="http://vigil.bench">
  <process id="bench_review" name="基准复核" isExecutable="true">
    <startEvent id="start" />
    <userTask id="review" name="复核" camunda:assignee="\${assignee}" camunda:candidateGroups="role:engineer" />
    <boundaryEvent id="overdue" attachedToRef="review"><timerEventDefinition><timeDuration>P7D</timeDuration></timerEventDefinition></boundaryEvent>
    <userTask id="approve" name="批准" camunda:assignee="\${applyUser}" />
    <endEvent id="end" />
    <endEvent id="lapsed" />
    <sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <sequenceFlow id="f2" sourceRef="review" targetRef="approve" />
    <sequenceFlow id="f3" sourceRef="approve" targetRef="end" />
    <sequenceFlow id="f4" sourceRef="overdue" targetRef="lapsed" />
  </process>
</definitions>`;

type Envelope<T> = { code: number; msg: string; data: T };

class Client {
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  static async signIn(url: string, account: string, password: string): Promise<Client> {
    const query = new URLSearchParams({ tenantId: TENANT, username: account, password, grant_type: 'password', scope: 'all', type: 'account' });
    const response = await fetch(`${url}/api/blade-auth/oauth/token?${query}`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': TENANT } });
    const body = (await response.json()) as { access_token?: string };
    if (!body.access_token) throw new Error(`sign-in of ${account} failed: ${JSON.stringify(body)}`);
    return new Client(url, body.access_token);
  }

  async call<T>(method: 'GET' | 'POST', path: string, query: Record<string, string> = {}, body?: unknown): Promise<T> {
    const url = new URL(`/api${path}`, this.url);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { authorization: BASIC, 'blade-auth': `bearer ${this.token}` };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const reply = (await (await fetch(url, { method, headers, body: payload })).json()) as Envelope<T>;
    if (reply.code !== 200) throw new Error(`${path}: ${reply.msg}`);
    return reply.data;
  }
}

/** Runs `work` over `items` with `concurrency` callers at once; returns the seconds it took. */
async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

async function timeIt(label: string, run: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 10; i += 1) await run(); // warm-up
  const spent: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const started = performance.now();
    await run();
    spent.push(performance.now() - started);
  }
  spent.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(48)} p50 ${percentile(spent, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(spent, 99).toFixed(1).padStart(6)} ms`);
}

/** The server process's resident memory, MB (Linux). */
const rssOf = (server: ServerProcess) => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-workflow-'));
  const server = await startServerProcess({ DATA_DIR: dataDir, DEMO: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const [admin, engineer] = [await Client.signIn(server.url, 'admin', 'admin'), await Client.signIn(server.url, 'zhangsan', 'Vigil@2026')];
    const form = new FormData();
    form.append('files', new Blob([PROCESS], { type: 'text/xml' }), 'bench_review.bpmn');
    const [definition] = await admin.call<Array<{ id: string }>>('POST', '/blade-flow/manager/deploy-upload', {}, form);
    const adminId = seedId(`user:${TENANT}:admin`);
    const idle = rssOf(server);

    // Half the instances wait in the administrator's todo list, half in the engineers' claim list.
    const starts = Array.from({ length: INSTANCES }, (_, i) => i);
    const startSeconds = await inParallel(starts, CONCURRENCY, async (i) => {
      const variables = i % 2 === 0 ? { assignee: adminId } : {};
      await admin.call('POST', '/blade-flow/process/start-process', {}, { processDefinitionId: definition.id, title: `基准 ${i}`, variables });
    });
    const loaded = rssOf(server);
    console.log(`\n${store}: ${INSTANCES} instances started in ${startSeconds.toFixed(1)} s (${(INSTANCES / startSeconds).toFixed(0)}/s, ${CONCURRENCY} callers)`);

    console.log(`  over HTTP, ${REQUESTS} sequential requests each, ${INSTANCES} instances waiting:`);
    await timeIt(`todo-list (${INSTANCES / 2} open tasks of the caller)`, () => admin.call('GET', '/blade-flow/work/todo-list').then(() => undefined));
    await timeIt(`claim-list (${INSTANCES / 2} offered to the caller's role)`, () => engineer.call('GET', '/blade-flow/work/claim-list').then(() => undefined));
    await timeIt('follow/list (every instance of the tenant)', () => admin.call('GET', '/blade-flow/follow/list').then(() => undefined));
    await timeIt('todo-list, page 100 of 20', () => admin.call('GET', '/blade-flow/work/todo-list', { current: '100', size: '20' }).then(() => undefined));

    const ids: string[] = [];
    for (let page = 1; ids.length < COMPLETE; page += 1) {
      const { records } = await admin.call<{ records: Array<{ taskId: string; taskDefinitionKey: string }> }>('GET', '/blade-flow/work/todo-list', { current: String(page), size: '1000' });
      if (records.length === 0) break;
      ids.push(...records.filter((r) => r.taskDefinitionKey === 'review').map((r) => r.taskId));
    }
    const tasks = ids.slice(0, COMPLETE);
    const seconds = await inParallel(tasks, CONCURRENCY, async (taskId) => {
      await admin.call('POST', '/blade-flow/work/complete-task', {}, { taskId, pass: true, comment: '同意' });
    });
    console.log(`  complete-task: ${tasks.length} tasks in ${seconds.toFixed(1)} s = ${(tasks.length / seconds).toFixed(0)} tasks/s (${CONCURRENCY} callers; each a step and a new task)`);
    console.log(`  server RSS: ${idle.toFixed(0)} MB idle with the process deployed, ${loaded.toFixed(0)} MB with ${INSTANCES} instances waiting, ${rssOf(server).toFixed(0)} MB after the completions`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // RSS says little of what is held (V8 collects lazily): the heap after a full collection, in a process of its own.
  const heap = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'tools/bench/workflow/heap.ts', '--instances', String(INSTANCES), ...(databaseUrl ? ['--database-url', databaseUrl] : [])], { encoding: 'utf8' });
  process.stdout.write(heap.stdout || heap.stderr);
}

console.log(describeMachine());
await onEveryStore(bench);
