import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import { seed } from '../../../server/db/seed';
import type { Cell } from '../../../server/series/cells';
import { Rollups } from '../../../server/series/rollups';
import { type Bucket, bucketed, pointCells, type SeriesRange } from '../../../server/series/sampling';
import { onEveryStore, percentile } from '../support/stores';
import { signIn, startServerProcess } from '../support/server-process';
import { describeMachine } from '../support/machine';

/**
 * History downsampling: 90 days of 1-minute points (129,600) of one device key, on SQLite and on PostgreSQL when
 * reachable. Compares grouping in SQL with streaming every row into JS, then measures the chart call over HTTP
 * (sequential requests against the real server process). Target: the 90-day downsampled call under 50 ms.
 * `--channels N` gives the device N-1 more channels at the same instants, as a real sensor has (points are keyed
 * device, time, key: the chart's key is read through the others).
 * Usage: npm run bench:history [-- --days 90 --requests 200 --width 1000 --channels 1]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const DAYS = Number(args.get('--days') ?? 90);
const REQUESTS = Number(args.get('--requests') ?? 200);
const WIDTH = Number(args.get('--width') ?? 1000);
const TENANT = '100001';
const DEVICE_CODE = 'QJ-TH-01';
const KEY = 'humidity';
const KEYS = [KEY, ...Array.from({ length: Number(args.get('--channels') ?? 1) - 1 }, (_, i) => `ch${i + 2}`)];
const MINUTE = 60_000;
const END = Math.floor(Date.now() / MINUTE) * MINUTE;
const START = END - DAYS * 1440 * MINUTE;

async function fill(database: Database): Promise<string> {
  const { db, native } = database;
  await migrateToLatest(db);
  await seed(db);
  const deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', DEVICE_CODE).executeTakeFirstOrThrow()).id);
  const count = DAYS * 1440;
  const valueAt = (i: number) => 55 + 10 * Math.sin(i / 720) + (i % 9973 === 0 ? 40 : 0);
  if (native.dialect === 'sqlite') {
    const insert = native.sqlite.prepare('insert into wit_device_log (device_id, point_key, ts, value, raw) values (?, ?, ?, ?, ?)');
    native.sqlite.transaction(() => {
      for (let i = 0; i < count; i += 1) for (const key of KEYS) insert.run(deviceId, key, START + i * MINUTE, valueAt(i), valueAt(i));
    })();
  } else {
    for (let i = 0; i < count; i += 20_000) {
      const n = Math.min(20_000, count - i);
      const ts = Array.from({ length: n }, (_, j) => START + (i + j) * MINUTE);
      const values = Array.from({ length: n }, (_, j) => valueAt(i + j));
      await native.pool.query(
        `insert into wit_device_log (device_id, point_key, ts, value, raw)
         select $1, k, t, v, v from unnest($2::bigint[], $3::float8[]) as u(t, v) cross join unnest($4::text[]) as k`,
        [deviceId, ts, values, KEYS],
      );
    }
  }
  await sql`analyze`.execute(db);
  return deviceId;
}

/** The alternative: every row of the range into JS, bucketed there. */
async function bucketInJs(database: Database, range: SeriesRange, bucketMs: number): Promise<Bucket[]> {
  const origin = Math.floor(range.start / bucketMs) * bucketMs;
  const buckets: Bucket[] = [];
  let sum = 0;
  const add = (ts: number, value: number) => {
    const t = origin + Math.floor((ts - origin) / bucketMs) * bucketMs;
    const last = buckets[buckets.length - 1];
    if (last && last[0] === t) {
      if (value < last[1]) last[1] = value;
      if (value > last[2]) last[2] = value;
      last[5] = value;
      last[6] += 1;
      sum += value;
      last[3] = sum / last[6];
    } else {
      sum = value;
      buckets.push([t, value, value, value, value, value, 1]);
    }
  };
  const text = 'select ts, value from wit_device_log where device_id = $1 and point_key = $2 and ts >= $3 and ts <= $4 order by ts';
  const params = [range.deviceId, range.pointKey, range.start, range.end];
  if (database.native.dialect === 'sqlite') {
    const statement = database.native.sqlite.prepare(text.replace(/\$\d/g, '?')).raw();
    for (const [ts, value] of statement.iterate(...params) as Iterable<[number, number]>) add(ts, value);
  } else {
    const result = await database.native.pool.query({ text, values: params, rowMode: 'array' });
    for (const [ts, value] of result.rows as Array<[number | string, number]>) add(Number(ts), value);
  }
  return buckets;
}


async function timeIt(label: string, times: number, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(10, times); i += 1) await run(); // warm-up
  const spent: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await run();
    spent.push(performance.now() - started);
  }
  spent.sort((a, b) => a - b);
  // min: what the call costs when nothing else competes for the CPU (shared machines are noisy).
  console.log(`  ${label.padEnd(40)} min ${spent[0].toFixed(1).padStart(6)} ms   p50 ${percentile(spent, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(spent, 99).toFixed(1).padStart(6)} ms`);
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-history-'));
  const database = openDatabase({ dataDir, databaseUrl });
  const started = Date.now();
  const deviceId = await fill(database);
  console.log(`\n${store}: ${DAYS * 1440} points loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const rolling = Date.now();
  const hours = await new Rollups(database, (error) => console.error(error)).settle();
  console.log(`  rollups of ${hours} device-hours built in ${((Date.now() - rolling) / 1000).toFixed(1)} s`);

  const range: SeriesRange = { deviceId, pointKey: KEY, start: START, end: END };
  const { bucketMs, buckets = [] } = await bucketed(database, range, Math.ceil((END - START + 1) / WIDTH));
  const fromPoints = await pointCells(database, range, bucketMs);
  const inJs = await bucketInJs(database, range, bucketMs);
  const agree = (cells: ReadonlyArray<Cell | Bucket>) =>
    cells.length === buckets.length && cells.every((c, i) => (Array.isArray(c) ? [c[0], c[1], c[2], c[4], c[5], c[6]] : [c.t, c.mn, c.mx, c.v0, c.v1, c.n]).every((v, j) => v === [buckets[i][0], buckets[i][1], buckets[i][2], buckets[i][4], buckets[i][5], buckets[i][6]][j]));
  console.log(`  in process, ${buckets.length} buckets of ${bucketMs / MINUTE} min (${agree(fromPoints) && agree(inJs) ? 'all three ways agree' : 'THE WAYS DISAGREE'}):`);
  await timeIt('rollups + edges', 50, () => bucketed(database, range, bucketMs));
  await timeIt('group every point in SQL', 50, () => pointCells(database, range, bucketMs));
  await timeIt('stream every point into JS', 50, () => bucketInJs(database, range, bucketMs));
  await database.close();

  // CALL_LIMITS: the benchmark calls long-range charts far faster than people do (docs/security.md "Rate limits").
  const server = await startServerProcess({ DATA_DIR: dataDir, CALL_LIMITS: 'history=0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const token = await signIn(server.url, TENANT);
    const headers = { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'blade-auth': `bearer ${token}` };
    const call = (path: string, query: Record<string, string | number>) => async () => {
      const url = new URL(`/api/wit-xinde/devicelog/${path}`, server.url);
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
      const response = await fetch(url, { headers });
      const body = (await response.json()) as { code: number; msg: string };
      if (body.code !== 200) throw new Error(`${path}: ${body.msg}`);
    };
    const query = (days: number) => ({ deviceId, pointKey: KEY, startTime: END - days * 1440 * MINUTE, endTime: END, width: WIDTH });
    console.log(`  over HTTP, ${REQUESTS} sequential requests each:`);
    await timeIt(`${DAYS} days -> ${WIDTH} buckets`, REQUESTS, call('getHistoryEchartsData', query(DAYS)));
    await timeIt(`7 days -> ${WIDTH} buckets (a zoom)`, REQUESTS, call('getHistoryEchartsData', query(7)));
    await timeIt('12 hours, raw points', REQUESTS, call('getHistoryEchartsData', query(0.5)));
    await timeIt(`${DAYS} days by hour (${DAYS * 24} buckets)`, REQUESTS, call('getHistoryEchartsDataByHour', query(DAYS)));
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}


console.log(describeMachine());
console.log(`History benchmark: ${DAYS} days of 1-minute points, one key of a device of ${KEYS.length} channel(s), chart width ${WIDTH}`);
await onEveryStore(bench);
