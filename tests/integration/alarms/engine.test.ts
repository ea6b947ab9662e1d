import { afterEach, expect, it } from 'vitest';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { demoId, submit, X } from '../monitoring/support';
import { BRIDGE, emit, reading } from './support';

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
    await ctx.server.app.platform.logs.flush();
    const errors = await ctx.server.app.platform.db.selectFrom('blade_log_error').select(['exceptionName', 'message']).where('exceptionName', '=', 'alarm').execute();
    expect(errors).toEqual([]);
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
});
