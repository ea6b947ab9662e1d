import { expect, it } from 'vitest';
import { type Arm, type CommandSender, Scheduler } from '../../../server/modules/wit-xinde/strategy-scheduler';
import { expectOk } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { submit, X } from '../monitoring/support';
import { at, BRIDGE, deviceOf } from './support';

const HOUR = 3_600_000;

/** One clock for several schedulers: armed occurrences fire when the test moves the clock past them. */
function fakeClock(start: number) {
  let now = start;
  const armed = new Set<{ at: number; fire: () => Promise<void> }>();
  const arm: Arm = (at, fire) => {
    const timer = { at, fire };
    armed.add(timer);
    return { stop: () => void armed.delete(timer) };
  };
  return {
    now: () => now,
    arm,
    armedAt: () => [...armed].map((t) => t.at),
    /** Moves the clock to `to` and fires what falls due, all at once; resolves when those firings have ended. */
    async advance(to: number): Promise<void> {
      now = to;
      const due = [...armed].filter((t) => t.at <= to);
      for (const t of due) armed.delete(t);
      await Promise.all(due.map((t) => t.fire()));
    },
  };
}

/** What the schedulers send, in place of the command module. */
function recorder() {
  const sent: string[] = [];
  return { sent, send: async (...[, , , options]: Parameters<CommandSender['send']>) => sent.push(String(options.source)) };
}

/** Several servers on one database arm the same occurrences; the claim on the row lets one of them fire each. */
onEveryStore('collection strategy claims', { signIn: ['demo'] }, (ctx) => {
  /** Saves an enabled strategy and starts two schedulers on the suite's database, on one fake clock at its change. */
  async function twoServers(body: Record<string, unknown>) {
    const saved = await submit(ctx.demo, 'collectstrategy', { projectId: BRIDGE, deviceIds: deviceOf('QJ-RAIN-01'), enabled: 1, ...body });
    const anchor = at(String(saved.updateTime));
    const clock = fakeClock(anchor);
    const commands = recorder();
    const platform = ctx.server.app.platform;
    const servers = [new Scheduler(platform, commands, clock), new Scheduler(platform, commands, clock)];
    await Promise.all(servers.map((s) => s.sync()));
    const sent = () => commands.sent.filter((s) => s === `strategy:${saved.id}`).length;
    return { id: String(saved.id), anchor, clock, servers, sent, stop: () => Promise.all(servers.map((s) => s.stop())) };
  }

  it('fires each occurrence once when two schedulers share the database, and nothing once stopped', async () => {
    const { id, anchor, clock, servers, sent, stop } = await twoServers({ name: '两台服务器', intervalSeconds: 3600 });
    const { db } = ctx.server.app.platform;
    const jobs = async () => (await db.selectFrom('wit_job_info').select('runTime').where('strategyId', '=', id).execute()).length;
    try {
      expect(clock.armedAt().filter((t) => t === anchor + HOUR)).toHaveLength(2);
      await clock.advance(anchor + HOUR);
      expect([sent(), await jobs()]).toEqual([1, 1]);
      // A clock late by a few seconds: still the same occurrence, claimed already.
      await clock.advance(anchor + 2 * HOUR + 3000);
      expect([sent(), await jobs()]).toEqual([2, 2]);
      const row = await db.selectFrom('wit_collect_strategy').select('lastFired').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(row.lastFired)).toBe(anchor + 2 * HOUR);

      expectOk(await ctx.demo.post(`${X}/collectstrategy/update`, { id, enabled: 0 }));
      await Promise.all(servers.map((s) => s.sync()));
      expect(servers.map((s) => s.isRunning(id))).toEqual([false, false]);
      await clock.advance(anchor + 10 * HOUR);
      expect([sent(), await jobs()]).toEqual([2, 2]);
    } finally {
      await stop();
    }
  });

  it('fires a daily time once a day when two schedulers share the database', async () => {
    const { anchor, clock, sent, stop } = await twoServers({ name: '同时触发', times: '03:00' });
    try {
      const [first] = clock.armedAt().filter((t) => t > anchor).sort((a, b) => a - b);
      for (let day = 0; day < 3; day++) await clock.advance(first + day * 24 * HOUR);
      expect(sent()).toBe(3);
    } finally {
      await stop();
    }
  });
});
