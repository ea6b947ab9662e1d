/** Counts promises in flight and resolves `idle` once none is left or the time is up (the broker's drain at close). */
export class InFlight {
  private count = 0;
  private readonly waiters = new Set<() => void>();

  track<T>(work: Promise<T>): Promise<T> {
    this.count += 1;
    return work.finally(() => {
      this.count -= 1;
      if (this.count === 0) for (const wake of this.waiters) wake();
    });
  }

  async idle(ms: number): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}

/** Resolves when `work` does or after `ms`, whichever comes first. */
export async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Settles work in the order it was added per key, whenever each piece finishes: MQTT wants a client's PUBACKs in the
 * order of its PUBLISHes, and its data messages may be stored out of order (a gateway's waiting for different device
 * lookups) or by batches that commit side by side (server/ingest/store.ts). A piece that fails fails on its own; the
 * next still waits for it.
 */
export class InOrder<K extends object> {
  private readonly last = new WeakMap<K, Promise<unknown>>();

  after<T>(key: K, work: Promise<T>): Promise<T> {
    const previous = this.last.get(key);
    // Promise.all handles `work` now: its failure is never unhandled while the one before it runs.
    const ordered = previous ? Promise.all([previous, work]).then(([, value]) => value) : work;
    const settled = ordered.catch(() => undefined);
    this.last.set(key, settled);
    // Forgotten once settled, unless more was added meanwhile.
    void settled.then(() => {
      if (this.last.get(key) === settled) this.last.delete(key);
    });
    return ordered;
  }
}
