import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type NativeDb, SQLITE_CONNECTION_PRAGMAS } from '../db/database';
import { WriterThread } from '../db/writer-thread';

/** One value of the time series. */
export interface SeriesRow {
  tenantId: string;
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
  done: Array<{ resolve(): void; reject(error: unknown): void }>;
}

const SERIES_COLUMNS = ['device_id', 'point_key', 'ts', 'value', 'raw', 'tenant_id'] as const;
const RAW_COLUMNS = ['id', 'tenant_id', 'device_id', 'gateway_id', 'project_id', 'device_code', 'topic', 'payload', 'received_at', 'readings', 'error', 'create_time', 'update_time', 'status', 'is_deleted'] as const;

const rawValues = (r: RawRow) => [r.id, r.tenantId, r.deviceId, r.gatewayId, r.projectId, r.deviceCode, r.topic, r.payload, r.receivedAt, r.readings, r.error, r.createTime, r.createTime, 1, 0];

/**
 * A device resending a reading (QoS 1 redelivery) overwrites it; within one batch the last copy wins. PostgreSQL needs
 * this (one statement may not change a row twice); SQLite's row-by-row upsert does it by itself.
 */
function latestCopies(rows: SeriesRow[]): SeriesRow[] {
  const byKey = new Map<string, SeriesRow>();
  for (const row of rows) byKey.set(`${row.deviceId}\u0000${row.pointKey}\u0000${row.ts}`, row);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/**
 * Primary-key order (device, time, key): batches committing side by side take their row locks in the same order, so
 * they never deadlock, and each batch walks the index in order.
 */
const byKey = (a: SeriesRow, b: SeriesRow) =>
  a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : a.ts !== b.ts ? a.ts - b.ts : a.pointKey < b.pointKey ? -1 : a.pointKey > b.pointKey ? 1 : 0;

interface Committer {
  commit(series: SeriesRow[], raws: RawRow[]): Promise<void>;
  /** How many batches may commit at once. */
  concurrency: number;
  close(): Promise<void>;
}

function sqliteCommitter(native: Extract<NativeDb, { dialect: 'sqlite' }>): Committer {
  // One row per statement: 100-row statements (and 16 KB pages) measured faster in short runs and 15-20% slower
  // over the 60-second benchmark (docs/benchmarks.md).
  const thread = new WriterThread(
    native.sqlite.name,
    [
      `insert into wit_device_log (${SERIES_COLUMNS.join(', ')}) values (?, ?, ?, ?, ?, ?)
       on conflict (device_id, ts, point_key) do update set value = excluded.value, raw = excluded.raw`,
      `insert into wit_collect_data (${RAW_COLUMNS.join(', ')}) values (${RAW_COLUMNS.map(() => '?').join(', ')})`,
    ],
    SQLITE_CONNECTION_PRAGMAS,
  );
  const seriesColumns = (rows: SeriesRow[]) => {
    const n = rows.length;
    const [devices, keys, tenants] = [new Array<string>(n), new Array<string>(n), new Array<string>(n)];
    const [ts, values, raws] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      devices[i] = r.deviceId;
      keys[i] = r.pointKey;
      ts[i] = r.ts;
      values[i] = r.value;
      raws[i] = r.raw;
      tenants[i] = r.tenantId;
    }
    return [devices, keys, ts, values, raws, tenants];
  };
  const rawColumns = (raws: RawRow[]) => {
    const rows = raws.map(rawValues);
    return RAW_COLUMNS.map((_, column) => rows.map((row) => row[column]));
  };
  return {
    // The thread takes the process's turn to write, as Kysely's writes do; Kysely's reads go on meanwhile.
    commit: (series, raws) =>
      native.writeLock.run(() =>
        thread.run([
          { statement: 0, columns: seriesColumns(series) },
          { statement: 1, columns: rawColumns(raws) },
        ]),
      ),
    // SQLite has one writer at a time: a second batch in flight would only wait for the lock.
    concurrency: 1,
    close: () => thread.close(),
  };
}

const UNIQUE_VIOLATION = '23505';

/**
 * A field of PostgreSQL's COPY text format: backslash, tab and line breaks escaped, NULL as `\N`. PostgreSQL text
 * cannot hold U+0000 (a device may send anything): it becomes U+FFFD, as invalid UTF-8 already does.
 */
function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r\0]/.test(value) ? value.replace(/[\\\t\n\r\0]/g, (c) => COPY_ESCAPES[c]) : value;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\uFFFD' };

/** Rows in COPY text format, one line each. */
function copyRows<T>(rows: readonly T[], fields: (row: T) => ReadonlyArray<string | number | null>): string {
  let text = '';
  for (const row of rows) text += `${fields(row).map(copyField).join('\t')}\n`;
  return text;
}

async function copyInto(client: pg.PoolClient, table: string, columns: readonly string[], rows: string): Promise<void> {
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  stream.end(rows);
  await finished(stream);
}

function postgresCommitter(native: Extract<NativeDb, { dialect: 'postgres' }>): Committer {
  // COPY: PostgreSQL's bulk load, the cheapest way in for both tables (plain inserts of unnest()ed arrays cost the
  // backend markedly more). COPY cannot upsert: a batch that meets a stored point (a QoS 1 redelivery, a correction
  // pulled again) is rare and runs again through a temporary table and `on conflict`.
  const upsert = async (client: pg.PoolClient, series: string) => {
    await client.query(`create temp table wit_device_log_incoming (device_id varchar, point_key varchar, ts bigint, value float8, raw float8, tenant_id varchar) on commit drop`);
    await copyInto(client, 'wit_device_log_incoming', SERIES_COLUMNS, series);
    await client.query(`insert into wit_device_log (${SERIES_COLUMNS.join(', ')}) select ${SERIES_COLUMNS.join(', ')} from wit_device_log_incoming
      on conflict (device_id, ts, point_key) do update set value = excluded.value, raw = excluded.raw`);
  };
  const transaction = async (series: string, raws: string, asUpsert: boolean) => {
    const client = await native.pool.connect();
    try {
      await client.query('begin');
      if (series && asUpsert) await upsert(client, series);
      else if (series) await copyInto(client, 'wit_device_log', SERIES_COLUMNS, series);
      if (raws) await copyInto(client, 'wit_collect_data', RAW_COLUMNS, raws);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  const commit = async (series: SeriesRow[], raws: RawRow[]) => {
    const seriesText = copyRows(latestCopies(series).sort(byKey), (r) => [r.deviceId, r.pointKey, r.ts, r.value, r.raw, r.tenantId]);
    const rawText = copyRows(raws, rawValues);
    try {
      await transaction(seriesText, rawText, false);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await transaction(seriesText, rawText, true);
    }
  };
  // Two batches in flight, on two connections: while one waits for its commit's WAL flush, the next one inserts.
  // 44-48k -> 69k points/s on a machine where PostgreSQL's backend was the bottleneck; a third added nothing.
  return { commit, concurrency: 2, close: async () => undefined };
}

/**
 * Group commit of readings: everything written while the previous transaction runs goes into the next one, so a
 * flood of small messages costs few transactions. `write` resolves once its rows are committed — the broker
 * acknowledges a QoS 1 message only then. Where the store commits batches side by side, their writes are still
 * answered in the order they were made: MQTT wants a client's acknowledgements in the order of its messages.
 */
export class SeriesWriter {
  private pending: Batch = { series: [], raws: [], done: [] };
  private inFlight = 0;
  /** Settles once every batch started so far has been answered. */
  private answered: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private readonly committer: Committer;

  constructor(
    native: NativeDb,
    private readonly maxDelayMs = 10,
    private readonly maxRows = 20_000,
  ) {
    this.committer = native.dialect === 'sqlite' ? sqliteCommitter(native) : postgresCommitter(native);
  }

  /** `raw` is the message the rows came in; readings pulled from elsewhere have none. */
  write(series: readonly SeriesRow[], raw?: RawRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.series.push(...series);
      if (raw) this.pending.raws.push(raw);
      this.pending.done.push({ resolve, reject });
      if (this.pending.series.length >= this.maxRows) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.maxDelayMs);
    });
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.inFlight >= this.committer.concurrency || this.pending.done.length === 0) return;
    const batch = this.pending;
    this.pending = { series: [], raws: [], done: [] };
    this.inFlight++;
    const committed = this.committer.commit(batch.series, batch.raws).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    this.answered = Promise.all([this.answered, committed]).then(([, failed]) => {
      for (const d of batch.done) {
        if (failed) d.reject(failed.error);
        else d.resolve();
      }
    });
    void committed.then(() => {
      this.inFlight--;
      if (this.pending.done.length) this.kick();
    });
  }

  /** Waits until everything written so far is committed. */
  async flush(): Promise<void> {
    while (this.inFlight || this.pending.done.length) {
      this.kick();
      await this.answered;
    }
  }

  /** Stores what is buffered, then lets the store's resources go. */
  async close(): Promise<void> {
    await this.flush();
    await this.committer.close();
  }
}
