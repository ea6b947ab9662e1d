import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { migrateTo, migrateToLatest } from '../../../server/db/migrate';
import type { Db } from '../../../server/db/database';
import type { SeriesRow } from '../../../server/ingest/store';
import { storeSeries, tally } from '../../../server/series/store';
import { storeKinds, withFreshStore } from '../../support/databases';
import { formatDateTime } from '../../../server/time';
import { expectOk, postParams } from '../../support/envelope';
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

async function deviceAlarms(db: Db, deviceId: string): Promise<Counts> {
  const rows = await db.selectFrom('wit_device_alarms').selectAll().where('deviceId', '=', deviceId).orderBy('month').execute();
  return Object.fromEntries(rows.map((r) => [r.month, [Number(r.total), ...Array.from({ length: 31 }, (_, i) => Number(r[`d${i + 1}` as 'd1']))]]));
}

/** A project's counts, its stripes summed (each connection of PostgreSQL's writer adds to one of its own). */
async function projectCounts(db: Db, projectId: string): Promise<Counts> {
  const rows = await db.selectFrom('wit_project_points').selectAll().where('projectId', '=', projectId).execute();
  const byMonth: Counts = {};
  for (const r of rows) {
    const row = [Number(r.total), ...Array.from({ length: 31 }, (_, i) => Number(r[`d${i + 1}` as 'd1']))];
    byMonth[r.month] = row.map((n, i) => n + (byMonth[r.month]?.[i] ?? 0));
  }
  return byMonth;
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

  it('counts alarms as they are raised, change level, move to another day and are removed (triggers on wit_alarm)', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: ids.device, pointKey: 'tilt_x', level1Upper: 10, level2Upper: 5, level3Upper: 3, level4Upper: 2 });
    const client = await connectDevice(ctx.server, 'COUNT-TILT-01');
    const ts = Date.now();
    const month = formatDateTime(new Date(ts)).slice(0, 7);
    const day = new Date(ts).getDate();
    const alarms = async () => {
      const levels = await db().selectFrom('wit_alarm_counts').selectAll().where('projectId', '=', ids.project).where('month', '=', month).orderBy('alarmLevel').execute();
      const device = (await deviceAlarms(db(), ids.device))[month] ?? [];
      return {
        levels: Object.fromEntries(levels.map((r) => [r.alarmLevel, [Number(r.total), Number(r[`d${day}` as 'd1'])]])),
        device: [device[0] ?? 0, device[day] ?? 0],
      };
    };
    await publish(client, DEMO, 'COUNT-TILT-01', ts, { tilt_x: 2.5 });
    await ctx.server.app.alarms.idle();
    expect((await alarms()).levels).toEqual({ 4: [1, 1] });
    // Escalated to orange: the count moves from blue to orange.
    await publish(client, DEMO, 'COUNT-TILT-01', ts + 1000, { tilt_x: 6 });
    await ctx.server.app.alarms.idle();
    expect((await alarms()).levels).toEqual({ 2: [1, 1], 4: [0, 0] });
    await client.endAsync();
    const alarm = await db().selectFrom('wit_alarm').select(['id', 'firstTime']).where('deviceId', '=', ids.device).executeTakeFirstOrThrow();
    const alarmed = async () => (await db().selectFrom('wit_device_alarms').select(['month', 'total']).where('deviceId', '=', ids.device).execute()).map((r) => [r.month, Number(r.total)]);
    expect(await alarmed()).toEqual([[month, 1]]);
    // Its first time moved to another month (an operator's SQL, say): the count follows.
    await db().updateTable('wit_alarm').set({ firstTime: '2025-12-31 10:00:00' }).where('id', '=', alarm.id).execute();
    expect(await alarmed()).toEqual(expect.arrayContaining([[month, 0], ['2025-12', 1]]));
    await db().updateTable('wit_alarm').set({ firstTime: alarm.firstTime }).where('id', '=', alarm.id).execute();
    // Removed: taken back; one recorded by hand: counted.
    expectOk(await postParams(ctx.demo, `${X}/alarm/remove`, { ids: alarm.id }));
    expect((await alarms()).levels).toEqual({ 2: [0, 0], 4: [0, 0] });
    await submit(ctx.demo, 'alarm', { deviceId: ids.device, alarmLevel: 3, content: '人工巡检' });
    expect(await alarms()).toEqual({ levels: { 2: [0, 0], 3: [1, 1], 4: [0, 0] }, device: [1, 1] });
  });

  it.runIf(ctx.store === 'postgres')("lets the writer's statement add to one project's month on two stripes side by side, and makes a second on one stripe wait", async () => {
    const { native } = ctx.server.app.platform;
    if (native.dialect !== 'postgres') return;
    const [, byProject] = tally.COUNTERS;
    const text = tally.upsertDaysArraySql(byProject);
    const day = [[DEMO], [ids.project], ['2026-07'], [9], [5]];
    const [a, b] = [await native.pool.connect(), await native.pool.connect()];
    try {
      await a.query('begin');
      await a.query(text, [...day, 1]);
      // B may not wait: a wait for A's row fails at once instead of hanging the test.
      await b.query("begin; set local lock_timeout = '200ms'");
      await b.query(text, [...day, 2]);
      await b.query('commit');
      await b.query("begin; set local lock_timeout = '200ms'");
      await expect(b.query(text, [...day, 1])).rejects.toMatchObject({ code: '55P03' });
      await b.query('rollback');
      await a.query('commit');
    } finally {
      a.release();
      b.release();
    }
    expect((await projectCounts(db(), ids.project))['2026-07']).toEqual(counts({ '2026-07': { 9: 10 } })['2026-07']);
  });

  it('counts readings received over MQTT, a redelivered one once, under the tenant and project of the device', async () => {
    const client = await connectDevice(ctx.server, 'COUNT-TILT-01');
    const ts = new Date(2026, 3, 10, 12).getTime();
    await publish(client, DEMO, 'COUNT-TILT-01', ts, { tilt_x: 0.1, tilt_y: 0.2 });
    await publish(client, DEMO, 'COUNT-TILT-01', ts, { tilt_x: 0.1, tilt_y: 0.2 });
    await publish(client, DEMO, 'COUNT-TILT-01', ts + 60_000, { tilt_x: 0.1 });
    await client.endAsync();
    expect((await deviceCounts(db(), ids.device))['2026-04']).toEqual(counts({ '2026-04': { 10: 3 } })['2026-04']);
    const rows = await db()
      .selectFrom('wit_project_points')
      .select(['tenantId', (eb) => eb.fn.sum<number>('total').as('total')])
      .where('projectId', '=', ids.project)
      .where('month', '=', '2026-04')
      .groupBy('tenantId')
      .execute();
    expect(rows.map((r) => [r.tenantId, Number(r.total)])).toEqual([[DEMO, 3]]);
  });
});

/** Points stored before migration 0016 are counted by it. */
describe.each(await storeKinds())('counting the points already stored, on %s', (store) => {
  const withDatabase = (run: (database: Database) => Promise<void>) => withFreshStore(store, run);

  it('counts them (and the alarms) per device and project by their local day; points of a device gone count under no project', () =>
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
      const alarm = (id: string, device: string, project: string | null, level: number, firstTime: string, deleted = 0) =>
        sql`insert into wit_alarm (id, tenant_id, project_id, device_id, alarm_type, alarm_level, max_level, first_time, is_deleted) values (${id}, '100001', ${project}, ${device}, 1, ${level}, ${level}, ${firstTime}, ${deleted})`.execute(db);
      await alarm('A1', 'D1', 'P1', 2, '2026-05-31 23:00:00');
      await alarm('A2', 'D1', 'P1', 2, '2026-06-01 01:00:00');
      await alarm('A3', 'D2', null, 4, '2026-06-01 02:00:00');
      await alarm('A4', 'D2', null, 4, '2026-06-01 03:00:00', 1);
      await migrateToLatest(db);
      const alarms = await db.selectFrom('wit_alarm_counts').select(['tenantId', 'projectId', 'alarmLevel', 'month', 'total', 'd31', 'd1']).orderBy('month').orderBy('projectId').execute();
      expect(alarms.map((r) => [r.projectId, r.alarmLevel, r.month, Number(r.total), Number(r.d31), Number(r.d1)])).toEqual([
        ['P1', 2, '2026-05', 1, 1, 0],
        ['0', 4, '2026-06', 1, 0, 1],
        ['P1', 2, '2026-06', 1, 0, 1],
      ]);
      expect((await db.selectFrom('wit_device_alarms').select(['deviceId', 'month', 'total']).orderBy('deviceId').orderBy('month').execute()).map((r) => [r.deviceId, r.month, Number(r.total)])).toEqual([
        ['D1', '2026-05', 1],
        ['D1', '2026-06', 1],
        ['D2', '2026-06', 1],
      ]);
      expect(await deviceCounts(db, 'D1')).toEqual(counts({ '2026-05': { 31: 2 }, '2026-06': { 1: 1 } }));
      expect(await deviceCounts(db, 'D3')).toEqual(counts({ '2026-06': { 2: 1 } }));
      expect(await projectCounts(db, 'P1')).toEqual(counts({ '2026-05': { 31: 2 }, '2026-06': { 1: 1 } }));
      // Carried through migration 0028 to stripe 0.
      const none = await db.selectFrom('wit_project_points').select(['tenantId', 'month', 'stripe', 'total']).where('projectId', '=', '0').execute();
      expect(none.map((r) => [r.tenantId, r.month, Number(r.stripe), Number(r.total)])).toEqual([['100002', '2026-06', 0, 1]]);
    }));
});
