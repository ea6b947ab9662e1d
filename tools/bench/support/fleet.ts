import { fork } from 'node:child_process';
import { join } from 'node:path';
import { hashPassword } from '../../../server/auth/passwords';
import { DeviceVerifiers } from '../../../server/ingest/credentials';
import { openDatabase } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { seed } from '../../../server/db/seed';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';

/** A fleet of gateways with devices behind them, provisioned straight into a fresh database for the benchmarks. */
export const TENANT = '100001';
export const PASSWORD = 'Bench#Secret2026';
export const DEVICES_PER_GATEWAY = 10;
export const VALUES_PER_DEVICE = 10;

/** Rows per insert: 500 × 12 columns stays far below SQLite's and PostgreSQL's limits on parameters. */
const INSERT_BATCH = 500;

export type Fleet = Array<{ gateway: string; devices: string[] }>;

/**
 * `verifiedWith`: the server's SECRETS_KEY, to give the direct devices' identities the verifiers their first CONNECT
 * would have made (docs/mqtt.md "Credentials"), as a fleet that has connected before has them.
 */
export async function provisionFleet(dataDir: string, databaseUrl: string | undefined, gateways: number, directDevices: string[] = [], verifiedWith?: Buffer): Promise<Fleet> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  await migrateToLatest(db);
  await seed(db);
  const now = formatDateTime();
  const base = { tenantId: TENANT, createTime: now, updateTime: now, status: 1, isDeleted: 0 };
  const hash = await hashPassword(PASSWORD);
  const projectId = nextId();
  const identity = (code: string, clientType: number) => ({ ...base, id: nextId(), username: code, password: hash, clientType, clientId: code, isSuperuser: 0 });
  await db.insertInto('wit_project').values({ ...base, id: projectId, name: '吞吐基准', code: 'BENCH' }).execute();
  // In batches: bench:connections provisions tens of thousands of direct devices.
  for (let i = 0; i < directDevices.length; i += INSERT_BATCH) {
    const codes = directDevices.slice(i, i + INSERT_BATCH);
    await db.insertInto('wit_device').values(codes.map((code) => ({ ...base, id: nextId(), code, name: code, projectId, online: 0 }))).execute();
    const identities = codes.map((code) => identity(code, 1));
    await db.insertInto('wit_mqtt_user').values(identities).execute();
    if (verifiedWith) {
      const verifiers = new DeviceVerifiers([verifiedWith]);
      const password = Buffer.from(PASSWORD);
      const rows = identities.map((row) => ({ userId: row.id, tenantId: TENANT, passwordHash: hash, verifier: verifiers.make(row.username, password) }));
      await db.insertInto('wit_mqtt_verifier').values(rows).execute();
    }
  }
  const fleet: Fleet = [];
  for (let g = 0; g < gateways; g++) {
    const gateway = `BG-${String(g).padStart(3, '0')}`;
    const gatewayId = nextId();
    await db.insertInto('wit_gateway').values({ ...base, id: gatewayId, code: gateway, name: gateway, projectId, parentId: '0', online: 0 }).execute();
    await db.insertInto('wit_mqtt_user').values(identity(gateway, 2)).execute();
    const devices = Array.from({ length: DEVICES_PER_GATEWAY }, (_, d) => `${gateway}-D${d}`);
    await db.insertInto('wit_device').values(devices.map((code) => ({ ...base, id: nextId(), code, name: code, projectId, gatewayId, online: 0 }))).execute();
    fleet.push({ gateway, devices });
  }
  await close();
  return fleet;
}

export interface LoadReport {
  acked: number;
  points: number;
  failed: number;
}

/** Starts the load processes (tools/bench/ingest/load.ts); resolves when they are connected and publishing. */
export async function startLoad(mqttUrl: string, fleet: Fleet, window: number, generators: number, clock: 'now' | 'backfill' = 'now'): Promise<{ stop(): Promise<LoadReport> }> {
  const specs = fleet.map((f) => `${f.gateway}:${f.devices.join(',')}`);
  const groups = Array.from({ length: generators }, (_, i) => specs.filter((_, j) => j % generators === i)).filter((g) => g.length);
  const children = groups.map((list) => fork(join(import.meta.dirname, '..', 'ingest', 'load.ts'), [mqttUrl, TENANT, PASSWORD, String(window), clock, ...list], { execArgv: ['--import', 'tsx'] }));
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('message', resolve))));
  return {
    async stop() {
      const reports = children.map((child) => new Promise<LoadReport>((resolve) => child.once('message', (m) => resolve(m as LoadReport))));
      for (const child of children) child.send('stop');
      const all = await Promise.all(reports);
      return all.reduce((a, b) => ({ acked: a.acked + b.acked, points: a.points + b.points, failed: a.failed + b.failed }), { acked: 0, points: 0, failed: 0 });
    },
  };
}
