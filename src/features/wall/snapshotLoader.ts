import { type Decoded, type LoadAnswer, type LoadRequest, loadSnapshot, type SnapshotRequest } from '../../../streams/screenSnapshot';

/**
 * Loads the wall screen's snapshots in a worker (snapshotWorker.ts, streams/screenSnapshot.ts): the worker makes the
 * call, decodes it and hands it back taken apart. Where no worker can be had (or it fails to start), on the page.
 */
export interface SnapshotLoader {
  load(request: SnapshotRequest): Promise<Decoded>;
  close(): void;
}

interface Waiting {
  resolve(decoded: Decoded): void;
  reject(error: Error): void;
}

export function snapshotLoader(): SnapshotLoader {
  let worker: Worker | undefined;
  let broken = typeof Worker === 'undefined';
  let last = 0;
  const waiting = new Map<number, Waiting>();
  const dropAll = (why: string) => {
    for (const pending of waiting.values()) pending.reject(new Error(why));
    waiting.clear();
  };
  const open = (): Worker | undefined => {
    if (broken || worker) return worker;
    worker = new Worker(new URL('./snapshotWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<LoadAnswer>) => {
      const pending = waiting.get(data.id);
      waiting.delete(data.id);
      if ('decoded' in data) pending?.resolve(data.decoded);
      else pending?.reject(new Error(data.error));
    };
    // A worker that cannot start: the snapshots under way are fetched again (the stream retries), decoded on the page.
    worker.onerror = () => {
      broken = true;
      worker?.terminate();
      worker = undefined;
      dropAll('the snapshot worker failed');
    };
    return worker;
  };
  return {
    load(request) {
      const target = open();
      if (!target) return loadSnapshot(request);
      const id = ++last;
      return new Promise<Decoded>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        target.postMessage({ ...request, id } satisfies LoadRequest);
      });
    },
    close() {
      worker?.terminate();
      worker = undefined;
      dropAll('the screen stopped');
    },
  };
}
