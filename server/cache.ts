/** A counter of a fixed window: hits so far and milliseconds until the window ends. */
export interface Hits {
  count: number;
  ttlMs: number;
}

/**
 * Short-lived shared values (captcha codes, sign-in throttle counters): in memory on one machine, in Redis when
 * REDIS_URL is set, so several server processes share them.
 */
export interface KeyValueStore {
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Reads without using the value up. */
  peek(key: string): Promise<string | undefined>;
  /** Reads and deletes in one step, so a value can be used once. */
  take(key: string): Promise<string | undefined>;
  /** Counts one hit of a key; the window starts at the first hit and lasts windowMs. */
  hit(key: string, windowMs: number): Promise<Hits>;
  /** Whether the store answers now (readiness, server/observe): always in memory; Redis while connected. */
  reachable(): boolean;
  close(): Promise<void>;
}

/** What a Redis client tells of its connection: its errors while reconnecting, and that it is ready again. */
interface RedisEvents {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
}

/**
 * Keeps a lost Redis connection from ending the process (a client's `error` event without a listener throws) and
 * tells the log once per outage: the client retries every half second meanwhile, failing each time.
 */
export function watchRedis(client: RedisEvents, name: string, log: { warn(fields: object, message: string): void; info(fields: object, message: string): void }): void {
  let down = false;
  client.on('error', (error) => {
    if (down) return;
    down = true;
    log.warn({ redis: name, err: error }, 'redis: not reachable, retrying');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ redis: name }, 'redis: connected again');
  });
}

/**
 * A QUIT a client cannot send (Redis away, or a subscriber reconnected after a Redis restart) would hold the shutdown
 * for ever: after a second the client is let go (the process is ending).
 */
export async function closeRedis(client: { quit(): Promise<unknown>; unref(): void }): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), 1000);
  });
  const outcome = await Promise.race([client.quit().catch(() => undefined), late]);
  clearTimeout(timer);
  // Dropped, not destroyed: destroying rejects the commands still queued, which socket.io's adapter never catches.
  if (outcome === 'late') client.unref();
}

export class MemoryStore implements KeyValueStore {
  private readonly entries = new Map<string, { value: string; expires: number }>();
  private readonly counters = new Map<string, { count: number; expires: number }>();

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    if (this.entries.size > 100_000) this.sweep();
    this.entries.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry && entry.expires > Date.now() ? entry.value : undefined;
  }

  async peek(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    return entry && entry.expires > Date.now() ? entry.value : undefined;
  }

  async hit(key: string, windowMs: number): Promise<Hits> {
    const now = Date.now();
    if (this.counters.size > 100_000) this.sweep();
    let counter = this.counters.get(key);
    if (!counter || counter.expires <= now) {
      counter = { count: 0, expires: now + windowMs };
      this.counters.set(key, counter);
    }
    counter.count += 1;
    return { count: counter.count, ttlMs: counter.expires - now };
  }

  reachable(): boolean {
    return true;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
    for (const [key, counter] of this.counters) if (counter.expires <= now) this.counters.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.counters.clear();
  }
}

/**
 * A short-lived store that cannot be reached now (Redis away). Throttles let their call through on it (a throttle
 * must not lock everyone out while Redis restarts); a captcha cannot be issued or checked, which the error handler
 * answers as 503 `服务暂不可用`.
 */
export class StoreUnavailable extends Error {
  constructor(cause: unknown) {
    super('short-lived store unavailable', { cause });
    this.name = 'StoreUnavailable';
  }
}

/** Runs a throttle's store work; with the store away the throttle stands aside (`open`), other errors still fail. */
export async function orWhenUnavailable<T>(work: Promise<T>, open: T): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof StoreUnavailable) return open;
    throw error;
  }
}

/** The commands the store uses; keeps the class free of the client's deep generic types. */
interface RedisCommands {
  set(key: string, value: string, options: { EX: number }): Promise<unknown>;
  get(key: string): Promise<unknown>;
  getDel(key: string): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  quit(): Promise<unknown>;
  unref(): void;
  readonly isReady: boolean;
}

/** INCR with the window's expiry set by the first hit, in one step so concurrent processes count alike. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

export class RedisStore implements KeyValueStore {
  private constructor(private readonly client: RedisCommands) {}

  static async connect(url: string, log: Parameters<typeof watchRedis>[2]): Promise<RedisStore> {
    // Loaded only with REDIS_URL: a single process does not pay for the client at start.
    const { createClient } = await import('redis');
    // Refused at once while Redis is away, not queued until it is back: the throttles and call limits let the call
    // through (docs/security.md), captchas answer 503, and no request waits on a reconnect.
    const client = createClient({ url, disableOfflineQueue: true });
    watchRedis(client, 'store', log);
    await client.connect();
    return new RedisStore(client as unknown as RedisCommands);
  }

  reachable(): boolean {
    return this.client.isReady;
  }

  /** A command's failure while the connection is down is the store being away, not a fault of the call. */
  private async command<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!this.client.isReady) throw new StoreUnavailable(error);
      throw error;
    }
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.command(() => this.client.set(`vigil:${key}`, value, { EX: ttlSeconds }));
  }

  async peek(key: string): Promise<string | undefined> {
    const value = await this.command(() => this.client.get(`vigil:${key}`));
    return typeof value === 'string' ? value : undefined;
  }

  async take(key: string): Promise<string | undefined> {
    const value = await this.command(() => this.client.getDel(`vigil:${key}`));
    return typeof value === 'string' ? value : undefined;
  }

  async hit(key: string, windowMs: number): Promise<Hits> {
    const [count, ttl] = (await this.command(() => this.client.eval(HIT_SCRIPT, { keys: [`vigil:${key}`], arguments: [String(windowMs)] }))) as [number, number];
    return { count: Number(count), ttlMs: Number(ttl) };
  }

  async close(): Promise<void> {
    // Redis may be away as the process stops: a QUIT it cannot send would hold the shutdown.
    await closeRedis(this.client);
  }
}
