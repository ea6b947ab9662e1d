import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { SQLITE_CONNECTION_PRAGMAS } from '../../../server/db/database';
import { Lock } from '../../../server/db/sqlite-driver';
import { type RawRow, SeriesWriter, type SeriesRow } from '../../../server/ingest/store';
import { provisionFleet, TENANT, VALUES_PER_DEVICE } from '../support/fleet';
import { describeMachine } from '../support/machine';
import { percentile } from '../support/stores';

/**
 * What the series writer's group commits write to SQLite's write-ahead log, by table and index (#19). On a fleet's
 * database (N devices, default 20,000), batches of --messages readings of 10 values (default 50), each from another
 * device and with its raw message, go through the ingestion's writer as a reconnecting fleet's do: every device's
 * readings land on its own pages. The log's frame headers are then read, and each page named by SQLite's dbstat.
 * A commit writes every page its batch changed, whole (4 KB), before its fsync: on a reconnecting fleet the writer
 * thread spent ~60 % of its transactions' time committing (docs/benchmarks.md "Connections, thirty-ninth session").
 * SQLite only: PostgreSQL's log is another matter.
 * Usage: npm run bench:wal [-- --devices 20000 --messages 50 --batches 200 --warm 200]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const DEVICES = Number(args.get('--devices') ?? 20_000);
const MESSAGES = Number(args.get('--messages') ?? 50);
const BATCHES = Number(args.get('--batches') ?? 200);
/** Batches before the measured ones: the tables then hold what a fleet's first minutes leave in them. */
const WARM_BATCHES = Number(args.get('--warm') ?? 200);
/** Batches between two readings of the log: well within wal_autocheckpoint's 65,536 pages. */
const ROUND = 10;
/** A raw message as the benchmark's devices send it (bench:connections), ~250 bytes. */
const PAYLOAD_BYTES = 250;

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** The page number of every frame in the log, in order (the log was emptied before the measured batches). */
function framesOf(walFile: string): { pages: number[]; commits: number; pageSize: number } {
  const fd = openSync(walFile, 'r');
  try {
    const header = Buffer.alloc(WAL_HEADER);
    readSync(fd, header, 0, WAL_HEADER, 0);
    const pageSize = header.readUInt32BE(8);
    const salts = header.subarray(16, 24);
    const frame = Buffer.alloc(FRAME_HEADER);
    const pages: number[] = [];
    let commits = 0;
    const size = statSync(walFile).size;
    for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= size; at += FRAME_HEADER + pageSize) {
      readSync(fd, frame, 0, FRAME_HEADER, at);
      // A frame of an earlier generation of the log (salts differ) ends the current one.
      if (!frame.subarray(8, 16).equals(salts)) break;
      pages.push(frame.readUInt32BE(0));
      if (frame.readUInt32BE(4) > 0) commits++;
    }
    return { pages, commits, pageSize };
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-wal-'));
  const codes = Array.from({ length: DEVICES }, (_, i) => `BW-${String(i).padStart(5, '0')}`);
  await provisionFleet(dataDir, undefined, 0, codes);
  const file = join(dataDir, 'vigil.sqlite');
  // The writer's own settings, without the server's checkpointer: the log must keep every frame until it is read.
  const sqlite = new SQLite(file);
  for (const pragma of SQLITE_CONNECTION_PRAGMAS) sqlite.pragma(pragma);
  const writer = new SeriesWriter({ dialect: 'sqlite', sqlite, writeLock: new Lock() }, (error) => console.error(error), 0);
  // The writer's thread does not keep the process alive on its own.
  const alive = setInterval(() => undefined, 1_000);
  try {
    const devices = sqlite.prepare(`select id, code, project_id as projectId from wit_device where code like 'BW-%'`).all() as Array<{ id: string; code: string; projectId: string | null }>;
    let nextId = 1e15;
    const commitMs: number[] = [];
    writer.onCommitted = (seconds) => commitMs.push(seconds * 1000);
    const batch = async (ts: number) => {
      const writes: Array<Promise<void>> = [];
      for (let m = 0; m < MESSAGES; m++) {
        const device = devices[Math.floor(Math.random() * devices.length)];
        const rows: SeriesRow[] = Array.from({ length: VALUES_PER_DEVICE }, (_, k) => ({ tenantId: TENANT, projectId: device.projectId, deviceId: device.id, pointKey: `k${k}`, ts: ts + m, value: Math.random() * 100, raw: 0 }));
        const raw: RawRow = {
          id: String(nextId++),
          tenantId: TENANT,
          deviceId: device.id,
          gatewayId: null,
          projectId: device.projectId,
          deviceCode: device.code,
          topic: `vigil/${TENANT}/device/${device.code}/data`,
          payload: 'x'.repeat(PAYLOAD_BYTES),
          receivedAt: ts + m,
          readings: VALUES_PER_DEVICE,
          error: null,
          createTime: '2026-12-03 12:00:00',
        };
        writes.push(writer.write(rows, raw));
      }
      await Promise.all(writes);
    };
    const start = Date.now();
    for (let b = 0; b < WARM_BATCHES; b++) await batch(start - 600_000 + b * MESSAGES);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    commitMs.length = 0;
    const byName = new Map<string, number>();
    let [frames, commits, pageSize] = [0, 0, 0];
    // In rounds, the log read and emptied after each: past wal_autocheckpoint the writer would start it over.
    for (let b = 0; b < BATCHES; b += ROUND) {
      for (let r = b; r < Math.min(BATCHES, b + ROUND); r++) await batch(start + r * MESSAGES);
      const round = framesOf(`${file}-wal`);
      const names = new Map((sqlite.prepare('select pageno, name from dbstat').all() as Array<{ pageno: number; name: string }>).map((p) => [p.pageno, p.name]));
      for (const page of round.pages) {
        const name = names.get(page) ?? '(free)';
        byName.set(name, (byName.get(name) ?? 0) + 1);
      }
      frames += round.pages.length;
      commits += round.commits;
      pageSize = round.pageSize;
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
    }
    const messages = BATCHES * MESSAGES;
    const sorted = [...commitMs].sort((a, b) => a - b);
    console.log(
      `  SQLite: ${DEVICES} devices; ${BATCHES} commits of ${MESSAGES} messages of ${VALUES_PER_DEVICE} values, each from another device: ` +
        `${(frames / messages).toFixed(2)} log pages (${((frames * pageSize) / 1024 / messages).toFixed(1)} KB) a message, ${(frames / commits).toFixed(0)} a commit; ` +
        `a commit's round trip p50 ${percentile(sorted, 50).toFixed(1)} / p99 ${percentile(sorted, 99).toFixed(1)} ms`,
    );
    for (const [name, count] of [...byName].sort((a, b) => b[1] - a[1])) {
      console.log(`    ${(count / messages).toFixed(2).padStart(6)} pages a message  ${name}`);
    }
  } finally {
    clearInterval(alive);
    await writer.close();
    sqlite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
await main();
