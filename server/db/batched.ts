/** Most keys one lookup names: an `IN (…)` list well within SQLite's and PostgreSQL's parameter limits. */
const MOST_KEYS = 500;

type Waiting<V> = Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>;

/**
 * Looks up several keys with one query: the keys asked for within one turn of the event loop go together. A fleet that
 * reconnects asks for thousands of devices in a few seconds; one query per device was most of a CONNECT's cost
 * (bench:connections).
 */
export class Batched<V> {
  private pending = new Map<string, Waiting<V>>();

  constructor(private readonly load: (keys: string[]) => Promise<Map<string, V>>) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) setImmediate(() => void this.flush());
      const waiting = this.pending.get(key) ?? [];
      waiting.push({ resolve, reject });
      this.pending.set(key, waiting);
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending];
    this.pending = new Map();
    for (let i = 0; i < batch.length; i += MOST_KEYS) {
      const part = batch.slice(i, i + MOST_KEYS);
      try {
        const found = await this.load(part.map(([key]) => key));
        for (const [key, waiting] of part) for (const { resolve } of waiting) resolve(found.get(key));
      } catch (error) {
        for (const [, waiting] of part) for (const { reject } of waiting) reject(error);
      }
    }
  }
}
