import { createRequire } from 'node:module';
import type { CompiledQuery } from 'kysely';
import { type NativeDb, SQLITE_CONNECTION_PRAGMAS } from '../db/database';
import { serverFile } from '../files';
import { type Columns, type RowsWrite, type StatementWrite, type Write, WriterThread, type WriterTable } from '../db/writer-thread';

/** One value of the time series. */
export interface SeriesRow {
  tenantId: string;
  /** The device's project (null: none): its new points are counted under it (docs/statistics.md). */
  projectId: string | null;
  deviceId: string;
  pointKey: string;
  ts: number;
  value: number;
  raw: number;
}

/** One message as received (collectdata), with what became of it. */
export interface RawRow {
  id: string;
  tenantId: string;
  deviceId: string | null;
  gatewayId: string | null;
  /** The project of the device or gateway, for the project scope of collectdata. */
  projectId: string | null;
  deviceCode: string | null;
  topic: string;
  payload: string;
  receivedAt: number;
  readings: number;
  error: string | null;
  createTime: string;
}

interface Batch {
  series: SeriesRow[];
  raws: RawRow[];
  statements: StatementWrite[];
  done: Answer[];
}

interface Answer {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Whose readings a write holds: those of a connected device ('live'), or those a device sends as it comes back, the
 * readings it kept while away among them, with when its connection came (server/ingest/broker.ts).
 */
export type Priority = 'live' | { catchingUpSince: number };

interface CatchingUp {
  series: readonly SeriesRow[];
  raw?: RawRow;
  done: Answer;
  since: number;
}

const TABLES: readonly WriterTable[] = [
  { name: 'wit_device_log', columns: ['device_id', 'point_key', 'ts', 'value', 'raw'], key: ['device_id', 'ts', 'point_key'], tally: true },
  {
    name: 'wit_collect_data',
    columns: ['id', 'tenant_id', 'device_id', 'gateway_id', 'project_id', 'device_code', 'topic', 'payload', 'received_at', 'readings', 'error', 'create_time', 'update_time', 'status', 'is_deleted'],
  },
];

/** The series in the columns of TABLES[0], numbers as Float64Arrays (handed to the thread, not copied). */
function seriesColumns(rows: readonly SeriesRow[]): Columns {
  const n = rows.length;
  const [devices, keys] = [new Array<string>(n), new Array<string>(n)];
  const [ts, values, raws] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    devices[i] = r.deviceId;
    keys[i] = r.pointKey;
    ts[i] = r.ts;
    values[i] = r.value;
    raws[i] = r.raw;
  }
  return [devices, keys, ts, values, raws];
}

/** The raw messages in the columns of TABLES[1]. */
function rawColumns(rows: readonly RawRow[]): Columns {
  const pick = <T>(value: (r: RawRow) => T) => rows.map(value);
  const createTime = pick((r) => r.createTime);
  return [
    pick((r) => r.id), pick((r) => r.tenantId), pick((r) => r.deviceId), pick((r) => r.gatewayId), pick((r) => r.projectId),
    pick((r) => r.deviceCode), pick((r) => r.topic), pick((r) => r.payload), pick((r) => r.receivedAt), pick((r) => r.readings),
    pick((r) => r.error), createTime, createTime, pick(() => 1), pick(() => 0),
  ];
}

interface Committer {
  commit(writes: Write[]): Promise<void>;
  /** How many batches may commit at once. */
  concurrency: number;
  close(): Promise<void>;
}

/**
 * Both stores commit from a worker thread with its own connection(s) (server/db/writer-thread.ts): the main thread
 * parses the next messages meanwhile.
 */
function committer(native: NativeDb, onError: (error: unknown, context: string) => void): Committer {
  const require = createRequire(import.meta.url);
  if (native.dialect === 'sqlite') {
    // One row per statement: 100-row statements (and 16 KB pages) measured faster in short runs and 15-20% slower
    // over the 60-second benchmark (docs/benchmarks.md).
    const thread = new WriterThread(serverFile('db/sqlite-writer.worker.cjs'), TABLES, {
      file: native.sqlite.name,
      driver: require.resolve('better-sqlite3'),
      pragmas: SQLITE_CONNECTION_PRAGMAS,
    }, onError).start();
    return {
      // The thread takes the process's turn to write, as Kysely's writes do; Kysely's reads go on meanwhile.
      commit: (writes) => native.writeLock.run(() => thread.run(writes)),
      // SQLite has one writer at a time: a second batch in flight would only wait for the lock.
      concurrency: 1,
      close: () => thread.close(),
    };
  }
  // Four batches in flight, on four connections: PostgreSQL's backend spends most of a batch's time inserting into the
  // series' primary key, one core per connection. With one connection per batch a message waited for the batch
  // ahead and then its own, ~85 ms each (docs/benchmarks.md).
  const connections = 4;
  const thread = new WriterThread(serverFile('db/postgres-writer.worker.cjs'), TABLES, {
    url: native.url,
    connections,
    pg: require.resolve('pg'),
    copy: require.resolve('pg-copy-streams'),
  }, onError).start();
  return { commit: (writes) => thread.run(writes), concurrency: connections, close: () => thread.close() };
}

/** The tenant and project of each device of the rows, under which their new points are counted. */
function ownersOf(rows: readonly SeriesRow[]): Pick<RowsWrite, 'tenants' | 'projects'> {
  const tenants: Record<string, string> = {};
  const projects: Record<string, string | null> = {};
  for (const r of rows) {
    tenants[r.deviceId] = r.tenantId;
    projects[r.deviceId] = r.projectId;
  }
  return { tenants, projects };
}

const writesOf = ({ series, raws, statements }: Batch): Write[] => [
  { table: 0, columns: seriesColumns(series), ...ownersOf(series) },
  { table: 1, columns: rawColumns(raws) },
  ...statements,
];

const emptyBatch = (): Batch => ({ series: [], raws: [], statements: [], done: [] });

/**
 * Series rows waiting or committing past which the writer is behind: 5-10 ms of commits on a 2-core machine shared
 * with a reconnecting fleet, so a connected device's reading waits at most about that for the batch before its own.
 * At 2,000 the batches of a recovery grew to 2,000-4,000 rows (35-70 ms each, then as many acknowledgements at once)
 * and the probe's p99 was 110-210 ms; at 500, 42-61 ms on SQLite and 68-85 ms on PostgreSQL, the fleet back ~1 s later;
 * at 250, worse again (bench:connections, docs/benchmarks.md "Connections, thirty-third session").
 */
export const BEHIND_ROWS = 500;

/**
 * Series rows of catching-up readings one batch takes at most where the store commits one batch at a time (SQLite; ~15
 * ms of commit on a 2-core machine under a reconnecting fleet): a live reading that arrives while they commit waits
 * for no more than that. A fleet's readings arrive in bursts as it comes back; committed whole they made batches of
 * 2,000-3,000 rows, 60-80 ms each, and every connected device waited for them (bench:connections, docs/benchmarks.md
 * "Connections, thirty-seventh session").
 */
export const CATCH_UP_BATCH_ROWS = 500;

/**
 * Group commit of readings: everything written while the previous transaction runs goes into the next one, so a
 * flood of small messages costs few transactions. The one way points reach the series outside a transaction of the
 * caller's: `write` stores them and, in the same transaction, counts the new ones per device and project and day
 * (docs/statistics.md "Counters"; inside a caller's transaction, `storeSeries` in server/series/store.ts does the same). `write` resolves once its rows are committed — the broker
 * acknowledges a QoS 1 message only then. Where the store commits batches side by side (PostgreSQL), each is answered
 * as it commits, whatever the batches before it: the broker acknowledges each client's data messages in the order
 * it sent them itself (server/ingest/broker.ts), as MQTT wants.
 */
export class SeriesWriter {
  /** Live writes: the next batch takes them all. */
  private pending: Batch = emptyBatch();
  /**
   * Catching-up writes in the order their connections came (then as written), CATCH_UP_BATCH_ROWS at most a batch: a
   * device back for a while goes before the crowd that came after it, whose readings arrive in bursts.
   */
  private catchingUp: CatchingUp[] = [];
  private catchingUpRows = 0;
  /** Whether the last batch taken was live: with both kinds waiting they take turns, so neither waits for long. */
  private liveLast = false;
  private catchingUpInFlight = 0;
  private inFlight = 0;
  /** Series rows of the batches committing now. */
  private inFlightRows = 0;
  /** Hears how long each batch took to commit (the metrics, server/observe); off the path of each reading. */
  onCommitted?: (seconds: number) => void;
  /** The batches committing, until their writes are answered. */
  private readonly answering = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private readonly committer: Committer;

  /** `onError` hears of failures of the writer thread itself (a failed commit fails its writes instead). */
  constructor(
    native: NativeDb,
    onError: (error: unknown, context: string) => void,
    private readonly maxDelayMs = 10,
    /**
     * A batch starts once this many rows wait and a commit slot is free. Small batches answer sooner; a device waits
     * for its acknowledgement before it sends more, so on the benchmark's 160 messages in flight 4,000 rows measured
     * 119k -> 145k points/s (SQLite) and 85k -> 130k (PostgreSQL, four connections) against 20,000 (docs/benchmarks.md).
     */
    private readonly maxRows = 4_000,
  ) {
    this.committer = committer(native, onError);
  }

  /**
   * `raw` is the message the rows came in; readings pulled from elsewhere have none. Live and catching-up writes go in
   * batches of their own: a device already connected waits for one short catching-up batch at most (SQLite), or for
   * none (PostgreSQL), not behind a whole fleet coming back (docs/ingest.md "Store").
   */
  write(series: readonly SeriesRow[], raw?: RawRow, priority: Priority = 'live'): Promise<void> {
    if (priority === 'live') {
      return this.join((batch) => {
        batch.series.push(...series);
        if (raw) batch.raws.push(raw);
      });
    }
    return new Promise<void>((resolve, reject) => {
      const since = priority.catchingUpSince;
      const queue = this.catchingUp;
      // Mostly the latest connection's: the end, found from the back.
      let at = queue.length;
      while (at > 0 && queue[at - 1].since > since) at--;
      queue.splice(at, 0, { series, raw, done: { resolve, reject }, since });
      this.catchingUpRows += series.length;
      this.schedule(this.catchingUpRows >= CATCH_UP_BATCH_ROWS);
    });
  }

  /**
   * Runs a statement (compiled for this store) in the next group commit, off the main thread; resolves once it is
   * committed, and fails with its batch. For writes at fleet scale that would otherwise hold the main thread's own
   * SQLite connection (the latest values' write-back: 100-200 ms of the main thread a second while a fleet reconnects).
   */
  execute(query: CompiledQuery): Promise<void> {
    return this.join((batch) => batch.statements.push({ statement: { sql: query.sql, parameters: query.parameters } }));
  }

  private join(add: (batch: Batch) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      add(this.pending);
      this.pending.done.push({ resolve, reject });
      this.schedule(this.pending.series.length >= this.maxRows);
    });
  }

  /** A batch now when one is full, else after the gathering delay. */
  private schedule(full: boolean): void {
    if (full) this.kick();
    else this.timer ??= setTimeout(() => this.kick(), this.maxDelayMs);
  }

  private get waiting(): boolean {
    return this.pending.done.length > 0 || this.catchingUp.length > 0;
  }

  /**
   * The next batch: every live write, or the oldest catching-up ones; with both waiting, turn about (a fleet's live
   * readings never stop coming: first every time, they would keep a returning device's readings waiting for ever).
   */
  private take(): { batch: Batch; catchingUp: boolean } {
    const turnOfCatchingUp = this.liveLast && this.catchingUp.length > 0 && !this.catchingUpFull;
    this.liveLast = this.pending.done.length > 0 && !turnOfCatchingUp;
    if (this.liveLast) {
      const batch = this.pending;
      this.pending = emptyBatch();
      return { batch, catchingUp: false };
    }
    const batch = emptyBatch();
    let taken = 0;
    // Beside a free slot for live readings (PostgreSQL), a catching-up batch may be as large as any.
    const most = this.committer.concurrency > 1 ? this.maxRows : CATCH_UP_BATCH_ROWS;
    while (taken < this.catchingUp.length && (taken === 0 || batch.series.length + this.catchingUp[taken].series.length <= most)) {
      const { series, raw, done } = this.catchingUp[taken++];
      batch.series.push(...series);
      if (raw) batch.raws.push(raw);
      batch.done.push(done);
    }
    this.catchingUp.splice(0, taken);
    this.catchingUpRows -= batch.series.length;
    return { batch, catchingUp: true };
  }

  /** Starts batches while writes wait and the store has room for them. */
  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.inFlight < this.committer.concurrency && this.waiting) {
      if (!this.pending.done.length && this.catchingUpFull) return;
      const { batch, catchingUp } = this.take();
      this.commit(batch, catchingUp);
    }
  }

  /**
   * Whether catching-up batches hold all the slots they may: where batches commit side by side (PostgreSQL), they leave
   * the last one to live readings, which then wait for none of them.
   */
  private get catchingUpFull(): boolean {
    return this.catchingUpInFlight >= Math.max(1, this.committer.concurrency - 1);
  }

  private commit(batch: Batch, catchingUp: boolean): void {
    if (catchingUp) this.catchingUpInFlight++;
    this.inFlight++;
    const rows = batch.series.length;
    this.inFlightRows += rows;
    const started = performance.now();
    const commit = this.committer.commit(writesOf(batch));
    const committed = commit.then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    const observe = this.onCommitted;
    // Beside the answers: a listener's failure must never keep a batch unanswered.
    if (observe) void commit.then(() => observe((performance.now() - started) / 1000)).catch(() => undefined);
    // Each batch is answered as it commits, not after the batches before it: a connected device's reading in a small
    // batch does not wait for a reconnecting fleet's large one committing beside it.
    const answered = committed.then((failed) => {
      for (const d of batch.done) {
        if (failed) d.reject(failed.error);
        else d.resolve();
      }
    });
    this.answering.add(answered);
    void answered.then(() => this.answering.delete(answered));
    void committed.then(() => {
      this.inFlight--;
      this.inFlightRows -= rows;
      if (catchingUp) this.catchingUpInFlight--;
      if (this.waiting) this.kick();
    });
  }

  /** Series rows in the batches committing now (SQLite: at most one batch, which may be waiting for its turn to write). */
  get committing(): number {
    return this.inFlightRows;
  }

  /** Series rows written and not yet committed: waiting for a batch, or in one that is committing. */
  get depth(): number {
    return this.pending.series.length + this.catchingUpRows + this.inFlightRows;
  }

  /** Whether more rows wait than a commit takes in a moment: new connections then wait (server/ingest/admission.ts). */
  get behind(): boolean {
    return this.depth > BEHIND_ROWS;
  }

  /** Waits until everything written so far is committed. */
  async flush(): Promise<void> {
    while (this.inFlight || this.waiting) {
      this.kick();
      await Promise.all(this.answering);
    }
  }

  /** Stores what is buffered, then lets the store's resources go. */
  async close(): Promise<void> {
    await this.flush();
    await this.committer.close();
  }
}
