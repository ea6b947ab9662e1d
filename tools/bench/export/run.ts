import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { seed } from '../../../server/db/seed';
import { seedId } from '../../../server/db/seed/ids';
import { describeMachine } from '../support/machine';
import { signIn, startServerProcess } from '../support/server-process';
import { onEveryStore, percentile } from '../support/stores';

/**
 * List export (GET <base>/export, server/http/export.ts): the device list of a tenant with `--rows` devices (50,000
 * by default) exported whole as xlsx over HTTP from the real server process, its references named page by page.
 * Prints rows/s of the whole download, the time to the first byte and the file's size, on SQLite and on
 * PostgreSQL when reachable.
 * Usage: npm run bench:export [-- --rows 50000 --runs 3]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const ROWS = Number(args.get('--rows') ?? 50_000);
const RUNS = Number(args.get('--runs') ?? 3);
const TENANT = '100001';
const COLUMNS = 'code:设备编号,name:设备名称,modelName:设备型号,projectName:所属项目,online:在线状态,lastSeen:最后上报,lastValues:最新值,createTime:创建时间';
const LABELS = JSON.stringify({ online: { '1': '在线', '0': '离线' } });

/** `ROWS` devices of the demo tenant's bridge project, coded BENCH-000001…, as a gateway would have left them. */
async function fill(database: Database): Promise<void> {
  const { db } = database;
  await migrateToLatest(db);
  await seed(db);
  const projectId = seedId(`monitoring:${TENANT}:project:bridge`);
  const now = '2026-03-01 08:00:00';
  const row = (i: number) => ({
    id: String(800_000_000_000_000_000n + BigInt(i)),
    tenantId: TENANT,
    code: `BENCH-${String(i).padStart(6, '0')}`,
    name: `倾角计 ${i}`,
    projectId,
    online: i % 3 === 0 ? 0 : 1,
    lastSeen: now,
    lastValues: `{"tilt_x": ${(i % 100) / 1000}, "tilt_y": -0.01}`,
    createTime: now,
    updateTime: now,
    status: 1,
    isDeleted: 0,
  });
  for (let i = 0; i < ROWS; i += 2000) {
    await db.insertInto('wit_device').values(Array.from({ length: Math.min(2000, ROWS - i) }, (_, j) => row(i + j))).execute();
  }
  await sql`analyze`.execute(db);
}

interface Run {
  ms: number;
  firstByteMs: number;
  bytes: number;
}

async function exportOnce(url: string, headers: Record<string, string>): Promise<Run> {
  const target = new URL('/api/wit-xinde/device/export', url);
  for (const [k, v] of Object.entries({ code: 'BENCH-', ascs: 'code', columns: COLUMNS, labels: LABELS, exportName: '设备列表' })) target.searchParams.set(k, v);
  const started = performance.now();
  const response = await fetch(target, { headers });
  if (response.status !== 200 || response.headers.get('x-export-rows') !== String(ROWS)) throw new Error(`export refused: ${response.status} ${await response.text()}`);
  let firstByteMs = 0;
  let bytes = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += chunk.byteLength;
  }
  return { ms: performance.now() - started, firstByteMs, bytes };
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-export-'));
  const database = openDatabase({ dataDir, databaseUrl });
  const loading = Date.now();
  await fill(database);
  await database.close();
  console.log(`\n${store}: ${ROWS} devices loaded in ${((Date.now() - loading) / 1000).toFixed(1)} s`);
  // CALL_LIMITS: the benchmark exports more often than the call limit allows (docs/security.md "Rate limits").
  const server = await startServerProcess({ DATA_DIR: dataDir, CALL_LIMITS: 'export=0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const token = await signIn(server.url, TENANT);
    const headers = { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'blade-auth': `bearer ${token}` };
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await exportOnce(server.url, headers));
    for (const [i, run] of runs.entries()) {
      const rate = Math.round(ROWS / (run.ms / 1000));
      console.log(`  run ${i + 1}: ${rate.toLocaleString('en')} rows/s   ${(run.ms / 1000).toFixed(2)} s   first byte ${run.firstByteMs.toFixed(0)} ms   ${(run.bytes / 1024 / 1024).toFixed(2)} MB`);
    }
    const rates = runs.map((r) => ROWS / (r.ms / 1000)).sort((a, b) => a - b);
    console.log(`  median ${Math.round(percentile(rates, 50)).toLocaleString('en')} rows/s, best ${Math.round(rates[rates.length - 1]).toLocaleString('en')} rows/s`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
console.log(`Export benchmark: ${ROWS} devices of one tenant as xlsx, 8 columns (2 referenced names, 1 labelled), ${RUNS} runs`);
await onEveryStore(bench);
