import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SampleTimer } from '../../../server/ingest/presence-sampler';
import { PresenceSampler } from '../../../server/ingest/presence-sampler';
import { formatDateTime } from '../../../server/time';
import type { ApiClient } from '../../support/client';
import { expectOk, postParams } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { boardData, connectDevice, deviceOf, newTenant, staffOf, submit, X } from './support';

/**
 * The online-rate sampler (docs/statistics.md "Online rate") driven by a clock the test moves: each 10-minute boundary
 * it passes writes one sample per tenant and project, which the board reads back within the caller's projects.
 */

/** The sampler's clock: time stands still until the test moves it; timers it passes fire in order. */
const START = new Date(2026, 2, 9, 23, 55).getTime();

class SampleClock {
  time = START;
  readonly armed = new Set<{ at: number; fire: () => Promise<void> }>();

  now = () => this.time;

  timer: SampleTimer = (at, fire) => {
    const timer = { at, fire };
    this.armed.add(timer);
    return { stop: () => void this.armed.delete(timer) };
  };

  /** Moves to `to`, firing every timer on the way (a fired sample arms the next one). */
  async moveTo(to: number): Promise<void> {
    for (;;) {
      const due = [...this.armed].filter((t) => t.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.armed.delete(due);
      this.time = due.at;
      await due.fire();
    }
    this.time = to;
  }
}

const clock = new SampleClock();
const at = (hour: number, minute: number, day = 10) => new Date(2026, 2, day, hour, minute).getTime();

onEveryStore('online samples', { signIn: ['admin'], app: { sampler: { now: clock.now, timer: clock.timer } } }, (ctx) => {
  const clients: MqttClient[] = [];
  const f = {} as { tenantId: string; admin: ApiClient; viewer: ApiClient; north: string; south: string };

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    // The next store's server starts its sampler on the same clock.
    clock.time = START;
  });

  const online = async (code: string) => {
    clients.push(await connectDevice(ctx.server, code));
    const db = ctx.server.app.platform.db;
    await until(async () => Number((await db.selectFrom('wit_device').select('online').where('code', '=', code).executeTakeFirstOrThrow()).online) === 1, 10_000, `${code} online`);
  };

  beforeAll(async () => {
    const { tenantId, admin } = await newTenant(ctx.server, ctx.admin, '在线率业主');
    const north = String((await submit(admin, 'project', { name: '北桥', code: 'SM-NORTH' })).id);
    const south = String((await submit(admin, 'project', { name: '南隧道', code: 'SM-SOUTH' })).id);
    await deviceOf(admin, { code: 'SM-N1', name: '北1', projectId: north }, ['v']);
    await deviceOf(admin, { code: 'SM-N2', name: '北2', projectId: north }, ['v'], false);
    await deviceOf(admin, { code: 'SM-S1', name: '南1', projectId: south }, ['v']);
    await deviceOf(admin, { code: 'SM-X1', name: '无项目', projectId: null }, ['v'], false);
    const viewer = (await staffOf(ctx.server, admin, tenantId, 'sm-viewer', { projectIds: [north] })).client;
    Object.assign(f, { tenantId, admin, viewer, north, south });
    // The server's sampler armed its first sample at the next boundary of its clock when it started.
    expect([...clock.armed].map((t) => t.at)).toEqual([at(0, 0)]);
  });

  const samplesOf = async (instant: number) =>
    (await ctx.server.app.platform.db.selectFrom('wit_presence_sample').selectAll().where('tenantId', '=', f.tenantId).where('at', '=', instant).orderBy('projectId').execute()).map((r) => [
      r.projectId,
      Number(r.grain),
      Number(r.devices),
      Number(r.online),
    ]);

  it('writes a sample per tenant and project at each 10-minute boundary', async () => {
    await online('SM-N1');
    await clock.moveTo(at(0, 5));
    const rows = [
      ['0', 3, 1, 0],
      [f.north, 3, 2, 1],
      [f.south, 3, 1, 0],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(await samplesOf(at(0, 0))).toEqual(rows);
    expect([...clock.armed].map((t) => t.at)).toEqual([at(0, 10)]);

    await online('SM-S1');
    await clock.moveTo(at(1, 0));
    expect((await samplesOf(at(0, 10))).find((r) => r[0] === f.south)).toEqual([f.south, 0, 1, 1]);
    expect((await samplesOf(at(1, 0))).map((r) => r[1])).toEqual([1, 1, 1]);
    expect(await samplesOf(at(0, 30))).toHaveLength(3);
  });

  it('gives the board the online rate over time, within the caller’s projects', async () => {
    const range = { startTime: formatDateTime(new Date(at(0, 0))), endTime: formatDateTime(new Date(at(1, 0))) };
    const board = await boardData(f.admin, range);
    expect(board.online).toHaveLength(7);
    expect(board.online[0]).toEqual({ at: range.startTime, devices: 4, online: 1, rate: 0.25 });
    expect(board.online.slice(1).map((s) => [s.devices, s.online, s.rate])).toEqual(Array(6).fill([4, 2, 0.5]));
    const viewer = await boardData(f.viewer, range);
    expect(viewer.online.map((s) => [s.devices, s.online])).toEqual(Array(7).fill([2, 1]));
    const south = await boardData(f.admin, { ...range, projectId: f.south });
    expect(south.online.map((s) => s.online)).toEqual([0, 1, 1, 1, 1, 1, 1]);
    // The platform administrator, for this tenant.
    expect((await boardData(ctx.admin, { ...range, tenantId: f.tenantId })).online).toEqual(board.online);
  });

  it('reads a long range at a coarser grain', async () => {
    const board = await boardData(f.admin, { startTime: '2026-02-20', endTime: '2026-03-10' });
    expect(board.online.map((s) => s.at)).toEqual([formatDateTime(new Date(at(0, 0))), formatDateTime(new Date(at(1, 0)))]);
  });

  it('leaves out the devices of a project in the recycle bin, and writes an instant once', async () => {
    expectOk(await postParams(f.admin, `${X}/project/remove`, { ids: f.south }));
    await clock.moveTo(at(1, 10));
    expect((await samplesOf(at(1, 10))).map((r) => r[0])).toEqual(['0', f.north].sort());
    // A second server on the same database takes the same instant: the first sample stays.
    const other = new PresenceSampler(ctx.server.app.platform, { now: () => at(1, 10) });
    expect(await other.sample(at(1, 10))).toBe(0);
    expect(await other.sample(at(1, 20))).toBeGreaterThan(0);
  });

  it('stops with the server', async () => {
    expect(clock.armed.size).toBe(1);
    await ctx.server.app.statistics.sampler.stop();
    expect(clock.armed.size).toBe(0);
  });
});
