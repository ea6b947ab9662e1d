/**
 * Totals of list queries, keyed by their SQL and parameters. Counting 100k rows costs milliseconds on every page
 * turn; a total that is at most a few seconds old (and exact after this process's own writes, which clear it) is
 * what BladeX's page envelope needs. Concurrent misses share one count, and an expired total is served while a
 * fresh one is counted in the background, so page turns never wait for a count once the first one is known.
 */
interface Entry {
  total?: number;
  expires: number;
  pending?: Promise<number>;
}

export class CountCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 1_000,
  ) {}

  async get(key: string, load: () => Promise<number>): Promise<number> {
    const entry = this.entries.get(key);
    if (entry?.total !== undefined) {
      if (entry.expires <= Date.now() && !entry.pending) void this.refresh(key, entry, load).catch(() => undefined);
      return entry.total;
    }
    if (entry?.pending) return entry.pending;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const fresh: Entry = { expires: 0 };
    this.entries.set(key, fresh);
    return this.refresh(key, fresh, load);
  }

  private refresh(key: string, entry: Entry, load: () => Promise<number>): Promise<number> {
    const entries = this.entries;
    entry.pending = load().then(
      (total) => {
        // A clear() while counting makes this total suspect: it is returned but not kept.
        if (this.entries === entries) Object.assign(entry, { total, expires: Date.now() + this.ttlMs, pending: undefined });
        return total;
      },
      (error: unknown) => {
        entry.pending = undefined;
        if (entry.total === undefined) entries.delete(key);
        throw error;
      },
    );
    return entry.pending;
  }

  clear(): void {
    this.entries = new Map();
  }
}
