import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { expectOk, postParams } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { X } from '../monitoring/support';
import { demoWallLink } from '../../../server/db/seed/demo-wall';
import type { ScreenData } from '../../../resources/wire/screen';
import type { BoardData } from '../../../resources/wire/statistics';
import { formatDateTime } from '../../../resources/datetime';
import { displayCall } from '../screen/support';

const WEEK_MS = 7 * 24 * 3_600_000;

interface Threshold {
  deviceId: string;
  pointKey: string;
  level1Upper: number | null;
  level2Upper: number | null;
  level3Upper: number | null;
  level4Upper: number | null;
  level1Lower: number | null;
  level4Lower: number | null;
  hysteresis: number;
}

interface Alarm {
  deviceId: string;
  pointKey: string;
  alarmLevel: number;
  alarmState: number;
  handleState: number;
  source: number;
  levelTime: string;
  firstTime: string;
  clearTime: string | null;
}

/** The demo's life (DEMO=1, `npm start`): a week of history, thresholds from it, and the alarms they raise. */
onEveryStore('demo life', { signIn: ['demo'], config: { demo: true } }, (ctx) => {
  let simulator: ChildProcess | undefined;
  afterAll(() => {
    simulator?.kill('SIGTERM');
  });

  it('has a week of readings of every demo channel, every 10 minutes', async () => {
    const rows = await ctx.server.app.platform.db
      .selectFrom('wit_device_log')
      .select(({ fn }) => ['deviceId', 'pointKey', fn.countAll<number>().as('n'), fn.min('ts').as('first'), fn.max('ts').as('last')])
      .where('deviceId', 'in', ctx.server.app.platform.db.selectFrom('wit_device').select('id').where('tenantId', '=', '100001'))
      .groupBy(['deviceId', 'pointKey'])
      .execute();
    expect(rows.length).toBe(16); // nine devices, sixteen channels
    for (const row of rows) {
      expect(Number(row.n), `${row.deviceId} ${row.pointKey}`).toBeGreaterThanOrEqual(1007);
      expect(Number(row.n)).toBeLessThanOrEqual(1008);
      // The week ends when the seed ran, which the clock has since passed: measure it from the last reading.
      expect(Number(row.last) - Number(row.first)).toBeLessThan(WEEK_MS);
      expect(Date.now() - Number(row.last)).toBeLessThan(20 * 60_000);
    }
    // Counted, so the home and the data board show the week.
    const board = expectOk(await ctx.demo.get<BoardData>(`${X}/countAvue/avueStatis`, { startTime: formatDateTime(new Date(Date.now() - WEEK_MS - 86_400_000)) }));
    expect(board.pointsPerDay.reduce((n, d) => n + d.count, 0)).toBe(rows.reduce((n, r) => n + Number(r.n), 0));
  });

  it('sets thresholds at rising levels from the week, and the week’s alarms are there, the old ones handled', async () => {
    const thresholds = expectOk(await ctx.demo.get<{ records: Threshold[] }>(`${X}/devicethreshold/list`, { current: 1, size: 50 })).records;
    expect(thresholds.length).toBe(7);
    for (const t of thresholds.filter((t) => t.level4Upper !== null)) {
      expect(t.level4Upper).toBeLessThan(t.level3Upper as number);
      expect(t.level3Upper).toBeLessThan(t.level2Upper as number);
      expect(t.level2Upper).toBeLessThan(t.level1Upper as number);
      expect(t.hysteresis).toBeGreaterThan(0);
    }
    const sag = thresholds.find((t) => t.pointKey === 'dz');
    expect(sag?.level1Lower).toBeLessThan(sag?.level4Lower as number);

    const alarms = expectOk(await ctx.demo.get<{ records: Alarm[]; total: number }>(`${X}/alarm/list`, { current: 1, size: 1000 })).records;
    expect(alarms.length).toBeGreaterThan(20);
    expect(new Set(alarms.map((a) => a.alarmLevel)).size).toBeGreaterThanOrEqual(3);
    const dayAgo = Date.now() - 24 * 3_600_000;
    for (const alarm of alarms) {
      expect(Date.parse(alarm.firstTime.replace(' ', 'T'))).toBeGreaterThan(Date.now() - WEEK_MS - 60_000);
      if (alarm.alarmState !== 2) continue;
      // Handled an hour after it cleared, when that was over a day before the seed ran (the clock has moved on since).
      const cleared = Date.parse((alarm.clearTime ?? '').replace(' ', 'T'));
      expect(cleared).toBeGreaterThan(Date.parse(alarm.firstTime.replace(' ', 'T')));
      if (cleared < dayAgo - 3_600_000) expect(alarm.handleState).toBe(1);
      if (cleared > dayAgo) expect(alarm.handleState).toBe(0);
    }
    const open = alarms.filter((a) => a.alarmState === 1).map((a) => `${a.deviceId}|${a.pointKey}`);
    expect(new Set(open).size).toBe(open.length);
  });

  it('prints a wall-screen link of the bridge that opens its screen, the same at every start, until revoked', async () => {
    const { platform } = ctx.server.app;
    const origin = 'http://demo.test/';
    const first = await demoWallLink(platform, origin);
    const secret = first.match(/wall#(\S+)$/)?.[1] ?? '';
    expect(first).toBe(`Demo wall screen: ${origin}wall#${secret}`);
    expect(await demoWallLink(platform, origin)).toBe(first);
    const screen = expectOk(await displayCall<ScreenData>(ctx.server, secret, `${X}/screen/data`));
    expect(screen.projects.map((p) => p.name)).toEqual(['钱塘江大桥健康监测']);
    // Seed step 0007: a tilt channel shows its four decimals.
    const tilt = screen.projects[0].points.flatMap((p) => p.channels).find((c) => c.pointKey === 'tilt_x');
    expect(tilt?.precision).toBe(4);
    const links = expectOk(await ctx.demo.get<{ records: Array<{ id: string }> }>(`${X}/displaylink/list`, { current: 1, size: 10 })).records;
    expect(links.length).toBe(1);
    expectOk(await postParams(ctx.demo, `${X}/displaylink/revoke`, { ids: links[0].id }));
    expect(await demoWallLink(platform, origin)).toBe('Demo wall screen: 大屏链接已撤销 (make a new link on 监测大屏)');
  });

  it('the simulator’s cycles raise alarms of several levels through the engine, and clear them', async () => {
    const started = new Date();
    const since = started.getTime() - 1000;
    simulator = spawn(process.execPath, ['--import', 'tsx', 'tools/simulator/run.ts', '--url', `mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, '--interval', '100', '--speed', '7200', '--duration', '60', '--seed', '7', '--quiet'], {
      cwd: process.cwd(),
      stdio: 'ignore',
    });
    const db = ctx.server.app.platform.db;
    // Two simulated days pass every 24 s: the daily peaks cross the week's upper levels, the nights fall back.
    await until(
      async () => {
        const logs = await db.selectFrom('wit_alarm_log').select(['action', 'toLevel', 'readingTs']).where('tenantId', '=', '100001').where('readingTs', '>', since).execute();
        const raised = new Set(logs.filter((l) => l.action === 1 || l.action === 2).map((l) => l.toLevel));
        return raised.size >= 2 && logs.some((l) => l.action === 4) ? true : undefined;
      },
      55_000,
      'alarms of two levels raised and one cleared by the live engine',
    );
  }, 70_000);
});
