import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** One array of values per bound parameter, all of the same length (numbers travel best as a Float64Array). */
export type Columns = ReadonlyArray<ArrayLike<string | number | null>>;

/** Rows for one of the thread's statements, in columns: cheaper to hand to another thread than row objects. */
export interface Write {
  statement: number;
  columns: Columns;
}

interface Reply {
  id: number;
  error?: string;
}

/**
 * A worker thread with its own SQLite connection that runs batches of prepared writes, each batch in one transaction.
 * better-sqlite3 is synchronous: on the main thread a commit (`synchronous = FULL`: an fsync of every page it wrote)
 * stops everything else, MQTT included. Here it overlaps with the main thread's work (docs/ingest.md).
 */
export class WriterThread {
  private worker?: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();

  constructor(
    private readonly file: string,
    private readonly statements: readonly string[],
    private readonly pragmas: readonly string[],
  ) {}

  /** Runs the writes in one transaction; resolves once it is committed. */
  run(writes: readonly Write[]): Promise<void> {
    const id = this.nextId++;
    const transfer = writes.flatMap((w) => w.columns.filter((c): c is Float64Array => c instanceof Float64Array).map((c) => c.buffer as ArrayBuffer));
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
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    await worker.terminate();
  }

  /** Started on first use, and again after a crash (which fails the batches it held, never silently). */
  private thread(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(new URL('./writer-thread.worker.cjs', import.meta.url), {
      workerData: { file: this.file, driver, statements: this.statements, pragmas: this.pragmas },
    });
    worker.on('message', ({ id, error }: Reply) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error === undefined) waiter?.resolve();
      else waiter?.reject(new Error(error));
    });
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('SQLite writer thread exited'));
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
