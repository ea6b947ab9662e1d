import { expect, it } from 'vitest';
import { type Fence, type JobTimer, Leases, StaleFence } from '../../../server/cluster/leases';
import { onEveryStore } from '../../support/suite';

onEveryStore('cluster leases and periodic claims', (ctx) => {
  let now = 1_000_000;
  const clock = { now: () => now };
  const processes = () => {
    const { db, dialect } = ctx.server.app.platform;
    return [new Leases(db, dialect, 'a', clock), new Leases(db, dialect, 'b', clock)] as const;
  };
  const write = (fence: Fence) => ctx.server.app.platform.db.transaction().execute((trx) => fence.check(trx));

  it('gives each period of a job to one process, and never a period again or an earlier one', async () => {
    const [a, b] = processes();
    const first = await a.claim('job:test', 10);
    expect(first).toBeDefined();
    expect(await b.claim('job:test', 10)).toBeUndefined();
    expect(await a.claim('job:test', 10)).toBeUndefined();
    // A process that paused and wakes up with an old period claims nothing.
    expect(await b.claim('job:test', 9)).toBeUndefined();
    const next = await b.claim('job:test', 11);
    expect(next?.token).toBeGreaterThan(first?.token ?? Number.POSITIVE_INFINITY);
  });

  it('fences the writes of a claim that a later claim has overtaken', async () => {
    const [a, b] = processes();
    const late = await a.claim('job:fenced', 1);
    if (!late) throw new Error('not claimed');
    await write(late);
    await b.claim('job:fenced', 2);
    await expect(write(late)).rejects.toBeInstanceOf(StaleFence);
  });

  it('lets a lease be renewed by its holder, taken once it expires, taken back by force, and released', async () => {
    const [a, b] = processes();
    const held = await a.acquire('lease:test', 5000);
    expect(held).toBeDefined();
    expect(await b.acquire('lease:test', 5000)).toBeUndefined();
    now += 4000;
    expect((await a.acquire('lease:test', 5000))?.token).toBe(held?.token);
    expect(await a.orphans('lease:')).toEqual([]);
    now += 6000;
    expect(await a.orphans('lease:')).toEqual(['lease:test']);
    const adopted = await b.acquire('lease:test', 5000);
    if (!adopted || !held) throw new Error('not adopted');
    expect(adopted.token).toBeGreaterThan(held.token);
    await expect(write(held)).rejects.toBeInstanceOf(StaleFence);
    const back = await a.take('lease:test', 5000);
    await expect(write(adopted)).rejects.toBeInstanceOf(StaleFence);
    await a.release(back);
    now += 10_000;
    expect(await b.orphans('lease:')).toEqual([]);
  });

  it('runs a periodic job once per period whichever processes arm it', async () => {
    const { db, dialect } = ctx.server.app.platform;
    const armed: Array<{ at: number; fire: () => void }> = [];
    const timer: JobTimer = (at, fire) => {
      armed.push({ at, fire });
      return { stop: () => undefined };
    };
    const runs: string[] = [];
    const jobs = ['a', 'b'].map((who) =>
      new Leases(db, dialect, who, { now: () => now, timer }).every('job:periodic', 1000, async () => void runs.push(who), (error) => {
        throw error;
      }),
    );
    // Both arm the same instant of the grid; firing both runs the job once.
    const next = 1000 * (Math.floor(now / 1000) + 1);
    expect(armed.map((t) => t.at)).toEqual([next, next]);
    now = next;
    for (const t of armed.splice(0)) t.fire();
    await Promise.all(jobs.map((job) => job.stop()));
    expect(runs).toHaveLength(1);
  });
});
