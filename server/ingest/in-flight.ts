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
