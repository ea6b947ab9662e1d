import { type DecodeAnswer, type DecodeRequest, type Decoded, decodeSnapshot, type KnownShapes } from '../../../streams/screenSnapshot';

/**
 * Decodes the wall screen's snapshots in a worker (snapshotWorker.ts, streams/screenSnapshot.ts): the body's bytes
 * are handed over without a copy and come back taken apart. Where no worker can be had (or it fails to start), on
 * the page itself.
 */
export interface SnapshotDecoder {
  decode(body: ArrayBuffer, known: KnownShapes): Promise<Decoded>;
  close(): void;
}

interface Waiting {
  resolve(decoded: Decoded): void;
  reject(error: Error): void;
}

export function snapshotDecoder(): SnapshotDecoder {
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
    worker.onmessage = ({ data }: MessageEvent<DecodeAnswer>) => {
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
    decode(body, known) {
      const target = open();
      if (!target) return Promise.resolve().then(() => decodeSnapshot(body, known));
      const id = ++last;
      return new Promise<Decoded>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        target.postMessage({ id, body, known } satisfies DecodeRequest, [body]);
      });
    },
    close() {
      worker?.terminate();
      worker = undefined;
      dropAll('the screen stopped');
    },
  };
}
