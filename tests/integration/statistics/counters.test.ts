import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../server/db/database';
import { migrateTo, migrateToLatest } from '../../../server/db/migrate';
import type { Db } from '../../../server/db/database';
import type { SeriesRow } from '../../../server/ingest/store';
import { storeSeries } from '../../../server/series/store';
import { createPgDatabase, storeKinds } from '../../support/databases';
import { expectOk } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { connectDevice, deviceOf, publish, submit, X } from './support';

/**
 * The point counters (docs/statistics.md "Counters"): every writer of the series counts the points it stores for the
 * first time, in the transaction that stores them, per device and per project, by the local day of the point's time.
 */

const DEMO = '100001';

/** A device's (or a project's) counts: month -> [total, day 1…31]. */
type Counts = Record<string, number[]>;

async function deviceCounts(db: Db, deviceId: string): Promise<Counts> {
  const rows = await db.selectFrom('wit_device_points').selectAll().where('deviceId', '=', deviceId).orderBy('month').execute();
  return Object.fromEntries(rows.map((r) => [r.month, [Number(r.total), ...Array.from({ length: 31 }, (_, i) => Number(r[`d${i + 1}` as 'd1']))]]));
}

async function projectCounts(db: Db, projectId: string): Promise<Counts> {
  const rows = await db.selectFrom('wit_project_points').selectAll().where('projectId', '=', projectId).orderBy('month').execute();
  return Object.fromEntries(rows.map((r) => [r.month, [Number(r.total), ...Array.from({ length: 31 }, (_, i) => Number(r[`d${i + 1}` as 'd1']))]]));
}

/** Expected counts: month -> {day: count}. */
function counts(months: Record<string, Record<number, number>>): Counts {
  return Object.fromEntries(
    Object.entries(months).map(([month, days]) => {
      const row = Array.from({ length: 31 }, (_, i) => days[i + 1] ?? 0);
      return [month, [row.reduce((a, b) => a + b, 0), ...row]];
    }),
  );
}

/** `perDay` readings of two channels a day, at local hours, on each of `days` (local dates). */
function history(base: Omit<SeriesRow, 'pointKey' | 'ts' | 'value' | 'raw'>, days: Array<[number, number, number]>, perDay: number): SeriesRow[] {
  return days.flatMap(([y, m, d]) =>
    Array.from({ length: perDay }, (_, h) => new Date(y, m - 1, d, h).getTime()).flatMap((ts) =>
      ['tilt_x', 'tilt_y'].map((pointKey, i) => ({ ...base, pointKey, ts, value: i + h(ts), raw: i + h(ts) })),
    ),
  );
}
const h = (ts: number) => new Date(ts).getHours() / 10;

onEveryStore('point counters', { signIn: ['demo'] }, (ctx) => {
  const ids = {} as Record<'project' | 'device' | 'second', string>;
  const db = () => ctx.server.app.platform.db;

  beforeAll(async () => {
    ids.project = String((await submit(ctx.demo, 'project', { name: '计数桥', code: 'COUNT-BRIDGE', structureType: 1 })).id);
    ids.device = String((await deviceOf(ctx.demo, { code: 'COUNT-TILT-01', name: '计数倾角计', projectId: ids.project }, ['tilt_x', 'tilt_y'])).id);
    ids.second = String((await deviceOf(ctx.demo, { code: 'COUNT-TILT-02', name: '计数倾角计2', projectId: ids.project }, ['tilt_x', 'tilt_y'], false)).id);
  });

  it("counts a week of history the ingestion's writer stores, by local day, across a month's end", async () => {
    const rows = history({ tenantId: DEMO, projectId: ids.project, deviceId: ids.device }, [[2026, 1, 29], [2026, 1, 30], [2026, 1, 31], [2026, 2, 1], [2026, 2, 2], [2026, 2, 3], [2026, 2, 4]], 24);
    await ctx.server.app.ingest.writer.write(rows);
    const week = counts({ '2026-01': { 29: 48, 30: 48, 31: 48 }, '2026-02': { 1: 48, 2: 48, 3: 48, 4: 48 } });
    expect(await deviceCounts(db(), ids.device)).toEqual(week);
    expect(await projectCounts(db(), ids.project)).toEqual(week);
  });

  it('counts a point once: written again, twice in one batch, or in a batch that fails', async () => {
    const { writer } = ctx.server.app.ingest;
    const base = { tenantId: DEMO, projectId: ids.project, deviceId: ids.device };
    // The last day again with other values (a redelivery, a pulled correction), and a new day.
    const again = history(base, [[2026, 2, 4]], 24).map((r) => ({ ...r, value: r.value + 100 }));
    await writer.write([...again, ...history(base, [[2026, 2, 5]], 2)]);
    const ts = new Date(2026, 1, 6, 8).getTime();
    // Two copies in one batch, and a failing batch (a key of null, which no writer of ours produces).
    await writer.write([{ ...base, pointKey: 'tilt_x', ts, value: 1, raw: 1 }, { ...base, pointKey: 'tilt_x', ts, value: 2, raw: 2 }]);
    await expect(writer.write([{ ...base, pointKey: 'tilt_y', ts, value: 1, raw: 1 }, { ...base, pointKey: null as unknown as string, ts, value: 1, raw: 1 }])).rejects.toThrow();
    const expected = counts({ '2026-01': { 29: 48, 30: 48, 31: 48 }, '2026-02': { 1: 48, 2: 48, 3: 48, 4: 48, 5: 4, 6: 1 } });
    expect(await deviceCounts(db(), ids.device)).toEqual(expected);
    expect(await projectCounts(db(), ids.project)).toEqual(expected);
    // The values written again are stored.
    const stored = await db().selectFrom('wit_device_log').select('value').where('deviceId', '=', ids.device).where('ts', '=', new Date(2026, 1, 4, 5).getTime()).where('pointKey', '=', 'tilt_x').executeTakeFirstOrThrow();
    expect(Number(stored.value)).toBe(100.5);
  });

  it('counts points stored with storeSeries in a transaction that commits, and nothing of one rolled back', async () => {
    const rows = history({ tenantId: DEMO, projectId: ids.project, deviceId: ids.second }, [[2026, 3, 1]], 3);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          expect(await storeSeries(trx, rows)).toBe(6);
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await deviceCounts(db(), ids.second)).toEqual({});
    expect(await db().transaction().execute((trx) => storeSeries(trx, [...rows, ...rows]))).toBe(6);
    expect(await db().transaction().execute((trx) => storeSeries(trx, rows.map((r) => ({ ...r, value: 7 }))))).toBe(0);
    expect(await deviceCounts(db(), ids.second)).toEqual(counts({ '2026-03': { 1: 6 } }));
    expect((await projectCounts(db(), ids.project))['2026-03']).toEqual(counts({ '2026-03': { 1: 6 } })['2026-03']);
  });

  it('counts a value added by hand, not a correction of a stored one', async () => {
    const ts = new Date(2026, 2, 2, 9).getTime();
    expectOk(await ctx.demo.post(`${X}/devicelog/submit`, { deviceId: ids.second, pointKey: 'tilt_x', ts, value: 0.5, reason: '补录' }));
    expectOk(await ctx.demo.post(`${X}/devicelog/submit`, { deviceId: ids.second, pointKey: 'tilt_x', ts, value: 0.6, reason: '修正' }));
    expect(await deviceCounts(db(), ids.second)).toEqual(counts({ '2026-03': { 1: 6, 2: 1 } }));
  });

  it('counts readings received over MQTT, a redelivered one once, under the tenant and project of the device', async () => {
    const client = await connectDevice(ctx.server, 'COUNT-TILT-01');
    const ts = new Date(2026, 3, 10, 12).getTime();
    await publish(client, DEMO, 'COUNT-TILT-01', ts, { tilt_x: 0.1, tilt_y: 0.2 });
    await publish(client, DEMO, 'COUNT-TILT-01', ts, { tilt_x: 0.1, tilt_y: 0.2 });
    await publish(client, DEMO, 'COUNT-TILT-01', ts + 60_000, { tilt_x: 0.1 });
    await client.endAsync();
    expect((await deviceCounts(db(), ids.device))['2026-04']).toEqual(counts({ '2026-04': { 10: 3 } })['2026-04']);
    const rows = await db().selectFrom('wit_project_points').select(['tenantId', 'total']).where('projectId', '=', ids.project).where('month', '=', '2026-04').execute();
    expect(rows.map((r) => [r.tenantId, Number(r.total)])).toEqual([[DEMO, 3]]);
  });
});

/** Points stored before migration 0016 are counted by it. */
describe.each(await storeKinds())('counting the points already stored, on %s', (store) => {
  async function withDatabase(run: (database: Database) => Promise<void>): Promise<void> {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-counts-'));
    const pg = store === 'postgres' ? await createPgDatabase() : undefined;
    const database = openDatabase({ dataDir, databaseUrl: pg?.url });
    try {
      await run(database);
    } finally {
      await database.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('counts them per device and project by their local day; those of a device gone have no project to count under', () =>
    withDatabase(async ({ db }) => {
      await migrateTo(db, '0015_strategy_claims');
      await sql`insert into wit_device (id, tenant_id, code, name, project_id) values ('D1', '100001', 'D1', 'D1', 'P1'), ('D2', '100002', 'D2', 'D2', null)`.execute(db);
      const points: Array<[string, string, number]> = [
        ['D1', 'a', new Date(2026, 4, 31, 23, 59).getTime()],
        ['D1', 'b', new Date(2026, 4, 31, 23, 59).getTime()],
        ['D1', 'a', new Date(2026, 5, 1, 0, 1).getTime()],
        ['D2', 'a', new Date(2026, 5, 1, 12).getTime()],
        ['D3', 'a', new Date(2026, 5, 2, 12).getTime()],
      ];
      for (const [device, key, ts] of points) {
        await sql`insert into wit_device_log (device_id, point_key, ts, value, raw, tenant_id) values (${device}, ${key}, ${ts}, 1, 1, '100001')`.execute(db);
      }
      await migrateToLatest(db);
      expect(await deviceCounts(db, 'D1')).toEqual(counts({ '2026-05': { 31: 2 }, '2026-06': { 1: 1 } }));
      expect(await deviceCounts(db, 'D3')).toEqual(counts({ '2026-06': { 2: 1 } }));
      expect(await projectCounts(db, 'P1')).toEqual(counts({ '2026-05': { 31: 2 }, '2026-06': { 1: 1 } }));
      const none = await db.selectFrom('wit_project_points').select(['tenantId', 'month', 'total']).where('projectId', '=', '0').execute();
      expect(none.map((r) => [r.tenantId, r.month, Number(r.total)])).toEqual([['100002', '2026-06', 1]]);
    }));
});
