import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase } from '../../../server/db/database';
import { SeriesWriter, type SeriesRow } from '../../../server/ingest/store';
import { HOUR_MS, Rollups } from '../../../server/series/rollups';
import { provisionFleet, TENANT, VALUES_PER_DEVICE } from '../support/fleet';
import { describeMachine } from '../support/machine';
import { onEveryStore } from '../support/stores';

/**
 * An hour of a fleet rolled up (#19): N devices (default 2,000), each with --readings readings of 10 values in one
 * closed hour, stored through the ingestion's writer (whose trigger marks the hours), then rolled up by the server's
 * roller at its own settings (a pass every 2 s, 250 ms of work each). Prints how long the hour took to roll up, per
 * device-hour, and the event loop's delay meanwhile: every MQTT acknowledgement and API call of the process waits for
 * it. A fleet publishing every 20 s has 180 readings an hour; the default, 18, keeps the filling short (reading the
 * points grows with them, the cells written do not). The time grows with N: 2,000 keep the PostgreSQL run near 4 min.
 * SQLite, then PostgreSQL when reachable (BENCH_STORE picks one).
 * Usage: npm run bench:rollups [-- --devices 2000 --readings 18]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const DEVICES = Number(args.get('--devices') ?? 2_000);
const READINGS = Number(args.get('--readings') ?? 18);
/** Rows handed to the writer at a time while filling. */
const FILL_BATCH = 20_000;
/** How often the marks left are read, and each second's longest delay. */
const SAMPLE_MS = 1_000;
/** A turn longer than this alone breaks the probe's target in bench:connections. */
const SLOW_NS = 50e6;

const ms = (ns: number) => `${(ns / 1e6).toFixed(1)} ms`;

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-rollups-'));
  const codes = Array.from({ length: DEVICES }, (_, i) => `BR-${String(i).padStart(5, '0')}`);
  const database = await provisionFleet(dataDir, databaseUrl, 0, codes).then(() => openDatabase({ dataDir, databaseUrl }));
  try {
    const { db } = database;
    const devices = await db.selectFrom('wit_device').select(['id', 'projectId']).where('code', 'like', 'BR-%').execute();
    const hour = Math.floor(Date.now() / HOUR_MS) - 2;
    const filled = performance.now();
    const writer = new SeriesWriter(database.native, (error) => console.error(error));
    let rows: SeriesRow[] = [];
    for (const device of devices) {
      for (let r = 0; r < READINGS; r++) {
        const ts = hour * HOUR_MS + Math.floor((r * HOUR_MS) / READINGS);
        for (let k = 0; k < VALUES_PER_DEVICE; k++) rows.push({ tenantId: TENANT, projectId: device.projectId, deviceId: device.id, pointKey: `k${k}`, ts, value: Math.random() * 100, raw: 0 });
      }
      if (rows.length < FILL_BATCH) continue;
      await writer.write(rows);
      rows = [];
    }
    await writer.write(rows);
    await writer.close();
    const points = DEVICES * READINGS * VALUES_PER_DEVICE;
    console.log(`  ${store}: ${DEVICES} devices × ${READINGS} readings × ${VALUES_PER_DEVICE} values (${points} points) in one hour, stored in ${((performance.now() - filled) / 1000).toFixed(1)} s`);

    const marks = async () => Number((await db.selectFrom('wit_device_log_dirty').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const rollups = new Rollups({ db, dialect: database.dialect }, (error) => console.error(error));
    // The whole run, and each second apart: how many seconds held a turn longer than an acknowledgement's target.
    const [delay, second] = [monitorEventLoopDelay({ resolution: 1 }), monitorEventLoopDelay({ resolution: 1 })];
    let [seconds, slow] = [0, 0];
    const started = performance.now();
    delay.enable();
    second.enable();
    rollups.start();
    for (let left = await marks(); left > 0; left = await marks()) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      seconds += 1;
      if (second.max > SLOW_NS) slow += 1;
      second.reset();
    }
    await rollups.stop();
    delay.disable();
    second.disable();
    const took = (performance.now() - started) / 1000;
    console.log(
      `    rolled up  ${DEVICES} device-hours in ${took.toFixed(1)} s (${(DEVICES / took).toFixed(0)} a second; a pass of 250 ms of work every 2 s)`,
    );
    console.log(
      `    event loop meanwhile: delay p50 ${ms(delay.percentile(50))}, p99 ${ms(delay.percentile(99))}, max ${ms(delay.max)}; ` +
        `${slow} of ${seconds} seconds held a turn over ${SLOW_NS / 1e6} ms (every MQTT acknowledgement of the process waits for it)`,
    );
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
console.log(`Rollups benchmark: the hour of ${DEVICES} devices with ${READINGS} readings each, rolled up by the server's roller`);
await onEveryStore(bench);
