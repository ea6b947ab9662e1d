import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { sql } from 'kysely';
import { openDatabase } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { seed } from '../../../server/db/seed';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { onEveryStore } from '../support/stores';
import { signIn, startServerProcess } from '../support/server-process';
import { describeMachine } from '../support/machine';

/**
 * List-call throughput and latency with 100k rows in one resource (blade-system/param of tenant 100001, listed by
 * that tenant's administrator), on SQLite
 * and on PostgreSQL when reachable: a fixed 500 requests/s run (the target: p99 under 20 ms) and an open run; then
 * detail calls by id, which cost little beyond the authentication and authorisation gates.
 * Usage: npm run bench:api [-- --rows 100000 --seconds 20]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const ROWS = Number(args.get('--rows') ?? 100_000);
const SECONDS = Number(args.get('--seconds') ?? 20);
const TENANT = '100001';

/** Ids of some loaded rows, for the detail calls. */
const sampleIds: string[] = [];

async function fill(dataDir: string, databaseUrl?: string): Promise<void> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  await migrateToLatest(db);
  await seed(db);
  sampleIds.length = 0;
  const now = formatDateTime();
  for (let i = 0; i < ROWS; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, ROWS - i) }, (_, j) => ({
      id: nextId(),
      tenantId: TENANT,
      paramName: `参数 ${i + j}`,
      paramKey: `bench.key.${i + j}`,
      paramValue: `value ${i + j}`,
      createTime: now,
      updateTime: now,
      status: 1,
      isDeleted: 0,
    }));
    await db.insertInto('blade_param').values(rows).execute();
    sampleIds.push(rows[0].id);
  }
  // A live database has statistics and a visibility map; a freshly bulk-loaded one not yet (PostgreSQL's
  // autovacuum would otherwise do it in the middle of the first measured run).
  await (databaseUrl ? sql`vacuum analyze` : sql`analyze`).execute(db);
  await close();
}


function report(label: string, result: Result): void {
  const { latency, requests } = result;
  console.log(
    `  ${label.padEnd(34)} ${requests.average.toFixed(0).padStart(6)} req/s   p50 ${latency.p50.toFixed(1)} ms   p90 ${latency.p90.toFixed(1)} ms   p99 ${latency.p99.toFixed(1)} ms   max ${latency.max.toFixed(0)} ms   non-2xx ${result.non2xx}   errors ${result.errors}`,
  );
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const started = Date.now();
  await fill(dataDir, databaseUrl);
  console.log(`\n${store}: ${ROWS} rows loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const server = await startServerProcess({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const token = await signIn(server.url, TENANT);
    const headers = { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'blade-auth': `bearer ${token}` };
    const page = () => `/api/blade-system/param/list?current=${1 + Math.floor(Math.random() * 100)}&size=10`;
    const run = (overallRate?: number, path?: () => string) =>
      autocannon({
        url: server.url,
        connections: 10,
        duration: SECONDS,
        overallRate,
        headers,
        requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: (path ?? page)() }) }],
      });
    await run(200).catch(() => undefined); // warm-up
    report('list, pages 1-100, at 500 req/s', await run(500));
    report('list, pages 1-100, open loop', await run());
    report('list, pages 1-100, at 500 req/s, again', await run(500));
    report('list filtered by paramKey, 500 req/s', await run(500, () => `/api/blade-system/param/list?paramKey_equal=bench.key.${Math.floor(Math.random() * ROWS)}`));
    // A call that does almost nothing but pass the gates (token, rights, scopes): what the gates cost shows here.
    const detail = () => `/api/blade-system/param/detail?id=${sampleIds[Math.floor(Math.random() * sampleIds.length)]}`;
    report('detail by id, at 500 req/s', await run(500, detail));
    report('detail by id, open loop', await run(undefined, detail));
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
console.log(`API list benchmark: ${ROWS} rows, ${SECONDS} s per run, 10 connections`);
await onEveryStore(bench);
