/**
 * Totals of list queries, keyed by their SQL and parameters. Counting 100k rows costs milliseconds on every page
 * turn; a total that is at most a few seconds old (and exact after this process's own writes, which clear it) is
 * what BladeX's page envelope needs.
 */
export class CountCache {
  private readonly entries = new Map<string, { total: number; expires: number }>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 1_000,
  ) {}

  async get(key: string, load: () => Promise<number>): Promise<number> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.total;
    const total = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { total, expires: now + this.ttlMs });
    return total;
  }

  clear(): void {
    this.entries.clear();
  }
}
