import { sql } from 'kysely';
import type { Platform } from '../platform';
import { tally } from '../series/store';
import { slices } from '../db/slices';

/** How often the online rate is sampled; samples fall on the clock's 10-minute boundaries. */
export const SAMPLE_INTERVAL_MS = 10 * 60_000;

/** Arms `fire` for the instant `at`; the handle stops it. */
export type SampleTimer = (at: number, fire: () => Promise<void>) => { stop(): void };

export interface SamplerOptions {
  /** The clock the next sample is found from (tests: one they move themselves). */
  now?: () => number;
  /** Arms the timer of the next sample (tests: one they fire themselves, instead of waiting 10 minutes). */
  timer?: SampleTimer;
}

const realTimer: SampleTimer = (at, fire) => {
  const timer = setTimeout(() => void fire(), Math.max(0, at - Date.now()));
  timer.unref();
  return { stop: () => clearTimeout(timer) };
};

/**
 * Which boundary of the local clock an instant falls on: 3 midnight, 2 a multiple of six hours, 1 the hour, 0 only a
 * ten-minute one. A long range of the board reads only the samples of a coarser grain (docs/statistics.md).
 */
export function grainOf(at: number): number {
  const date = new Date(at);
  if (date.getMinutes() !== 0) return 0;
  const hour = date.getHours();
  return hour === 0 ? 3 : hour % 6 === 0 ? 2 : 1;
}

/** The first sample instant after `now`. */
export const nextSampleAt = (now: number) => (Math.floor(now / SAMPLE_INTERVAL_MS) + 1) * SAMPLE_INTERVAL_MS;

/**
 * Samples the online rate every 10 minutes (docs/statistics.md "Online rate"): one row per tenant and project (`'0'`:
 * devices of no project), and one for the whole tenant (`'*'`), with its live devices and how many of them are online, as presence has stored them in
 * wit_device (server/ingest/presence.ts keeps that column current, in every server process). Devices of projects in
 * the recycle bin are not counted. Several servers on one database take the same instants; the first row of an
 * instant stays (the key makes the others no-ops).
 */
export class PresenceSampler {
  private timer?: { stop(): void };
  private running?: Promise<unknown>;
  private stopped = false;
  private readonly now: () => number;
  private readonly arm: SampleTimer;

  constructor(
    private readonly platform: Platform,
    options: SamplerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.arm = options.timer ?? realTimer;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Stops the timer; resolves once a sample under way is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.stop();
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private schedule(): void {
    if (this.stopped) return;
    const at = nextSampleAt(this.now());
    this.timer = this.arm(at, async () => {
      // One process of a deployment samples each instant.
      this.running = this.platform.leases
        .claim('presence-sample', at / SAMPLE_INTERVAL_MS)
        .then((claimed) => (claimed ? this.sample(at) : 0)).catch((error: unknown) => this.platform.logs.error('presence-sampler', error, `sample of ${at}`));
      await this.running;
      this.schedule();
    });
  }

  /** Writes the sample of instant `at`; returns how many rows it wrote (none when another server already did). */
  async sample(at: number): Promise<number> {
    const { db } = this.platform;
    // Background work without a caller: every tenant's devices (raw-queries.ts, BACKGROUND).
    const groups = await db
      .selectFrom('wit_device as d')
      .leftJoin('wit_project as p', 'p.id', 'd.projectId')
      .select(['d.tenantId', 'd.projectId', (eb) => eb.fn.countAll<number>().as('devices'), sql<number>`sum(case when d.online = 1 then 1 else 0 end)`.as('online')])
      .where('d.isDeleted', '=', 0)
      .where((eb) => eb.or([eb('d.projectId', 'is', null), eb('d.projectId', '=', ''), eb('p.isDeleted', '=', 0)]))
      .groupBy(['d.tenantId', 'd.projectId'])
      .execute();
    const grain = grainOf(at);
    const rows = new Map<string, { tenantId: string; grain: number; at: number; projectId: string; devices: number; online: number }>();
    for (const g of groups) {
      // A device whose project is '' counts with those of no project.
      const projectId = g.projectId || tally.NO_PROJECT;
      const key = `${g.tenantId}|${projectId}`;
      const row = rows.get(key) ?? { tenantId: g.tenantId, grain, at, projectId, devices: 0, online: 0 };
      row.devices += Number(g.devices);
      row.online += Number(g.online ?? 0);
      rows.set(key, row);
    }
    // Each tenant's total, which the board of an administrator reads instead of summing every project's row.
    for (const row of [...rows.values()]) {
      const key = `${row.tenantId}|${tally.ALL_PROJECTS}`;
      const total = rows.get(key) ?? { ...row, projectId: tally.ALL_PROJECTS, devices: 0, online: 0 };
      total.devices += row.devices;
      total.online += row.online;
      rows.set(key, total);
    }
    let written = 0;
    for (const slice of slices([...rows.values()])) {
      const result = await db
        .insertInto('wit_presence_sample')
        .values(slice)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      written += Number(result.numInsertedOrUpdatedRows ?? 0);
    }
    return written;
  }
}
