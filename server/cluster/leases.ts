import type { Db, DialectName } from '../db/database';

/**
 * What the processes of one deployment decide together, in the database they share (docs/operations.md "One
 * deployment, N processes"): which of them runs a period of a periodic job, and who holds a named lease. One row per
 * name in vigil_lease; every change of hands or claimed period raises its fencing token, so a process that paused
 * (a long GC, a frozen VM) and wakes up late finds its token stale before it writes.
 */

/** A claim of a job's period or a lease: its fencing token, and the check that nobody has taken the name since. */
export interface Fence {
  readonly name: string;
  readonly token: number;
  /**
   * Inside the transaction of the work's writes: throws StaleFence when another process has claimed or taken the name
   * since. On PostgreSQL it locks the row until the transaction ends, so a taker waits for the writes to commit.
   */
  check(trx: Db): Promise<void>;
}

export class StaleFence extends Error {
  constructor(name: string) {
    super(`${name}: another process has taken over since this one's claim`);
  }
}

/** A job run once per period across the deployment. */
export interface PeriodicJob {
  /** Stops arming it; resolves when its run under way (if any) has ended. */
  stop(): Promise<void>;
}

/** Arms `fire` for the instant `at` (tests: one they fire themselves). */
export type JobTimer = (at: number, fire: () => void) => { stop(): void };

const realTimer: JobTimer = (at, fire) => {
  const timer = setTimeout(fire, Math.max(0, at - Date.now()));
  timer.unref();
  return { stop: () => clearTimeout(timer) };
};

export interface LeaseOptions {
  now?: () => number;
  timer?: JobTimer;
}

export class Leases {
  private readonly now: () => number;
  private readonly timer: JobTimer;

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
    /** This process, for as long as it runs: a restarted process is another holder. */
    readonly holder: string,
    options: LeaseOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.timer = options.timer ?? realTimer;
  }

  /**
   * Claims `period` of the job `name`: the first claim that moves the job's period forward wins; a later claim of the
   * same period or an earlier one (a process that woke up late) gets undefined.
   */
  async claim(name: string, period: number): Promise<Fence | undefined> {
    const moved = await this.db
      .updateTable('vigil_lease')
      .set((eb) => ({ period, holder: this.holder, token: eb('token', '+', 1) }))
      .where('name', '=', name)
      .where('period', '<', period)
      .returning('token')
      .executeTakeFirst();
    if (moved) return this.fence(name, moved.token);
    return (await this.create(name, { period })) ?? undefined;
  }

  /** Takes or renews the lease `name` for `ttlMs` when it is free, expired or this process's already. */
  async acquire(name: string, ttlMs: number): Promise<Fence | undefined> {
    const now = this.now();
    const taken = await this.db
      .updateTable('vigil_lease')
      .set((eb) => ({
        holder: this.holder,
        expiresAt: now + ttlMs,
        token: eb.case().when('holder', '=', this.holder).then(eb.ref('token')).else(eb('token', '+', 1)).end(),
      }))
      .where('name', '=', name)
      .where((eb) => eb.or([eb('holder', '=', this.holder), eb('expiresAt', '<', now)]))
      .returning('token')
      .executeTakeFirst();
    if (taken) return this.fence(name, taken.token);
    return this.create(name, { holder: this.holder, expiresAt: now + ttlMs });
  }

  /** Takes the lease `name` whoever holds it (its rightful owner is back): the holder's fence goes stale. */
  async take(name: string, ttlMs: number): Promise<Fence> {
    const taken = await this.db
      .updateTable('vigil_lease')
      .set((eb) => ({ holder: this.holder, expiresAt: this.now() + ttlMs, token: eb('token', '+', 1) }))
      .where('name', '=', name)
      .returning('token')
      .executeTakeFirst();
    if (taken) return this.fence(name, taken.token);
    return (await this.create(name, { holder: this.holder, expiresAt: this.now() + ttlMs })) ?? this.take(name, ttlMs);
  }

  /** Gives the lease up, if this fence still holds it: nobody need adopt what it held. */
  async release(fence: Fence): Promise<void> {
    await this.db.updateTable('vigil_lease').set({ holder: '', expiresAt: 0 }).where('name', '=', fence.name).where('token', '=', fence.token).execute();
  }

  /** Leases under `prefix` whose holder stopped renewing them without releasing them (it died). */
  async orphans(prefix: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('vigil_lease')
      .select('name')
      .where('name', 'like', `${prefix}%`)
      .where('holder', '<>', '')
      .where('expiresAt', '<', this.now())
      .execute();
    return rows.map((row) => row.name);
  }

  /**
   * Runs `work` once per `periodMs` across the deployment, on the clock's grid (every process arms the same instants;
   * the one whose claim wins runs it). A run still going when the next instant comes skips that instant here; another
   * process may take it.
   */
  every(name: string, periodMs: number, work: (fence: Fence) => Promise<void>, onError: (error: unknown) => void): PeriodicJob {
    let armed: { stop(): void } | undefined;
    let running: Promise<void> | undefined;
    let stopped = false;
    const arm = () => {
      const at = (Math.floor(this.now() / periodMs) + 1) * periodMs;
      armed = this.timer(at, () => fire(at));
    };
    const fire = (at: number) => {
      if (stopped) return;
      arm();
      if (running) return;
      running = this.claim(name, Math.floor(at / periodMs))
        .then((fence) => (fence ? work(fence) : undefined))
        .catch((error: unknown) => (error instanceof StaleFence ? undefined : onError(error)))
        .finally(() => {
          running = undefined;
        });
    };
    arm();
    return {
      stop: async () => {
        stopped = true;
        armed?.stop();
        await running;
      },
    };
  }

  /** The row of a name seen for the first time; undefined when another process made it first. */
  private async create(name: string, values: { period?: number; holder?: string; expiresAt?: number }): Promise<Fence | undefined> {
    const made = await this.db
      .insertInto('vigil_lease')
      .values({ name, holder: values.holder ?? this.holder, token: 1, period: values.period ?? -1, expiresAt: values.expiresAt ?? 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('token')
      .executeTakeFirst();
    return made ? this.fence(name, made.token) : undefined;
  }

  private fence(name: string, raw: number | string): Fence {
    const token = Number(raw);
    const forUpdate = this.dialect === 'postgres';
    return {
      name,
      token,
      check: async (trx) => {
        const query = trx.selectFrom('vigil_lease').select('token').where('name', '=', name);
        const row = await (forUpdate ? query.forUpdate() : query).executeTakeFirst();
        if (Number(row?.token) !== token) throw new StaleFence(name);
      },
    };
  }
}
