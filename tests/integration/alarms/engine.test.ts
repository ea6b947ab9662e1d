import { sql } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import type { AlarmsChanged } from '../../../server/events';
import { nextId } from '../../../server/ids';
import { signedIn } from '../../support/client';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { startServer } from '../../support/server';
import { failWrites, loggedErrors } from '../../support/failures';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, submit, X } from '../monitoring/support';
import { until } from '../../support/wait';
import { BRIDGE, emit, reading } from './support';

/** The engine's read of its channels' open alarms (private to it), where a test lets a rival commit first. */
interface OpenAlarmsReader {
  openAlarms(deviceIds: readonly string[]): Promise<Map<string, unknown>>;
}

/**
 * What the alarm engine keeps of an alarm between readings (server/alarms/engine.ts): a late reading does not move an
 * alarm back in time; a better level keeps the handling and tells nobody, a worse one asks for both again.
 */

onEveryStore('alarm engine', { signIn: ['demo'] }, (ctx) => {
  const start = Date.now() - 600_000;
  const alarmOf = async (code: string, pointKey: string): Promise<Row> => {
    const [alarm, ...others] = expectOk(await ctx.demo.get<PageData>(`${X}/alarm/list`, { deviceId: demoId(`device:${code}`), pointKey_equal: pointKey })).records;
    expect(others).toEqual([]);
    return alarm;
  };
  // A reading the engine could not judge is logged and dropped, and the next one may look the same: no test here
  // leaves an error behind.
  afterEach(async () => {
    expect(await loggedErrors(ctx.server, 'alarm')).toEqual([]);
  });
  const actions = async (alarmId: string) => expectOk(await ctx.demo.get<PageData>(`${X}/alarmlog/list`, { alarmId, ascs: 'revision' })).records.map((l) => [l.action, l.toLevel]);

  it('leaves an alarm as it is for a reading older than its last change, and moves it for the next newer one', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-GNSS-01'), pointKey: 'dz', level1Upper: 40, level4Upper: 10 });
    await emit(ctx.server, [reading('QJ-GNSS-01', 'dz', 20, start)]);
    const raised = await alarmOf('QJ-GNSS-01', 'dz');
    expect(raised).toMatchObject({ alarmLevel: 4, revision: 1, alarmState: 1 });
    // Older readings, arriving late (a device's backlog after a cut): red, then clear — neither applies.
    await emit(ctx.server, [reading('QJ-GNSS-01', 'dz', 50, start - 5_000)], [reading('QJ-GNSS-01', 'dz', 0, start - 1_000)]);
    expect(await alarmOf('QJ-GNSS-01', 'dz')).toMatchObject({ alarmLevel: 4, revision: 1, alarmState: 1, value: 20 });
    // A reading at the same instant as the change is not older: it applies.
    await emit(ctx.server, [reading('QJ-GNSS-01', 'dz', 50, start)]);
    expect(await alarmOf('QJ-GNSS-01', 'dz')).toMatchObject({ alarmLevel: 1, revision: 2, value: 50 });
    expect(await actions(raised.id)).toEqual([
      [1, 4],
      [2, 1],
    ]);
  });

  it("raises the alarm of a device that left its project under its threshold's project", async () => {
    const threshold = await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-RAIN-01'), pointKey: 'rainfall', level3Upper: 50 });
    expect(threshold.projectId).toBe(BRIDGE);
    // The reading of a device no project holds now (docs/alarms.md "Whose alarm").
    await emit(ctx.server, [{ ...reading('QJ-RAIN-01', 'rainfall', 60, start), projectId: null }]);
    expect(await alarmOf('QJ-RAIN-01', 'rainfall')).toMatchObject({ alarmLevel: 3, projectId: BRIDGE });
  });

  it('raises, clears and raises again within one batch: two alarms, the first cleared', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-GNSS-01'), pointKey: 'dy', level4Upper: 10 });
    await emit(ctx.server, [reading('QJ-GNSS-01', 'dy', 20, start), reading('QJ-GNSS-01', 'dy', 0, start + 1_000), reading('QJ-GNSS-01', 'dy', 30, start + 2_000)]);
    const alarms = expectOk(await ctx.demo.get<PageData>(`${X}/alarm/list`, { deviceId: demoId('device:QJ-GNSS-01'), pointKey_equal: 'dy', ascs: 'firstTime,id' })).records;
    expect(alarms.map((a) => [a.alarmState, a.firstValue, a.value])).toEqual([
      [2, 20, 0],
      [1, 30, 30],
    ]);
  });

  it('keeps a handled alarm handled and tells nobody when it gets better; a worse level asks for handling and tells again', async () => {
    const { userId } = expectOk(await ctx.demo.get<{ userId: string }>('/api/blade-auth/oauth/user-info'));
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '引擎', userIds: userId, channels: 'notice', projectIds: BRIDGE }));
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-GNSS-01'), pointKey: 'dx', level2Upper: 30, level4Upper: 10 });
    await emit(ctx.server, [reading('QJ-GNSS-01', 'dx', 35, start)]);
    const raised = await alarmOf('QJ-GNSS-01', 'dx');
    expectOk(await postParams(ctx.demo, `${X}/alarm/batchHandle`, { ids: raised.id, handleResult: '已复核' }));

    await emit(ctx.server, [reading('QJ-GNSS-01', 'dx', 15, start + 1_000)]);
    expect(await alarmOf('QJ-GNSS-01', 'dx')).toMatchObject({ alarmLevel: 4, maxLevel: 2, handleState: 1, revision: 2, value: 15, limitValue: 10 });
    await emit(ctx.server, [reading('QJ-GNSS-01', 'dx', 36, start + 2_000)]);
    expect(await alarmOf('QJ-GNSS-01', 'dx')).toMatchObject({ alarmLevel: 2, maxLevel: 2, handleState: 0, revision: 3, value: 36, limitValue: 30 });

    await ctx.server.app.alarms.idle();
    const sent = expectOk(await ctx.demo.get<PageData>(`${X}/alarmsendlog/list`, { alarmId: raised.id, ascs: 'revision' })).records;
    expect(sent.map((s) => [s.revision, s.channel, s.success])).toEqual([
      [1, 'notice', 1],
      [3, 'notice', 1],
    ]);
    // Raised, handled (at the level it had), de-escalated, escalated.
    expect((await actions(raised.id)).sort((a, b) => Number(a[0] === 5) - Number(b[0] === 5))).toEqual([
      [1, 2],
      [3, 4],
      [2, 2],
      [5, 2],
    ]);
  });

  it('judges no reading told after the alarms stopped', async () => {
    // A server of its own: its alarms are stopped here.
    const server = await startServer(ctx.store);
    try {
      const demo = await signedIn(server.url, 'admin', 'admin', DEMO);
      await submit(demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-TH-01'), pointKey: 'temperature', level1Upper: 40 });
      await server.app.alarms.stop();
      // The engine waits for whatever it was given: nothing, once its listener is gone.
      await emit(server, [reading('QJ-TH-01', 'temperature', 90, Date.now())]);
      expect(expectOk(await demo.get<PageData>(`${X}/alarm/list`, { deviceId: demoId('device:QJ-TH-01'), pointKey_equal: 'temperature' })).records).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('is idle only when every batch queued is judged, those queued while it was waited for included', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-HLS-02'), pointKey: 'settlement', level4Upper: 10 });
    const engine = ctx.server.app.alarms.engine;
    // Forty batches raising and clearing in turn: twenty alarms, each a transaction of its own, one after another.
    const batch = (i: number) => [reading('QJ-HLS-02', 'settlement', i % 2 === 0 ? 20 : 0, start + i * 1_000)];
    for (let i = 0; i < 20; i++) engine.enqueue(batch(i));
    const idle = engine.idle();
    for (let i = 20; i < 40; i++) engine.enqueue(batch(i));
    await idle;
    const alarms = await ctx.server.app.platform.db.selectFrom('wit_alarm').select('alarmState').where('deviceId', '=', demoId('device:QJ-HLS-02')).where('pointKey', '=', 'settlement').execute();
    expect(alarms.map((a) => Number(a.alarmState))).toEqual(Array(20).fill(2));
  });

  /** What the engine tells the rest of the server while it judges `batches`: the tables it changed and its alarm events. */
  const told = async (...batches: ReturnType<typeof reading>[][]) => {
    const events = ctx.server.app.platform.events;
    const tables: string[] = [];
    const alarms: AlarmsChanged[] = [];
    const onChanged = (table: string) => tables.push(table);
    const onAlarms = (change: AlarmsChanged) => alarms.push(change);
    events.on('changed', onChanged);
    events.on('alarms', onAlarms);
    try {
      await emit(ctx.server, ...batches);
    } finally {
      events.off('changed', onChanged);
      events.off('alarms', onAlarms);
    }
    return { tables: tables.filter((t) => t === 'wit_alarm' || t === 'wit_alarm_log'), alarms: alarms.map(({ tenantId, ids, action }) => ({ tenantId, ids, action })) };
  };

  it('tells of a raise and a clear (the alarm tables changed, the alarm by id), and of nothing for a reading at the level held', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-TILT-02'), pointKey: 'tilt_x', level4Upper: 10 });
    const raise = await told([reading('QJ-TILT-02', 'tilt_x', 20, start)]);
    const raised = await alarmOf('QJ-TILT-02', 'tilt_x');
    expect(raise).toEqual({ tables: ['wit_alarm', 'wit_alarm_log'], alarms: [{ tenantId: DEMO, ids: [raised.id], action: 'raise' }] });

    // Still at level 4: not a change — the alarm keeps its revision and the value that raised it, and nobody is told.
    expect(await told([reading('QJ-TILT-02', 'tilt_x', 25, start + 1_000)])).toEqual({ tables: [], alarms: [] });
    expect(await alarmOf('QJ-TILT-02', 'tilt_x')).toMatchObject({ alarmLevel: 4, revision: 1, value: 20 });
    expect(await actions(raised.id)).toEqual([[1, 4]]);

    expect(await told([reading('QJ-TILT-02', 'tilt_x', 0, start + 2_000)])).toEqual({ tables: ['wit_alarm', 'wit_alarm_log'], alarms: [{ tenantId: DEMO, ids: [raised.id], action: 'clear' }] });
  });

  it("loses a raise to another writer's alarm without an error, and judges the batch's next reading against the alarm that won", async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-TILT-02'), pointKey: 'tilt_y', level1Upper: 40, level4Upper: 10 });
    // The rival: an open alarm of the channel, as another process raised it (shaped after one the engine raised here).
    await emit(ctx.server, [reading('QJ-TILT-02', 'tilt_y', 20, start)], [reading('QJ-TILT-02', 'tilt_y', 0, start + 1_000)]);
    const { id: _, ...shape } = await ctx.server.app.platform.db.selectFrom('wit_alarm').selectAll().where('deviceId', '=', demoId('device:QJ-TILT-02')).where('pointKey', '=', 'tilt_y').executeTakeFirstOrThrow();
    const at = start + 2_000;
    const rival = { ...shape, id: nextId(), alarmState: 1, alarmLevel: 1, maxLevel: 1, revision: 1, value: 50, firstValue: 50, readingTs: at, clearTime: null };
    const insert = ctx.server.app.platform.db.insertInto('wit_alarm').values(rival).compile();

    // The engine has read the channel's open alarms (none) when the rival commits; its own raise then meets it.
    const batch = [reading('QJ-TILT-02', 'tilt_y', 20, at), reading('QJ-TILT-02', 'tilt_y', 0, at + 1_000)];
    const { native, db } = ctx.server.app.platform;
    if (native.dialect === 'sqlite') {
      // The rival commits as the engine's read of the open alarms returns, before its raise. Not when a transaction is
      // seen waiting for the write lock: the server's periodic writes (lease claims, the latest values) wait there too.
      const engine = ctx.server.app.alarms.engine as unknown as OpenAlarmsReader;
      const read = engine.openAlarms.bind(engine);
      const rivalFirst = vi.spyOn(engine, 'openAlarms').mockImplementationOnce(async (deviceIds) => {
        const open = await read(deviceIds);
        await native.writeLock.run(async () => native.sqlite.prepare(insert.sql).run(...(insert.parameters as unknown[])));
        return open;
      });
      ctx.server.app.platform.events.emit('readings', batch);
      await ctx.server.app.alarms.engine.idle();
      expect(rivalFirst).toHaveBeenCalled();
      rivalFirst.mockRestore();
    } else {
      const rivalProcess = await native.pool.connect();
      try {
        await rivalProcess.query('begin');
        await rivalProcess.query(insert.sql, insert.parameters as unknown[]);
        ctx.server.app.platform.events.emit('readings', batch);
        // The raise's insert waits on the rival's key until the rival commits, then fails as a unique violation.
        await until(
          async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(db)).rows[0].n === 1,
          10_000,
          'the raise to wait for the rival',
        );
        await rivalProcess.query('commit');
      } finally {
        rivalProcess.release();
      }
    }
    await ctx.server.app.alarms.engine.idle();

    // The rival stands (no second open alarm), and the next reading cleared it: the engine read it again after losing.
    const rows = await db.selectFrom('wit_alarm').select(['id', 'alarmState', 'revision', 'value']).where('deviceId', '=', demoId('device:QJ-TILT-02')).where('pointKey', '=', 'tilt_y').where('readingTs', '>=', at).execute();
    expect(rows).toEqual([{ id: rival.id, alarmState: 2, revision: 2, value: 0 }]);
    expect(await actions(rival.id)).toEqual([[4, null]]);
  });

  it('logs a reading it could not judge for a failure of the store, not as a lost race, and judges the next one', async () => {
    await submit(ctx.demo, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-CRACK-01'), pointKey: 'crack', level4Upper: 10 });
    const stopFailing = await failWrites(ctx.server, 'wit_alarm', 'new.value = 77.5');
    try {
      await emit(ctx.server, [reading('QJ-CRACK-01', 'crack', 77.5, start)]);
    } finally {
      await stopFailing();
    }
    await emit(ctx.server, [reading('QJ-CRACK-01', 'crack', 20, start + 1_000)]);
    expect(await alarmOf('QJ-CRACK-01', 'crack')).toMatchObject({ alarmLevel: 4, revision: 1, firstValue: 20 });

    expect(await loggedErrors(ctx.server, 'alarm')).toEqual([expect.stringContaining('storage failure')]);
    // Expected here: removed, so that the check after each test finds none.
    await ctx.server.app.platform.db.deleteFrom('blade_log_error').where('exceptionName', '=', 'alarm').execute();
  });
});
