import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../server/db/database';
import { PASSWORD, provisionFleet, TENANT } from '../support/fleet';
import { describeMachine } from '../support/machine';
import { type ServerProcess, startServerProcess } from '../support/server-process';
import { onEveryStore } from '../support/stores';
import { type Generators, startGenerators } from './generators';
import { PROBE_EVERY_MS, type Probe, type ProbeFigures, SLOW_MS, startProbe } from './probe';
import { clock, LATE_MS } from './protocol';

/**
 * Connections (#19): N direct devices (default 20,000), each its own MQTT identity, connect to the real server's
 * embedded broker (its own process) from load-generator processes (devices.ts); then every device publishes one
 * QoS 1 reading every 20 s for --seconds while a probe device publishes every PROBE_EVERY_MS; then the server is restarted
 * (SIGTERM, started again on the same ports and store) and the devices reconnect by themselves, as real ones do.
 * Prints connects/s and the time until all are connected, the server's RSS per connection, the probe's
 * publish→PUBACK p50/p99 while all publish and while they come back, and the time until every device is connected
 * and has had a reading acknowledged after the restart (a device sends one as soon as it is back; waiting for its
 * next 20-s turn would measure the schedule), and from the store when the server received the last device's first
 * reading after the restart; and, for both phases, how many of the generators' periodic publishes went out more than
 * 100 ms late (a generator short of CPU sends its overdue readings in one burst, which the probe then waits behind).
 * Targets on a 2-core machine: 20,000 connections on one process,
 * ≥ 2,000 connects/s, RSS ≤ 20 KB per connection, probe p99 < 50 ms throughout, all back within 15 s of a restart.
 * CONNACKs are awaited up to --connect-timeout s, so a slow server is measured rather than thrashed by retries.
 * N is clamped to what the server's open-file limit allows (the server starts with it raised to the hard limit).
 * SQLite, then PostgreSQL when reachable (BENCH_STORE picks one).
 * The identities are provisioned with the verifiers their first CONNECT makes (docs/mqtt.md "Credentials"), as a fleet
 * that has connected once has them; --first-connect leaves them out, to measure that once-only migration by scrypt.
 * Usage: npm run bench:connections [-- --devices 20000 --seconds 60 --generators 4 --connect-timeout 600 --timeout 900 --generator-nice 10 --progress 5 --first-connect]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const REQUESTED = Number(args.get('--devices') ?? 20_000);
const SECONDS = Number(args.get('--seconds') ?? 60);
const GENERATORS = Number(args.get('--generators') ?? 4);
const CONNECT_TIMEOUT_MS = Number(args.get('--connect-timeout') ?? 600) * 1000;
/** How long connecting all, or all coming back, may take before the benchmark reports what it has. */
const TIMEOUT_MS = Number(args.get('--timeout') ?? 900) * 1000;
/** Identities without their verifiers: every device's first CONNECT after an upgrade (one scrypt check each). */
const FIRST_CONNECT = process.argv.includes('--first-connect');
/** The load generators' nice value (generators.ts): 0 lets them compete with the server for the cores. */
const GENERATOR_NICE = Number(args.get('--generator-nice') ?? 10);
const PERIOD_MS = 20_000;
const PROBE = 'BC-PROBE';
/** Open files a server needs besides its MQTT sockets (database, logs, HTTP, threads), and a generator besides its clients. */
const SERVER_FD_MARGIN = 400;
const GENERATOR_FD_MARGIN = 100;
/** How often a phase prints its progress (s). */
const PROGRESS_MS = Number(args.get('--progress') ?? 5) * 1000;
/** Lets a started server settle (first timers, caches) before its memory is read. */
const SETTLE_MS = 3_000;
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Ctrl-C ends the wait in progress, so that the server, the generators, the data and the database are cleaned up. */
let interrupted = false;
process.once('SIGINT', () => {
  console.log('  interrupted: cleaning up');
  interrupted = true;
});

function openFileLimits(pid: number | 'self'): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  const value = (text?: string) => (text === undefined || text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text));
  return { soft: value(line?.[1]), hard: value(line?.[2]) };
}

/** N, clamped so that one server process can hold every device and the probe. */
function fleetSize(): number {
  const { hard } = openFileLimits('self');
  const most = hard - SERVER_FD_MARGIN - 1;
  if (REQUESTED <= most) return REQUESTED;
  console.log(`N clamped to ${most}: this machine's open-file limit is ${hard} per process`);
  return most;
}

/** --generators, or more when one could not hold its share of the clients (they inherit this process's limit). */
function generatorCount(devices: number): number {
  const { soft } = openFileLimits('self');
  const needed = Math.ceil(devices / (soft - GENERATOR_FD_MARGIN));
  if (needed > GENERATORS) console.log(`${needed} load generators instead of ${GENERATORS}: ${soft} open files per process`);
  return Math.max(1, Math.min(devices, Math.max(GENERATORS, needed)));
}

interface Usage {
  cpuS: number;
  rssMb: number;
}

/** A process's CPU time and resident memory (/proc), undefined once it is gone. */
function usageOf(pid: number): Usage | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3, the state
    const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return { cpuS: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S, rssMb: rssKb / 1024 };
  } catch {
    return undefined;
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** A progress line's tail: the server's and the generators' CPU (cores) since the last line, the server's RSS. */
function meter(server: () => ServerProcess, generators: Generators): () => string {
  let last = { at: performance.now(), server: usageOf(server().pid)?.cpuS ?? 0, generators: sum(generators.cpuEach()) };
  return () => {
    const now = { at: performance.now(), server: usageOf(server().pid)?.cpuS ?? 0, generators: sum(generators.cpuEach()) };
    const seconds = (now.at - last.at) / 1000;
    const serverCores = Math.max(0, now.server - last.server) / seconds;
    const generatorCores = (now.generators - last.generators) / 1000 / seconds;
    last = now;
    const rss = usageOf(server().pid)?.rssMb;
    return `server ${rss === undefined ? 'not running' : `${serverCores.toFixed(2)} cores, RSS ${rss.toFixed(0)} MB`}; load generators ${generatorCores.toFixed(2)} cores`;
  };
}

/** Polls until `done()`, printing `progress()` every few seconds; false when `timeoutMs` passed first. */
async function waitUntil(done: () => boolean, progress: () => string, timeoutMs: number): Promise<boolean> {
  const started = performance.now();
  let next = started + PROGRESS_MS;
  while (!done()) {
    if (interrupted) throw new Error('interrupted');
    if (performance.now() - started > timeoutMs) return false;
    await sleep(100);
    if (performance.now() >= next) {
      console.log(`    ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s  ${progress()}`);
      next += PROGRESS_MS;
    }
  }
  return true;
}

interface ConnectFigures {
  connected: number;
  seconds: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  serverCores: number;
  /** Each generator's CPU over the phase, in cores. */
  generatorCores: number[];
}

async function connectPhase(server: ServerProcess, generators: Generators, codes: string[]): Promise<ConnectFigures> {
  const before = usageOf(server.pid) as Usage;
  const cpuBefore = generators.cpuEach();
  const started = performance.now();
  generators.connect(codes);
  const tail = meter(() => server, generators);
  let previous = 0;
  const progress = () => {
    const connected = generators.total().everConnected;
    const line = `connecting: ${connected} / ${codes.length} connected (${((connected - previous) / (PROGRESS_MS / 1000)).toFixed(0)}/s); ${tail()}`;
    previous = connected;
    return line;
  };
  await waitUntil(() => generators.total().everConnected >= codes.length, progress, TIMEOUT_MS);
  const wall = (performance.now() - started) / 1000;
  const after = usageOf(server.pid) as Usage;
  const total = generators.total();
  return {
    connected: total.everConnected,
    seconds: (total.lastConnackAt - total.firstConnectAt) / 1000,
    rssBeforeMb: before.rssMb,
    rssAfterMb: after.rssMb,
    serverCores: (after.cpuS - before.cpuS) / wall,
    generatorCores: generators.cpuEach().map((ms, i) => (ms - cpuBefore[i]) / 1000 / wall),
  };
}

/** Periodic publishes the load generators sent more than LATE_MS after their turn, and the latest of them. */
interface Lateness {
  late: number;
  worstLateMs: number;
}

interface SteadyFigures extends Lateness {
  from: number;
  to: number;
  published: number;
  acked: number;
  failed: number;
  serverCores: number;
  rssMb: number;
}

async function steadyPhase(server: ServerProcess, generators: Generators, devices: number): Promise<SteadyFigures> {
  const from = clock() + 1000;
  const to = from + SECONDS * 1000;
  const before = generators.total();
  const cpuBefore = usageOf(server.pid) as Usage;
  generators.publish(from, PERIOD_MS, devices);
  const tail = meter(() => server, generators);
  const progress = () => `publishing: ${generators.total().acked - before.acked} readings acknowledged; ${tail()}`;
  await waitUntil(() => clock() >= to, progress, Number.POSITIVE_INFINITY);
  const after = generators.total();
  const usage = usageOf(server.pid) as Usage;
  return {
    from,
    to,
    published: after.published - before.published,
    acked: after.acked - before.acked,
    failed: after.failed - before.failed,
    late: after.late,
    worstLateMs: after.worstLateMs,
    serverCores: (usage.cpuS - cpuBefore.cpuS) / ((to - from + 1000) / 1000),
    rssMb: usage.rssMb,
  };
}

interface RestartFigures extends Lateness {
  complete: boolean;
  dropped: number;
  back: number;
  backAcked: number;
  stopAt: number;
  stoppedAt: number;
  spawnAt: number;
  runningAt: number;
  lastBackAt: number;
  lastBackAckedAt: number;
  /** How long the restarted server held new connections for its ingestion rather than for the rate (its /metrics). */
  heldSeconds?: number;
}

/** A counter of the server's /metrics, or undefined where it cannot be read. */
async function counter(server: ServerProcess, token: string, name: string): Promise<number | undefined> {
  const response = await fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
  if (!response?.ok) return undefined;
  const line = (await response.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** Stops the server, starts it again where it was and waits for every device to connect and publish again. */
async function restartPhase(server: ServerProcess, env: Record<string, string>, generators: Generators, devices: number): Promise<{ figures: RestartFigures; server: ServerProcess }> {
  await generators.markRestart();
  const stopAt = clock();
  await server.stop();
  const stoppedAt = clock();
  const spawnAt = clock();
  const next = await startServerProcess(env, { port: server.port, mqttPort: server.mqttPort, raiseFileLimit: true });
  const runningAt = clock();
  const tail = meter(() => next, generators);
  const progress = () => {
    const t = generators.total();
    return `coming back: ${t.back} / ${devices} connected, ${t.backAcked} publishing again; ${tail()}`;
  };
  const complete = await waitUntil(() => generators.total().backAcked >= devices && generators.total().back >= devices, progress, TIMEOUT_MS);
  const heldSeconds = await counter(next, env.METRICS_TOKEN, 'vigil_mqtt_admission_held_seconds_total');
  const t = generators.total();
  const figures = { complete, dropped: t.dropped, back: t.back, backAcked: t.backAcked, stopAt, stoppedAt, spawnAt, runningAt, lastBackAt: t.lastBackAt, lastBackAckedAt: t.lastBackAckedAt, late: t.late, worstLateMs: t.worstLateMs, heldSeconds };
  return { figures, server: next };
}

interface Received {
  devices: number;
  lastAt: number;
}

/**
 * The server's side of the restart: how many devices it has received a reading from since the spawn, and when it
 * received the last device's first (wit_collect_data.received_at). The devices' side — their PUBACKs — comes later,
 * by the commit and by the load generators' own turn on the cores.
 */
async function receivedSince(dataDir: string, databaseUrl: string | undefined, since: number): Promise<Received> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  try {
    const firsts = db
      .selectFrom('wit_collect_data')
      .select(['deviceCode', (eb) => eb.fn.min('receivedAt').as('first')])
      .where('tenantId', '=', TENANT)
      .where('receivedAt', '>=', Math.floor(since))
      .where('deviceCode', '!=', PROBE)
      .groupBy('deviceCode');
    const row = await db
      .selectFrom(firsts.as('f'))
      .select((eb) => [eb.fn.countAll().as('devices'), eb.fn.max('f.first').as('lastAt')])
      .executeTakeFirst();
    return { devices: Number(row?.devices ?? 0), lastAt: Number(row?.lastAt ?? 0) };
  } finally {
    await close();
  }
}

const ms = (value: number) => (Number.isNaN(value) ? '—' : `${value.toFixed(1)} ms`);
const s = (value: number) => `${(value / 1000).toFixed(1)} s`;

/**
 * A starved generator (niced, on the server's cores) fires its overdue publish timers at once: the server then gets
 * seconds' worth of readings in one burst, which no device elsewhere would send and which the probe waits behind.
 */
function latenessLine(l: Lateness): string {
  return `load generators: ${l.late} periodic publishes sent more than ${LATE_MS} ms after their turn${l.late ? ` (the latest ${s(l.worstLateMs)} late)` : ''}`;
}

function probeLine(p: ProbeFigures): string {
  return (
    `probe publish→PUBACK p50 ${ms(p.p50)}, p99 ${ms(p.p99)}, max ${ms(p.max)} over ${p.acked} publishes (target p99 < 50 ms); ` +
    `${p.interrupted} interrupted by a lost connection, ${p.timeout} timed out (5 s), ${p.failed} failed, ${p.offline} turns offline`
  );
}

/** Where in the recovery the probe's slow publishes were: the whole seconds after the spawn that had any. */
function slowLine(slow: Map<number, number>): string {
  const seconds = [...slow].sort((a, b) => a[0] - b[0]);
  if (!seconds.length) return `no probe publish over ${SLOW_MS} ms`;
  return `probe publishes over ${SLOW_MS} ms, by second after the spawn: ${seconds.map(([second, n]) => `${second}-${second + 1} s: ${n}`).join(', ')}`;
}

function printConnect(c: ConnectFigures, devices: number): void {
  const cores = c.generatorCores;
  console.log(
    `    connect    ${c.connected} of ${devices} devices in ${c.seconds.toFixed(1)} s, ${(c.connected / c.seconds).toFixed(0)} connects/s (target ≥ 2,000; 20,000 on one process); ` +
      `server ${c.serverCores.toFixed(2)} cores, load generators ${sum(cores).toFixed(2)} cores (busiest ${Math.max(...cores).toFixed(2)})`,
  );
  const perConnectionKb = ((c.rssAfterMb - c.rssBeforeMb) * 1024) / Math.max(1, c.connected);
  console.log(
    `    memory     server RSS ${c.rssBeforeMb.toFixed(1)} MB before, ${c.rssAfterMb.toFixed(1)} MB with all connected: ${perConnectionKb.toFixed(1)} KB per connection (target ≤ 20 KB)`,
  );
}

function printSteady(st: SteadyFigures, probe: ProbeFigures, devices: number): void {
  console.log(`    steady     ${probeLine(probe)}`);
  console.log(
    `               devices: ${st.acked} readings acknowledged of ${st.published} sent (${((devices * SECONDS * 1000) / PERIOD_MS).toFixed(0)} due in ${SECONDS} s), ` +
      `${st.failed} failed; server ${st.serverCores.toFixed(2)} cores, RSS ${st.rssMb.toFixed(1)} MB`,
  );
  console.log(`               ${latenessLine(st)}`);
}

function printRestart(r: RestartFigures, received: Received, probe: ProbeFigures, slow: Map<number, number>, devices: number, firstStartMs: number): void {
  const outcome = r.complete ? 'every device' : `NOT ALL within ${TIMEOUT_MS / 1000} s: ${r.back} of ${devices}, ${r.backAcked} publishing;`;
  console.log(
    `    restart    SIGTERM → exit ${s(r.stoppedAt - r.stopAt)} (${r.dropped} connections dropped), spawn → "Vigil is running" ${s(r.runningAt - r.spawnAt)} (the first start, no device connecting: ${s(firstStartMs)})`,
  );
  console.log(
    `               ${outcome} connected ${s(r.lastBackAt - r.spawnAt)} and publishing again ${s(r.lastBackAckedAt - r.spawnAt)} after the spawn (target ≤ 15 s); ` +
      `${s(r.lastBackAt - r.runningAt)} / ${s(r.lastBackAckedAt - r.runningAt)} after "Vigil is running", ${s(r.lastBackAckedAt - r.stopAt)} after SIGTERM`,
  );
  console.log(`               the server received a reading from ${received.devices} of ${devices} devices, the last one's first ${s(received.lastAt - r.spawnAt)} after the spawn`);
  if (r.heldSeconds !== undefined) console.log(`               new connections held while ingestion was behind: ${r.heldSeconds.toFixed(1)} s in all (vigil_mqtt_admission_held_seconds_total)`);
  console.log(`    recovery   ${probeLine(probe)}`);
  console.log(`               ${slowLine(slow)}`);
  console.log(`               ${latenessLine(r)}`);
}

function printErrors(errors: Record<string, number>): void {
  const list = Object.entries(errors).sort((a, b) => b[1] - a[1]);
  if (list.length) console.log(`    client errors: ${list.map(([message, n]) => `${message} × ${n}`).join('; ')}`);
}

function kernelValue(path: string): string {
  try {
    return readFileSync(`/proc/sys/${path}`, 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const devices = fleetSize();
  const codes = Array.from({ length: devices }, (_, i) => `BC-${String(i).padStart(5, '0')}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-connections-'));
  const secretsKey = randomBytes(32);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SECRETS_KEY: secretsKey.toString('base64'),
    METRICS_TOKEN: randomBytes(16).toString('hex'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  let server: ServerProcess | undefined;
  let generators: Generators | undefined;
  let probe: Probe | undefined;
  try {
    const provisioned = performance.now();
    // A fleet that has connected before has its verifiers; --first-connect measures the once-only scrypt checks instead.
    await provisionFleet(dataDir, databaseUrl, 0, [...codes, PROBE], FIRST_CONNECT ? undefined : secretsKey);
    const spawnAt = clock();
    server = await startServerProcess(env, { raiseFileLimit: true });
    const firstStartMs = clock() - spawnAt;
    const limit = openFileLimits(server.pid).soft;
    console.log(
      `  ${store}: ${devices} devices and the probe provisioned in ${s(performance.now() - provisioned)}; the server may open ${limit} files` +
        `${limit < devices + SERVER_FD_MARGIN ? ' — TOO FEW for every device' : ''}`,
    );
    const mqttUrl = `mqtt://127.0.0.1:${server.mqttPort}`;
    generators = await startGenerators(generatorCount(devices), mqttUrl, TENANT, PASSWORD, CONNECT_TIMEOUT_MS, GENERATOR_NICE);
    await sleep(SETTLE_MS);
    probe = await startProbe(mqttUrl, TENANT, PROBE, PASSWORD, CONNECT_TIMEOUT_MS);
    const connect = await connectPhase(server, generators, codes);
    printConnect(connect, devices);
    const steady = await steadyPhase(server, generators, devices);
    const restart = await restartPhase(server, env, generators, connect.connected);
    server = restart.server;
    const received = await receivedSince(dataDir, databaseUrl, restart.figures.spawnAt);
    await probe.settled();
    printSteady(steady, probe.figures(steady.from, steady.to), devices);
    const recoveryEnd = restart.figures.lastBackAckedAt || clock();
    const slow = probe.slowBySecond(restart.figures.spawnAt, restart.figures.stopAt, recoveryEnd);
    printRestart(restart.figures, received, probe.figures(restart.figures.stopAt, recoveryEnd), slow, connect.connected, firstStartMs);
    printErrors(generators.total().errors);
    // The machine may be shared: what else ran beside the benchmark.
    console.log(`    load average (1, 5, 15 min) at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);
  } finally {
    await probe?.stop();
    await generators?.stop();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
// The kernel's accept queue caps the broker's listen backlog: a fleet larger than it, reconnecting at once, loses
// handshakes that TCP retries only after growing pauses (docs/operations.md "Sizes").
console.log(`net.core.somaxconn ${kernelValue('net/core/somaxconn')}, net.ipv4.tcp_max_syn_backlog ${kernelValue('net/ipv4/tcp_max_syn_backlog')}`);
console.log(
  `Connections benchmark: ${REQUESTED} direct devices requested, each its own MQTT identity (3.1.1, clean session, keep-alive 60 s), ` +
    `one QoS 1 reading every ${PERIOD_MS / 1000} s each for ${SECONDS} s, a probe every ${PROBE_EVERY_MS} ms, then a restart of the server; load generators at nice ${GENERATOR_NICE}`,
);
await onEveryStore(bench).catch((error: unknown) => {
  if (!interrupted) throw error;
  process.exitCode = 130;
});
