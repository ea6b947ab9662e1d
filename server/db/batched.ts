/** Most keys one lookup names: an `IN (…)` list well within SQLite's and PostgreSQL's parameter limits. */
const MOST_KEYS = 500;

type Waiting<V> = Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>;

/** How long keys are collected before they are looked up together. */
const BATCH_WINDOW_MS = 10;

/**
 * Looks up several keys with one query: the keys asked for within BATCH_WINDOW_MS go together. A fleet that
 * reconnects asks for thousands of devices in a few seconds, but each CONNECT arrives in a turn of the event loop of its
 * own: collected per turn, 10,000 CONNECTs were 10,000 lookups, a third of the main thread (bench:connections).
 */
export class Batched<V> {
  private pending = new Map<string, Waiting<V>>();

  constructor(private readonly load: (keys: string[]) => Promise<Map<string, V>>) {}

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) setTimeout(() => void this.flush(), BATCH_WINDOW_MS);
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
