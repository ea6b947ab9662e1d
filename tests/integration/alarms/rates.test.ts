import { expect, it } from 'vitest';
import type { Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { demoId, submit } from '../monitoring/support';
import { emit, reading } from './support';

/**
 * Rate-of-change alarms over a stored history with irregular intervals and gaps (server/alarms/engine.ts
 * `reference`, evaluate.ts `rateOf`): the rate is measured against the newest stored reading at least one period old,
 * over the real time between the two — not against the oldest reading, the previous one, or as if exactly one period
 * had passed. The expected rates are worked out here from the readings.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Per hour: above 50 is red (1), above 20 orange (2), above 5 blue (4). */
const RULE = { targetType: 1, ratePeriod: 1, level1Rate: 50, level2Rate: 20, level4Rate: 5 };

onEveryStore('rates of change over irregular history', { signIn: ['demo'] }, (ctx) => {
  const now = Date.now() - HOUR;

  /** Stores a channel's history (minutes before `now`, value) and judges a reading at `now`; returns its open alarm. */
  const judge = async (code: string, pointKey: string, history: Array<[number, number]>, value: number): Promise<Row | undefined> => {
    const deviceId = demoId(`device:${code}`);
    await submit(ctx.demo, 'devicethreshold', { ...RULE, deviceId, pointKey });
    const rows = history.map(([minutes, v]) => ({ deviceId, pointKey, ts: now - minutes * MINUTE, value: v, raw: v }));
    await ctx.server.app.platform.db.insertInto('wit_device_log').values(rows).execute();
    await emit(ctx.server, [reading(code, pointKey, value, now)]);
    return (await ctx.server.app.platform.db.selectFrom('wit_alarm').selectAll().where('deviceId', '=', deviceId).where('pointKey', '=', pointKey).where('alarmState', '=', 1).executeTakeFirst()) as Row | undefined;
  };
  /** The rate as the alarm's content shows it (10 significant digits). */
  const shown = (rate: number) => String(Number(rate.toPrecision(10)));

  it('measures against the newest reading at least one period old, over the real interval', async () => {
    // Readings 3 h, 75, 61, 30 and 5 minutes back; the reference is the one 61 minutes back (value 12).
    const alarm = await judge('QJ-TILT-01', 'tilt_x', [[180, 0], [75, 10], [61, 12], [30, 40], [5, 50]], 55);
    const rate = ((55 - 12) * 60) / 61; // 42.3 per hour: orange
    expect(alarm).toMatchObject({ alarmLevel: 2, alarmType: 3, limitValue: 20 });
    expect(String(alarm?.content)).toContain(`变化速率 ${shown(rate)} 超过`);
    // Against the oldest (18.3/h, blue) or the previous reading (60/h, red) it would be another level.
  });

  it('takes a reading exactly one period old as the reference', async () => {
    const alarm = await judge('QJ-TILT-01', 'tilt_y', [[90, 0], [60, 30], [20, 31]], 36);
    expect(alarm).toMatchObject({ alarmLevel: 4, limitValue: 5 }); // (36 - 30) per hour
    expect(String(alarm?.content)).toContain(`变化速率 ${shown(6)} 超过`);
  });

  it('spreads the change over a long gap instead of calling it one period', async () => {
    // Nothing for 10 hours: +30 over 10 h is 3 per hour, under every limit (30 per hour would be orange).
    expect(await judge('QJ-TILT-02', 'tilt_x', [[600, 0]], 30)).toBeUndefined();
    // A falling value is judged on its absolute rate: -60 over 2 h is 30 per hour.
    const falling = await judge('QJ-TILT-02', 'tilt_y', [[120, 60], [50, 10]], 0);
    expect(falling).toMatchObject({ alarmLevel: 2, limitValue: 20 });
    expect(String(falling?.content)).toContain(`变化速率 ${shown(-30)} 超过`);
  });

  it('has no rate while every stored reading is inside the period', async () => {
    expect(await judge('QJ-HLS-01', 'settlement', [[50, 0], [30, 80], [1, 90]], 500)).toBeUndefined();
  });
});
