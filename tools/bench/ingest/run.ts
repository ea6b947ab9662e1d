import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { hashPassword } from '../../../server/auth/passwords';
import { openDatabase } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { seed } from '../../../server/db/seed';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { startServerProcess } from '../support/server-process';

/**
 * Ingestion throughput: gateways publish QoS 1 messages of 10 devices × 10 values over loopback MQTT to the real
 * server (its own process), which acknowledges each message only once stored. Prints points/s acknowledged and
 * checks that every acknowledged point is in the database (no loss). SQLite, then PostgreSQL when reachable.
 * Usage: npm run bench:ingest [-- --seconds 60 --gateways 40 --window 4 --generators 1]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const SECONDS = Number(args.get('--seconds') ?? 60);
const GATEWAYS = Number(args.get('--gateways') ?? 40);
const DEVICES_PER_GATEWAY = 10;
const WINDOW = Number(args.get('--window') ?? 4);
const GENERATORS = Number(args.get('--generators') ?? 1);
const TENANT = '100001';
const PASSWORD = 'Bench#Secret2026';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Fleet = Array<{ gateway: string; devices: string[] }>;

async function provision(dataDir: string, databaseUrl?: string): Promise<Fleet> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  await migrateToLatest(db);
  await seed(db);
  const now = formatDateTime();
  const base = { tenantId: TENANT, createTime: now, updateTime: now, status: 1, isDeleted: 0 };
  const hash = await hashPassword(PASSWORD);
  const projectId = nextId();
  await db.insertInto('wit_project').values({ ...base, id: projectId, name: '吞吐基准', code: 'BENCH' }).execute();
  const fleet: Fleet = [];
  for (let g = 0; g < GATEWAYS; g++) {
    const gateway = `BG-${String(g).padStart(3, '0')}`;
    const gatewayId = nextId();
    await db.insertInto('wit_gateway').values({ ...base, id: gatewayId, code: gateway, name: gateway, projectId, parentId: '0', online: 0 }).execute();
    await db.insertInto('wit_mqtt_user').values({ ...base, id: nextId(), username: gateway, password: hash, clientType: 2, clientId: gateway, isSuperuser: 0 }).execute();
    const devices = Array.from({ length: DEVICES_PER_GATEWAY }, (_, d) => `${gateway}-D${d}`);
    await db
      .insertInto('wit_device')
      .values(devices.map((code) => ({ ...base, id: nextId(), code, name: code, projectId, gatewayId, online: 0 })))
      .execute();
    fleet.push({ gateway, devices });
  }
  await close();
  return fleet;
}

async function countRows(dataDir: string, databaseUrl?: string): Promise<number> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  const [row] = await db.selectFrom('wit_device_log').select((eb) => eb.fn.countAll<number>().as('n')).execute();
  await close();
  return Number(row.n);
}

interface Report {
  acked: number;
  points: number;
  failed: number;
}

async function load(mqttUrl: string, fleet: Fleet): Promise<{ report: Report; seconds: number }> {
  const specs = fleet.map((f) => `${f.gateway}:${f.devices.join(',')}`);
  const generators = Array.from({ length: GENERATORS }, (_, i) => specs.filter((_, j) => j % GENERATORS === i));
  const children = generators.map((list) => fork(join(import.meta.dirname, 'load.ts'), [mqttUrl, TENANT, PASSWORD, String(WINDOW), ...list], { execArgv: ['--import', 'tsx'] }));
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('message', resolve))));
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const reports = children.map((child) => new Promise<Report>((resolve) => child.once('message', (m) => resolve(m as Report))));
  for (const child of children) child.send('stop');
  const all = await Promise.all(reports);
  const seconds = (performance.now() - started) / 1000;
  return { report: all.reduce((a, b) => ({ acked: a.acked + b.acked, points: a.points + b.points, failed: a.failed + b.failed })), seconds };
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-ingest-'));
  const fleet = await provision(dataDir, databaseUrl);
  const server = await startServerProcess({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const { report, seconds } = await load(`mqtt://127.0.0.1:${server.mqttPort}`, fleet);
    await server.stop();
    const stored = await countRows(dataDir, databaseUrl);
    console.log(
      `  ${store.padEnd(10)} ${(report.points / seconds).toFixed(0).padStart(7)} points/s acknowledged  (${(report.acked / seconds).toFixed(0)} messages/s, ` +
        `${report.points} points in ${seconds.toFixed(1)} s, ${report.failed} failed)  stored ${stored}  ${stored >= report.points ? 'no loss' : `LOST ${report.points - stored}`}`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`Ingestion benchmark: ${GATEWAYS} gateways × ${DEVICES_PER_GATEWAY} devices × 10 values per message, QoS 1, window ${WINDOW} per gateway, ${GENERATORS} load process(es), ${SECONDS} s`);
await bench('SQLite');
const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
const reachable = await admin.connect().then(() => true, () => false);
if (reachable) {
  const name = `vigil_ingest_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  try {
    await bench('PostgreSQL', url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else {
  console.log(`  PostgreSQL not reachable at ${PG_URL}: skipped`);
}
