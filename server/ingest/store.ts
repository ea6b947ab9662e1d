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

function postgresCommitter(native: Extract<NativeDb, { dialect: 'postgres' }>): Committer {
  // unnest() of one array per column: one statement and six parameters whatever the batch size. The array literals
  // are built here: node-postgres escapes every element of an array parameter one call at a time, which cost more
  // than the rest of the pipeline.
  const insertSql = `insert into wit_device_log (${SERIES_COLUMNS.join(', ')})
    select * from unnest($1::varchar[], $2::varchar[], $3::bigint[], $4::float8[], $5::float8[], $6::varchar[])`;
  // A plain insert costs PostgreSQL markedly less than `on conflict` (speculative insertion); a batch that meets a
  // stored point (a QoS 1 redelivery, a correction pulled again) is rare and runs again as an upsert.
  const upsertSql = `${insertSql} on conflict (device_id, ts, point_key) do update set value = excluded.value, raw = excluded.raw`;
  // Raw messages carry arbitrary text: one JSON parameter, parsed by PostgreSQL, instead of escaped array literals.
  const rawSql = `insert into wit_collect_data (${RAW_COLUMNS.join(', ')})
    select * from json_to_recordset($1::json) as r(id varchar, tenant_id varchar, device_id varchar, gateway_id varchar,
      project_id varchar, device_code text, topic text, payload text, received_at bigint, readings int, error text,
      create_time varchar, update_time varchar, status int, is_deleted int)`;
  const seriesColumns = (rows: SeriesRow[]) => {
    const text = (pick: (r: SeriesRow) => string) => `{${rows.map((r) => `"${pick(r).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
    const numbers = (pick: (r: SeriesRow) => number) => `{${rows.map(pick).join(',')}}`;
    return [text((r) => r.deviceId), text((r) => r.pointKey), numbers((r) => r.ts), numbers((r) => r.value), numbers((r) => r.raw), text((r) => r.tenantId)];
  };
  const rawJson = (raws: RawRow[]) =>
    JSON.stringify(
      raws.map((r) => {
        const values = rawValues(r);
        return Object.fromEntries(RAW_COLUMNS.map((column, i) => [column, values[i]]));
      }),
    );
  const transaction = async (seriesSql: string, series: string[], raws: string) => {
    const client = await native.pool.connect();
    try {
      await client.query('begin');
      if (series.length) await client.query(seriesSql, series);
      if (raws) await client.query(rawSql, [raws]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
  const commit = async (series: SeriesRow[], raws: RawRow[]) => {
    const columns = series.length ? seriesColumns(latestCopies(series).sort(byKey)) : [];
    const json = raws.length ? rawJson(raws) : '';
    try {
      await transaction(insertSql, columns, json);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await transaction(upsertSql, columns, json);
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
