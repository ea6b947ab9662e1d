import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints an SQLite database's write-ahead log from a worker thread with its own connection. Left to SQLite, the
 * commit that crosses the WAL limit copies the whole log into the database file on the committing thread — the one
 * that also parses every device message. A passive checkpoint elsewhere never blocks a writer and leaves the
 * committing thread's own checkpoint (which lets the log start over) little to copy (docs/benchmarks.md).
 */
export interface Checkpointer {
  stop(): Promise<void>;
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage(String(error));
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export function startCheckpointer(file: string, onError: (message: string) => void, intervalMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, intervalMs } });
  worker.on('message', (message: string) => onError(message));
  worker.on('error', (error) => onError(String(error)));
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
      await worker.terminate();
    },
  };
}
