import { createClient } from 'redis';

/** Short-lived shared values (captcha codes): in memory on one machine, in Redis when REDIS_URL is set. */
export interface KeyValueStore {
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Reads and deletes in one step, so a value can be used once. */
  take(key: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export class MemoryStore implements KeyValueStore {
  private readonly entries = new Map<string, { value: string; expires: number }>();

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    if (this.entries.size > 100_000) this.sweep();
    this.entries.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry && entry.expires > Date.now() ? entry.value : undefined;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

/** The three commands the store uses; keeps the class free of the client's deep generic types. */
interface RedisCommands {
  set(key: string, value: string, options: { EX: number }): Promise<unknown>;
  getDel(key: string): Promise<unknown>;
  quit(): Promise<unknown>;
}

export class RedisStore implements KeyValueStore {
  private constructor(private readonly client: RedisCommands) {}

  static async connect(url: string): Promise<RedisStore> {
    const client = createClient({ url });
    await client.connect();
    return new RedisStore(client as unknown as RedisCommands);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.client.set(`vigil:${key}`, value, { EX: ttlSeconds });
  }

  async take(key: string): Promise<string | undefined> {
    const value = await this.client.getDel(`vigil:${key}`);
    return typeof value === 'string' ? value : undefined;
  }

  async close(): Promise<void> {
    await this.client.quit();
  }
}
