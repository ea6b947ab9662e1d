import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../server/db/database';
import { DEVICES_PER_GATEWAY, provisionFleet, startLoad, VALUES_PER_DEVICE } from '../support/fleet';
import { onEveryStore } from '../support/stores';
import { startServerProcess } from '../support/server-process';
import { describeMachine } from '../support/machine';

/**
 * Ingestion throughput: gateways publish QoS 1 messages of 10 devices × 10 values over loopback MQTT to the real
 * server (its own process), which acknowledges each message only once stored. Prints points/s acknowledged and
 * checks that every acknowledged point is in the database (no loss). SQLite, then PostgreSQL when reachable.
 * Readings carry the time they are sent; `--backfill` stamps them into a closed hour of yesterday instead (a backlog
 * upload: the rollups are recomputed while it is written).
 * Usage: npm run bench:ingest [-- --seconds 60 --gateways 40 --window 4 --generators 1 --backfill]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const CLOCK = args.has('--backfill') ? 'backfill' : 'now';
const SECONDS = Number(args.get('--seconds') ?? 60);
const GATEWAYS = Number(args.get('--gateways') ?? 40);
const WINDOW = Number(args.get('--window') ?? 4);
const GENERATORS = Number(args.get('--generators') ?? 1);

async function countRows(dataDir: string, databaseUrl?: string): Promise<number> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  const [row] = await db.selectFrom('wit_device_log').select((eb) => eb.fn.countAll<number>().as('n')).execute();
  await close();
  return Number(row.n);
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-ingest-'));
  const fleet = await provisionFleet(dataDir, databaseUrl, GATEWAYS);
  const server = await startServerProcess({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const load = await startLoad(`mqtt://127.0.0.1:${server.mqttPort}`, fleet, WINDOW, GENERATORS, CLOCK);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const report = await load.stop();
    const seconds = (performance.now() - started) / 1000;
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

console.log(describeMachine());
console.log(
  `Ingestion benchmark: ${GATEWAYS} gateways × ${DEVICES_PER_GATEWAY} devices × ${VALUES_PER_DEVICE} values per message, QoS 1, ` +
    `window ${WINDOW} per gateway, ${GENERATORS} load process(es), ${SECONDS} s, readings stamped ${CLOCK === 'now' ? 'now' : 'into yesterday (a backlog)'}`,
);
await onEveryStore(bench);
