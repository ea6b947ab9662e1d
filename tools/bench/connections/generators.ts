import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { type Command, emptyReport, type GeneratorReport, type Reply } from './protocol';
import { nodeArgsFrom } from '../support/node-args';

/** The load-generator processes of the connections benchmark (devices.ts), driven and summed up as one. */
export interface Generators {
  count: number;
  /** The latest reports: counts summed, the first CONNECT the earliest, the other times the latest. */
  total(): GeneratorReport;
  /** Each process's CPU time so far (ms), to tell whether a generator was the bottleneck. */
  cpuEach(): number[];
  connect(codes: string[]): void;
  publish(startAt: number, periodMs: number, slots: number): void;
  /** Resolves once every process counts from the restart mark. */
  markRestart(): Promise<void>;
  stop(): Promise<void>;
}

/** How long a generator may take to close its clients and answer before it is killed. */
const STOP_MS = 15_000;

function combine(reports: GeneratorReport[]): GeneratorReport {
  const total = emptyReport();
  for (const r of reports) {
    for (const key of ['devices', 'connected', 'everConnected', 'published', 'acked', 'failed', 'dropped', 'back', 'backAcked', 'late', 'cpuMs'] as const) total[key] += r[key];
    for (const key of ['lastConnackAt', 'lastBackAt', 'lastBackAckedAt', 'worstLateMs'] as const) total[key] = Math.max(total[key], r[key]);
    if (r.firstConnectAt) total.firstConnectAt = total.firstConnectAt ? Math.min(total.firstConnectAt, r.firstConnectAt) : r.firstConnectAt;
    for (const [message, n] of Object.entries(r.errors)) total.errors[message] = (total.errors[message] ?? 0) + n;
  }
  return total;
}

const replyOf = (child: ChildProcess, type: Reply['type']) =>
  new Promise<void>((resolve) => {
    const listener = (message: Reply) => {
      if (message.type !== type) return;
      child.off('message', listener);
      resolve();
    };
    child.on('message', listener);
  });

/**
 * `nice`: the generators' scheduling priority (0 to 19). A real fleet's devices retry, connect and publish on their
 * own processors; here they share the server's cores, and at a restart their refused retries alone take 1-1.9 of them.
 * Niced, they yield the cores to the server first, as devices elsewhere would; their own work is then the late side.
 */
export async function startGenerators(count: number, mqttUrl: string, tenant: string, password: string, connectTimeoutMs: number, nice: number): Promise<Generators> {
  const script = join(import.meta.dirname, 'devices.ts');
  const execArgv = [...nodeArgsFrom('BENCH_GENERATOR_NODE_ARGS'), '--import', 'tsx'];
  const children = Array.from({ length: count }, () => fork(script, [mqttUrl, tenant, password, String(connectTimeoutMs)], { execArgv }));
  for (const child of children) if (child.pid) setPriority(child.pid, nice);
  const latest = children.map(() => emptyReport());
  for (const [i, child] of children.entries()) {
    child.on('message', (message: Reply) => {
      if (message.type === 'report') latest[i] = message;
    });
  }
  await Promise.all(children.map((child) => replyOf(child, 'ready')));
  const send = (child: ChildProcess, command: Command) => void child.send(command);
  return {
    count,
    total: () => combine(latest),
    cpuEach: () => latest.map((r) => r.cpuMs),
    connect(codes) {
      const size = Math.ceil(codes.length / count);
      for (const [i, child] of children.entries()) send(child, { cmd: 'connect', codes: codes.slice(i * size, (i + 1) * size), firstSlot: i * size });
    },
    publish: (startAt, periodMs, slots) => {
      for (const child of children) send(child, { cmd: 'publish', startAt, periodMs, slots });
    },
    async markRestart() {
      const marked = children.map((child) => replyOf(child, 'marked'));
      for (const child of children) send(child, { cmd: 'restart' });
      await Promise.all(marked);
    },
    async stop() {
      await Promise.all(children.map((child) => stopOne(child)));
    },
  };
}

async function stopOne(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ cmd: 'stop' } satisfies Command);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
  await exited;
  clearTimeout(timer);
}
