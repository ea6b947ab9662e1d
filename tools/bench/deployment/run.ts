import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { hasBinary, type Service, startMosquitto, startRedis } from '../../../tests/support/services';
import { DEVICES_PER_GATEWAY, provisionFleet, startLoad, VALUES_PER_DEVICE } from '../support/fleet';
import { describeMachine } from '../support/machine';
import { type ServerProcess, signIn, startServerProcess } from '../support/server-process';

/**
 * One deployment of several processes (docs/operations.md) on one PostgreSQL, one Redis and one Mosquitto, all on this
 * machine: the ingest rate the processes store (their vigil_ingest_points_total, read from /metrics) with one process
 * and with three; the API's latency at a fixed 1,000 requests/s spread over the three; and how long the deployment
 * takes to store at its full rate again after kill -9 of one process (its session adopted by another).
 * Usage: npm run bench:deployment [-- --seconds 20 --gateways 40 --window 4 --generators 2 --processes 3]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const SECONDS = Number(args.get('--seconds') ?? 20);
const GATEWAYS = Number(args.get('--gateways') ?? 40);
const WINDOW = Number(args.get('--window') ?? 4);
const GENERATORS = Number(args.get('--generators') ?? 2);
const PROCESSES = Number(args.get('--processes') ?? 3);
const METRICS_TOKEN = randomBytes(16).toString('hex');
const WARM_UP_MS = 5000;

interface Services {
  databaseUrl: string;
  redis: Service;
  mosquitto: Service;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The points a process has stored since it started (its /metrics), or undefined when it is gone. */
async function pointsOf(server: ServerProcess): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    return Number(/^vigil_ingest_points_total (\S+)$/m.exec(text)?.[1] ?? 0);
  } catch {
    return undefined;
  }
}

const sum = async (servers: ServerProcess[]) => (await Promise.all(servers.map(pointsOf))).reduce<number>((a, b) => a + (b ?? 0), 0);

async function startDeployment(services: Services, count: number, group: string): Promise<ServerProcess[]> {
  const start = (i: number) =>
    startServerProcess({
      DATA_DIR: mkdtempSync(join(tmpdir(), `vigil-deploy-${i}-`)),
      DATABASE_URL: services.databaseUrl,
      MQTT_URL: services.mosquitto.url,
      REDIS_URL: services.redis.url,
      MQTT_CLIENT_ID: `${group}-p${i}`,
      MQTT_SHARE_GROUP: group,
      METRICS_TOKEN,
      JWT_SECRET: 'bench-deployment-secret-0123456789',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      FLOW_THREADS: '1',
    });
  const first = await start(0);
  return [first, ...(await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(i + 1))))];
}

/** Points/s the deployment stores over SECONDS, after a warm-up. */
async function ingestRate(services: Services, fleet: Awaited<ReturnType<typeof provisionFleet>>, count: number): Promise<number> {
  const servers = await startDeployment(services, count, `bench-${count}-${randomBytes(2).toString('hex')}`);
  const load = await startLoad(services.mosquitto.url, fleet, WINDOW, GENERATORS);
  try {
    await sleep(WARM_UP_MS);
    const before = await sum(servers);
    const started = performance.now();
    await sleep(SECONDS * 1000);
    const rate = ((await sum(servers)) - before) / ((performance.now() - started) / 1000);
    console.log(`  ${String(count).padStart(2)} process(es): ${rate.toFixed(0).padStart(7)} points/s stored`);
    return rate;
  } finally {
    await load.stop();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** The API at a fixed 1,000 requests/s, a third on each process: a list of the tenant's devices, signed in. */
async function apiLatency(servers: ServerProcess[]): Promise<void> {
  const token = await signIn(servers[0].url, '100001');
  const rate = Math.round(1000 / servers.length);
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: `${server.url}/api/wit-xinde/device/list?current=1&size=20`,
        connections: 20,
        overallRate: rate,
        duration: SECONDS,
        headers: { 'blade-auth': `bearer ${token}`, authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}` },
      }),
    ),
  );
  const requests = results.reduce((a, r) => a + r.requests.total, 0);
  const errors = results.reduce((a, r) => a + r.errors + r.non2xx, 0);
  console.log(
    `  API at ${rate * servers.length} req/s over ${servers.length} processes: p50 ${results.map((r) => r.latency.p50).join('/')} ms, ` +
      `p99 ${results.map((r) => r.latency.p99).join('/')} ms (per process), ${requests} requests, ${errors} errors`,
  );
}

/**
 * Seconds from kill -9 of one process until the others store at 90 % of the rate before it, measured over a moving
 * 3-s window (the counter moves by whole batches, up to 100k points each).
 */
async function recovery(servers: ServerProcess[], services: Services, fleet: Awaited<ReturnType<typeof provisionFleet>>): Promise<void> {
  const load = await startLoad(services.mosquitto.url, fleet, WINDOW, GENERATORS);
  try {
    await sleep(WARM_UP_MS);
    const baseline = await sum(servers);
    await sleep(10_000);
    const rate = ((await sum(servers)) - baseline) / 10;
    const victim = servers[servers.length - 1];
    process.kill(victim.pid, 'SIGKILL');
    const survivors = servers.slice(0, -1);
    const killedAt = performance.now();
    const counts = [await sum(survivors)];
    let recovered: number | undefined;
    const windows: string[] = [];
    // The end of the first 3-s window at full rate after the survivors took the victim's session (and backlog) over.
    for (let second = 1; second <= 25; second++) {
      await sleep(1000);
      counts.push(await sum(survivors));
      windows.push(((counts[second] - counts[second - 1]) / 1000).toFixed(0));
      if (second >= 3 && recovered === undefined && (counts[second] - counts[second - 3]) / 3 >= 0.9 * rate) recovered = (performance.now() - killedAt) / 1000;
    }
    console.log(
      `  kill -9 of 1 of ${servers.length} at ${rate.toFixed(0)} points/s: ${recovered === undefined ? 'not back to 90 % within 25 s' : `back to 90 % (3-s window) ${recovered.toFixed(1)} s after`} ` +
        `(thousands of points stored in each second after the kill: ${windows.join(' ')})`,
    );
  } finally {
    await load.stop();
  }
}

async function main(): Promise<void> {
  console.log(describeMachine());
  const absent = ['redis-server', 'mosquitto'].filter((b) => !hasBinary(b));
  if (absent.length) return console.log(`  ${absent.join(' and ')} not on this machine: skipped`);
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  if (!(await admin.connect().then(() => true, () => false))) return console.log(`  PostgreSQL not reachable at ${adminUrl}: skipped`);
  const name = `vigil_bench_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const [redis, mosquitto] = await Promise.all([startRedis(), startMosquitto()]);
  const services: Services = { databaseUrl: url.toString(), redis, mosquitto };
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-deploy-fleet-'));
  try {
    console.log(
      `Deployment benchmark on PostgreSQL, Redis and Mosquitto: ${GATEWAYS} gateways × ${DEVICES_PER_GATEWAY} devices × ${VALUES_PER_DEVICE} values per ` +
        `message, QoS 1, window ${WINDOW}, ${GENERATORS} load processes, ${SECONDS} s per figure; ${availableParallelism()} cores`,
    );
    const fleet = await provisionFleet(dataDir, services.databaseUrl, GATEWAYS);
    // The API first, on a quiet database: after the ingest runs, the processes roll up millions of points for a while.
    const servers = await startDeployment(services, PROCESSES, `bench-api-${randomBytes(2).toString('hex')}`);
    try {
      await apiLatency(servers);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
    const one = await ingestRate(services, fleet, 1);
    const many = await ingestRate(services, fleet, PROCESSES);
    console.log(`  ${PROCESSES} processes store ${(many / one).toFixed(2)}× what one does`);
    const deployment = await startDeployment(services, PROCESSES, `bench-kill-${randomBytes(2).toString('hex')}`);
    try {
      await recovery(deployment, services, fleet);
    } finally {
      await Promise.all(deployment.map((s) => s.stop()));
    }
  } finally {
    await Promise.all([redis.stop(), mosquitto.stop()]);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
