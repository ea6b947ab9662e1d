import { Worker } from 'node:worker_threads';

/** One array of values per column, all of the same length (numbers travel best as a Float64Array). */
export type Columns = ReadonlyArray<ArrayLike<string | number | null>>;

/** Rows for one of the thread's tables, in columns: cheaper to hand to another thread than row objects. */
export interface RowsWrite {
  /** Index of the table in the thread's list. */
  table: number;
  columns: Columns;
  /** For a counted table: the tenant of each device written, under which its new points are counted. */
  tenants?: Readonly<Record<string, string>>;
  /** For a counted table: the project of each device written (null: none), under which its new points are counted. */
  projects?: Readonly<Record<string, string | null>>;
}

/**
 * A statement of the caller's, compiled for the thread's database (Kysely's `compile`), run as it is in the batch's
 * transaction: a write the main thread would otherwise run on its own connection, at fleet scale (the latest values'
 * write-back, server/ingest/latest.ts).
 */
export interface StatementWrite {
  statement: { sql: string; parameters: readonly unknown[] };
}

export type Write = RowsWrite | StatementWrite;

/** The tables a writer thread writes; `key` (the primary key) is what a row written again overwrites by. */
export interface WriterTable {
  name: string;
  columns: readonly string[];
  key?: readonly string[];
  /**
   * Its new rows are points of the series, counted into the point counters in the same transaction
   * (server/db/tally.cjs); it has `device_id` and `ts` columns, and a key; the write names each device's tenant and project.
   */
  tally?: true;
}

/** How long a closing thread gets to finish its batch and close its connections before it is terminated. */
const CLOSE_MS = 5000;

interface Reply {
  id: number;
  error?: string;
  code?: string;
}

/**
 * A worker thread with its own database connection(s) that stores batches of rows, each batch in one transaction
 * (`sqlite-writer.worker.cjs`, `postgres-writer.worker.cjs`). On the main thread a commit either stops everything
 * else (better-sqlite3 is synchronous; `synchronous = FULL` fsyncs every page written) or, for PostgreSQL, waits a
 * turn of a busy event loop at every step of its transaction. Here it overlaps with the main thread's work and
 * answers as soon as the database does (docs/ingest.md).
 */
export class WriterThread {
  private worker?: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();

  /**
   * `script` is the worker's file; `settings` go to it as its workerData, with the tables. `onError` hears of a crash
   * of the thread, which otherwise reaches only the batches it held (none when it was idle).
   */
  constructor(
    private readonly script: string,
    private readonly tables: readonly WriterTable[],
    private readonly settings: Record<string, unknown>,
    private readonly onError: (error: unknown, context: string) => void,
  ) {}

  /**
   * Starts the thread ahead of the first batch, which would otherwise wait for it (up to a second on a busy machine,
   * with every Kysely writer queued behind that batch's turn).
   */
  start(): this {
    this.thread();
    return this;
  }

  /** Stores the rows in one transaction; resolves once it is committed. */
  run(writes: readonly Write[]): Promise<void> {
    const id = this.nextId++;
    const transfer = writes.flatMap((w) => ('columns' in w ? w.columns.filter((c): c is Float64Array => c instanceof Float64Array).map((c) => c.buffer as ArrayBuffer) : []));
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.thread().postMessage({ id, writes }, transfer);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ close: true });
    const late = await Promise.race([exited, new Promise<true>((resolve) => setTimeout(() => resolve(true), CLOSE_MS))]);
    if (late) this.onError(new Error(`no exit within ${CLOSE_MS / 1000} s: terminated`), `closing ${this.script}`);
    await worker.terminate();
  }

  /** Started by start() or on first use, and again after a crash (which fails the batches it held, never silently). */
  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { workerData: { ...this.settings, tables: this.tables } });
    worker.on('message', ({ id, error, code }: Reply) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error === undefined) waiter?.resolve();
      else waiter?.reject(Object.assign(new Error(error), { code }));
    });
    worker.on('error', (error) => {
      this.onError(error, `writer thread ${this.script}`);
      this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('writer thread exited'));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
