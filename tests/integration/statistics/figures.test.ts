import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardData, LevelCounts } from '../../../resources/wire/statistics';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from '../../../server/db/seed/operator';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, expectRefused, refused, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { boardData, connectDevice, dayOf, dayStart, deviceOf, indexData, newTenant, publish, staffOf, submit, X } from './support';

/**
 * The home (index/getIndexData, index/getMeunAuth) and the data board (countAvue/avueStatis) against a tenant built
 * for them through the API and real MQTT (docs/statistics.md): every figure exact, within the caller's projects, of
 * its own tenant only but for the platform administrator's tenant filter.
 *
 * Tenant 统计业主: projects 北桥 (gateway G; devices A1, A2: inclinometers, 变形监测) and 南隧道 (B1, B2: rain gauges,
 * 环境监测), and C1 (rain gauge) of no project. A1 and B1 stay connected, A2 published and went away, B2 and C1 were
 * never heard of. Alarms: A1 orange and B1 red (thresholds, over MQTT; B1's handled), A2 yellow and C1 blue (by hand),
 * and, raised on earlier days and cleared, A1 yellow (day −1), B1 red (day −3), A2 orange (day −5).
 */

const levels = (counts: Partial<LevelCounts> = {}): LevelCounts => ({ '1': 0, '2': 0, '3': 0, '4': 0, ...counts });

onEveryStore('home and data board figures', { signIn: ['admin', 'demo'] }, (ctx) => {
  const clients: MqttClient[] = [];
  const f = {} as {
    tenantId: string;
    admin: ApiClient;
    viewer: ApiClient;
    ids: Record<string, string>;
    alarms: Record<string, string>;
  };

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  /** An alarm raised on an earlier day and cleared since (the engine raises alarms only now). */
  async function pastAlarm(deviceId: string, projectId: string, level: number, daysAgo: number): Promise<string> {
    const at = formatDateTime(new Date(dayStart(daysAgo) + 9 * 3_600_000));
    const id = nextId();
    await ctx.server.app.platform.db
      .insertInto('wit_alarm')
      .values({
        id, tenantId: f.tenantId, projectId, deviceId, pointKey: 'tilt_x', source: 2, alarmType: 4, alarmLevel: level, maxLevel: level, alarmState: 2,
        handleState: 0, revision: 2, title: `过去的告警 ${daysAgo}`, firstTime: at, levelTime: at, clearTime: at, createTime: at, updateTime: at, status: 1, isDeleted: 0,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    const { tenantId, admin } = await newTenant(ctx.server, ctx.admin, '统计业主');
    Object.assign(f, { tenantId, admin, ids: {}, alarms: {} });
    const deform = await submit(admin, 'monitortype', { name: '变形监测', code: 'deform' });
    const env = await submit(admin, 'monitortype', { name: '环境监测', code: 'env' });
    const tilt = await submit(admin, 'devicetype', { name: '倾角计', code: 'tilt', monitorTypeId: deform.id });
    const rain = await submit(admin, 'devicetype', { name: '雨量计', code: 'rain', monitorTypeId: env.id });
    const north = await submit(admin, 'project', { name: '北桥', code: 'ST-NORTH', structureType: 1 });
    const south = await submit(admin, 'project', { name: '南隧道', code: 'ST-SOUTH', structureType: 2 });
    const gateway = await submit(admin, 'gateway', { code: 'ST-GW-01', name: '北桥网关', projectId: north.id });
    const device = (code: string, projectId: string | null, type: Row, keys: string[], identity = true) =>
      deviceOf(admin, { code, name: `设备 ${code}`, projectId, deviceTypeId: type.id }, keys, identity);
    const a1 = await device('ST-A1', north.id, tilt, ['tilt_x', 'tilt_y']);
    const a2 = await device('ST-A2', north.id, tilt, ['tilt_x', 'tilt_y']);
    const b1 = await device('ST-B1', south.id, rain, ['rainfall']);
    const b2 = await device('ST-B2', south.id, rain, ['rainfall'], false);
    const c1 = await device('ST-C1', null, rain, ['rainfall'], false);
    Object.assign(f.ids, { north: north.id, south: south.id, gateway: gateway.id, a1: a1.id, a2: a2.id, b1: b1.id, b2: b2.id, c1: c1.id });
    const bounds = { level1Upper: 10, level2Upper: 5, level3Upper: 3, level4Upper: 2 };
    await submit(admin, 'devicethreshold', { targetType: 1, deviceId: a1.id, pointKey: 'tilt_x', ...bounds });
    await submit(admin, 'devicethreshold', { targetType: 1, deviceId: b1.id, pointKey: 'rainfall', ...bounds });
    // Monitor points: one on all of A1, one on A2's tilt_x (half of A2's points), one on all of B1.
    const points = [
      { name: '北桥测点1', code: 'N-1', projectId: north.id, deviceId: a1.id },
      { name: '北桥测点2', code: 'N-2', projectId: north.id, deviceId: a2.id, pointKey: 'tilt_x' },
      { name: '南隧道测点1', code: 'S-1', projectId: south.id, deviceId: b1.id },
    ];
    for (const p of points) {
      const point = await submit(admin, 'monitorpoint', { projectId: p.projectId, name: p.name, code: p.code });
      await submit(admin, 'pointrelationdevice', { monitorPointId: point.id, deviceId: p.deviceId, pointKey: p.pointKey });
      f.ids[p.code] = point.id;
    }
    expectOk(await admin.post('/api/blade-desk/notice/submit', { title: '汛期值守安排', category: 1, releaseTime: formatDateTime(new Date(Date.now() - 60_000)), content: '<p>值守</p>' }));

    // Readings over MQTT: history of earlier days first (below every bound), then today's.
    const db = ctx.server.app.platform.db;
    const connect = async (code: string) => {
      const client = await connectDevice(ctx.server, code);
      clients.push(client);
      return client;
    };
    const [A1, A2, B1] = [await connect('ST-A1'), await connect('ST-A2'), await connect('ST-B1')];
    const earlier = (days: number, i: number) => dayStart(days) + 10 * 3_600_000 + i * 1000;
    for (let i = 0; i < 2; i++) await publish(A1, tenantId, 'ST-A1', earlier(2, i), { tilt_x: 1, tilt_y: 1 });
    await publish(B1, tenantId, 'ST-B1', earlier(1, 0), { rainfall: 1 });
    const todayBase = Math.max(dayStart(0), Date.now() - 3_600_000);
    const today = (i: number) => todayBase + i * 1000;
    for (const [i, x] of [1, 1, 6].entries()) await publish(A1, tenantId, 'ST-A1', today(i), { tilt_x: x, tilt_y: 0.5 });
    // The same reading again (a redelivery): stored once, counted once.
    await publish(A1, tenantId, 'ST-A1', today(0), { tilt_x: 1, tilt_y: 0.5 });
    for (let i = 0; i < 2; i++) await publish(A2, tenantId, 'ST-A2', today(i), { tilt_x: 0.1, tilt_y: 0.2 });
    await publish(B1, tenantId, 'ST-B1', today(0), { rainfall: 12 });
    await publish(B1, tenantId, 'ST-B1', today(1), { rainfall: 13 });
    await A2.endAsync();
    clients.splice(clients.indexOf(A2), 1);
    await ctx.server.app.alarms.idle();
    await until(async () => {
      const row = await db.selectFrom('wit_device').select(['online', 'lastSeen']).where('id', '=', a2.id).executeTakeFirstOrThrow();
      return Number(row.online) === 0 && row.lastSeen !== null;
    }, 10_000, 'A2 offline');
    await until(async () => (await db.selectFrom('wit_device').select('id').where('id', 'in', [a1.id, b1.id]).where('online', '=', 1).execute()).length === 2, 10_000, 'A1 and B1 online');

    const open = async (deviceId: string) => String((await db.selectFrom('wit_alarm').select('id').where('deviceId', '=', deviceId).where('alarmState', '=', 1).executeTakeFirstOrThrow()).id);
    f.alarms.a1 = await open(a1.id);
    f.alarms.b1 = await open(b1.id);
    f.alarms.a2 = String((await submit(admin, 'alarm', { deviceId: a2.id, alarmLevel: 3, content: '支座位移' })).id);
    f.alarms.c1 = String((await submit(admin, 'alarm', { deviceId: c1.id, alarmLevel: 4, content: '雨量计外壳破损' })).id);
    expectOk(await admin.post(`${X}/alarm/batchHandle`, { ids: f.alarms.b1, handleResult: '已派人巡查' }));
    f.alarms.a1Before = await pastAlarm(a1.id, north.id, 3, 1);
    f.alarms.b1Before = await pastAlarm(b1.id, south.id, 1, 3);
    f.alarms.a2Before = await pastAlarm(a2.id, north.id, 2, 5);

    // Another tenant's reading and alarm, which never count here.
    const bridgeDevice = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const demoClient = await connectDevice(ctx.server, 'QJ-TH-01', 'Vigil#Device2026', 'QJ-TH-01');
    clients.push(demoClient);
    await publish(demoClient, '100001', 'QJ-TH-01', today(0), { temperature: 21, humidity: 60 });
    await submit(ctx.demo, 'alarm', { deviceId: bridgeDevice, alarmLevel: 1, content: '别的租户' });

    f.viewer = (await staffOf(ctx.server, admin, tenantId, 'st-viewer', { projectIds: [north.id] })).client;
  });

  describe('getIndexData', () => {
    it('counts the whole tenant for its administrator', async () => {
      const data = await indexData(f.admin);
      expect(data).toMatchObject({
        projects: 2,
        devices: { total: 5, online: 2, offline: 3, never: 2 },
        gateways: { total: 1, online: 0, offline: 1, never: 1 },
        pointsToday: 12,
        openAlarms: levels({ '1': 1, '2': 1, '3': 1, '4': 1 }),
        unhandledAlarms: 3,
        unreadNotices: 1,
      });
      expect(data.at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(new Set(data.latestAlarms.map((a) => a.id))).toEqual(new Set(Object.values(f.alarms)));
      expect(data.latestAlarms.slice(-3).map((a) => a.id)).toEqual([f.alarms.a1Before, f.alarms.b1Before, f.alarms.a2Before]);
      const b1 = data.latestAlarms.find((a) => a.id === f.alarms.b1);
      expect(b1).toMatchObject({ projectId: f.ids.south, projectName: '南隧道', deviceId: f.ids.b1, deviceName: '设备 ST-B1', pointKey: 'rainfall', alarmLevel: 1, alarmState: 1, handleState: 1, value: 12 });
    });

    it('counts one project when asked, and refuses a project the caller does not see', async () => {
      expect(await indexData(f.admin, { projectId: f.ids.south })).toMatchObject({
        projects: 1,
        devices: { total: 2, online: 1, offline: 1, never: 1 },
        gateways: { total: 0, online: 0, offline: 0, never: 0 },
        pointsToday: 2,
        openAlarms: levels({ '1': 1 }),
        unhandledAlarms: 0,
      });
      expectRefused(await f.admin.get(`${X}/index/getIndexData`, { projectId: f.ids.a1 }), '项目不存在或无权操作');
      expectRefused(await f.viewer.get(`${X}/index/getIndexData`, { projectId: f.ids.south }), '项目不存在或无权操作');
    });

    it('counts only the projects of a user limited to some', async () => {
      const data = await indexData(f.viewer);
      expect(data).toMatchObject({
        projects: 1,
        devices: { total: 2, online: 1, offline: 1, never: 0 },
        gateways: { total: 1, online: 0, offline: 1, never: 1 },
        pointsToday: 10,
        openAlarms: levels({ '2': 1, '3': 1 }),
        unhandledAlarms: 2,
        unreadNotices: 1,
      });
      expect(new Set(data.latestAlarms.map((a) => a.id))).toEqual(new Set([f.alarms.a1, f.alarms.a2, f.alarms.a1Before, f.alarms.a2Before]));
    });

    it("is of the caller's own tenant, also for the platform administrator", async () => {
      const platform = await indexData(ctx.admin);
      expect(platform.latestAlarms.filter((a) => Object.values(f.alarms).includes(a.id))).toEqual([]);
      const demo = await indexData(ctx.demo);
      expect(demo.latestAlarms.length).toBeGreaterThan(0);
      expect(demo.latestAlarms.filter((a) => Object.values(f.alarms).includes(a.id))).toEqual([]);
      expect(demo.projects).toBe((await ctx.demo.get<{ total: number }>(`${X}/project/page`)).body.data.total);
    });

    it('lists alarms only to those who may open the alarm list, and needs a menu at all', async () => {
      const lister = (await staffOf(ctx.server, f.admin, f.tenantId, 'st-projects', { menus: ['project', 'project_list'] })).client;
      const data = await indexData(lister);
      expect(data.latestAlarms).toEqual([]);
      // Rows of no project (C1's blue alarm) are an administrator's: the repository's project scope hides them from
      // every other user (server/db/project-scope.ts), and the figures follow it.
      expect(data.openAlarms).toEqual(levels({ '1': 1, '2': 1, '3': 1 }));
      const nobody = (await staffOf(ctx.server, f.admin, f.tenantId, 'st-nobody', { menus: [] })).client;
      refused(await nobody.get(`${X}/index/getIndexData`), 403);
      expect(expectOk(await nobody.get(`${X}/index/getMeunAuth`))).toEqual([]);
    });
  });

  describe('within a data scope', () => {
    /** A user who sees only the devices and alarms it wrote (data scope 2 on both), and wrote A2 and A2's alarms. */
    let own: ApiClient;

    beforeAll(async () => {
      const staff = await staffOf(ctx.server, f.admin, f.tenantId, 'st-own');
      const db = ctx.server.app.platform.db;
      for (const resourceCode of ['wit-xinde/device', 'wit-xinde/alarm']) {
        const scope = expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: '1', resourceCode, scopeName: '本人可见', scopeType: 2 }));
        await db.insertInto('blade_role_scope').values({ id: nextId(), scopeCategory: 1, scopeId: scope.id, roleId: staff.roleId }).execute();
      }
      ctx.server.app.platform.events.emit('changed', 'blade_role_scope');
      await db.updateTable('wit_device').set({ createUser: staff.userId }).where('id', '=', f.ids.a2).execute();
      await db.updateTable('wit_alarm').set({ createUser: staff.userId }).where('id', 'in', [f.alarms.a2, f.alarms.a2Before]).execute();
      own = staff.client;
    });

    it('counts on the home only the devices, points and alarms the user sees', async () => {
      expect(await indexData(own)).toMatchObject({
        devices: { total: 1, online: 0, offline: 1, never: 0 },
        pointsToday: 4,
        openAlarms: levels({ '3': 1 }),
        unhandledAlarms: 1,
      });
    });

    it('counts on the board from the rows the user sees', async () => {
      const board = await boardData(own);
      expect(board.pointsPerDay.filter((d) => d.count > 0)).toEqual([{ day: dayOf(0), count: 4 }]);
      expect(board.alarmsPerDay.filter((d) => Object.values(d.levels).some(Boolean))).toEqual([
        { day: dayOf(5), levels: levels({ '2': 1 }) },
        { day: dayOf(0), levels: levels({ '3': 1 }) },
      ]);
      expect(board.alarmsByProject.map((p) => [p.name, p.count])).toEqual([['北桥', 2]]);
      expect(board.alarmsByMonitorType.map((p) => [p.name, p.count])).toEqual([['变形监测', 2]]);
      expect(board.activePoints.map((p) => [p.name, p.count])).toEqual([['北桥测点2', 2]]);
      expect(board.silentDevices.map((d) => d.id)).toEqual([f.ids.a2]);
    });
  });

  describe('getMeunAuth', () => {
    it("lists the screens a user may open, in the menu tree's order", async () => {
      const operator = await signedIn(ctx.server.url, OPERATOR_ACCOUNT, OPERATOR_PASSWORD, '100001');
      const entries = expectOk(await operator.get<Array<{ code: string; name: string; path: string; source: string | null }>>(`${X}/index/getMeunAuth`));
      expect(entries.map((e) => e.code)).toEqual(['project_list', 'device_list', 'gateway', 'gateway_state', 'monitor_point', 'device_threshold', 'alarm_list', 'collect_data', 'device_log', 'work_claim', 'work_todo', 'work_send', 'work_done']);
      expect(entries[0]).toEqual({ code: 'project_list', name: '项目列表', path: '/xinde/project', source: 'projects' });
    });

    it('gives the platform administrator every screen, no folder', async () => {
      const entries = expectOk(await ctx.admin.get<Array<{ code: string; path: string }>>(`${X}/index/getMeunAuth`));
      const codes = entries.map((e) => e.code);
      expect(codes[0]).toBe('notice');
      expect(codes).toContain('screen');
      expect(codes).toContain('user');
      for (const folder of ['desk', 'project', 'device', 'system']) expect(codes).not.toContain(folder);
      expect(codes.indexOf('project_list')).toBeLessThan(codes.indexOf('device_list'));
    });
  });

  describe('avueStatis', () => {
    const days = (count: number) => Array.from({ length: count }, (_, i) => dayOf(count - 1 - i));

    it('gives the last 30 days by default, each figure exact', async () => {
      const board = await boardData(f.admin);
      expect(board.startTime).toBe(`${dayOf(29)} 00:00:00`);
      expect(board.endTime.slice(0, 10)).toBe(dayOf(0));
      const span = days(30);
      expect(board.pointsPerDay).toEqual(span.map((day) => ({ day, count: { [dayOf(0)]: 12, [dayOf(1)]: 1, [dayOf(2)]: 4 }[day] ?? 0 })));
      const raised: Record<string, LevelCounts> = {
        [dayOf(0)]: levels({ '1': 1, '2': 1, '3': 1, '4': 1 }),
        [dayOf(1)]: levels({ '3': 1 }),
        [dayOf(3)]: levels({ '1': 1 }),
        [dayOf(5)]: levels({ '2': 1 }),
      };
      expect(board.alarmsPerDay).toEqual(span.map((day) => ({ day, levels: raised[day] ?? levels() })));
      expect(board.alarmsByProject).toEqual([
        { id: f.ids.north, name: '北桥', count: 4 },
        { id: f.ids.south, name: '南隧道', count: 2 },
      ]);
      expect(board.alarmsByMonitorType.map((m) => [m.name, m.count])).toEqual([
        ['变形监测', 4],
        ['环境监测', 3],
      ]);
      expect(board.activePoints).toEqual([
        { id: f.ids['N-1'], name: '北桥测点1', count: 10 },
        { id: f.ids['S-1'], name: '南隧道测点1', count: 3 },
        { id: f.ids['N-2'], name: '北桥测点2', count: 2 },
      ]);
      expect(board.silentDevices.map((d) => [d.id, d.lastSeen === null])).toEqual([
        [f.ids.b2, true],
        [f.ids.c1, true],
        [f.ids.a2, false],
      ]);
      expect(board.silentDevices[2]).toMatchObject({ code: 'ST-A2', name: '设备 ST-A2', projectId: f.ids.north, projectName: '北桥' });
    });

    it('takes a range of days, whole days at both ends', async () => {
      const board = await boardData(f.admin, { startTime: dayOf(3), endTime: dayOf(1) });
      expect([board.startTime, board.endTime]).toEqual([`${dayOf(3)} 00:00:00`, `${dayOf(1)} 23:59:59`]);
      expect(board.pointsPerDay).toEqual([
        { day: dayOf(3), count: 0 },
        { day: dayOf(2), count: 4 },
        { day: dayOf(1), count: 1 },
      ]);
      expect(board.alarmsPerDay.map((d) => d.levels)).toEqual([levels({ '1': 1 }), levels(), levels({ '3': 1 })]);
      expect(board.alarmsByProject.map((p) => [p.name, p.count])).toEqual([
        ['北桥', 1],
        ['南隧道', 1],
      ]);
      expect(board.activePoints.map((p) => [p.name, p.count])).toEqual([
        ['北桥测点1', 4],
        ['南隧道测点1', 1],
      ]);
    });

    it('refuses a range that ends before it starts, spans more than a year, or is malformed', async () => {
      expectRefused(await f.admin.get(`${X}/countAvue/avueStatis`, { startTime: dayOf(1), endTime: dayOf(2) }), '开始时间不能晚于结束时间');
      expectRefused(await f.admin.get(`${X}/countAvue/avueStatis`, { startTime: dayOf(400), endTime: dayOf(0) }), '统计时间范围不能超过一年');
      expectRefused(await f.admin.get(`${X}/countAvue/avueStatis`, { startTime: dayOf(400) }), '统计时间范围不能超过一年');
      expectRefused(await f.admin.get(`${X}/countAvue/avueStatis`, { startTime: 'yesterday' }), 'startTime');
      expectRefused(await f.admin.get(`${X}/countAvue/avueStatis`, { tenantId: 'x1' }), 'tenantId');
      // A whole year is the longest range.
      const year = await boardData(f.admin, { startTime: dayOf(365), endTime: dayOf(0) });
      expect(year.pointsPerDay).toHaveLength(366);
      expect(year.pointsPerDay.reduce((n, d) => n + d.count, 0)).toBe(17);
    });

    it('shows a user limited to projects only theirs', async () => {
      const board = await boardData(f.viewer);
      const total = (b: BoardData) => b.pointsPerDay.reduce((n, d) => n + d.count, 0);
      expect(total(board)).toBe(14);
      expect(board.alarmsPerDay.find((d) => d.day === dayOf(0))?.levels).toEqual(levels({ '2': 1, '3': 1 }));
      expect(board.alarmsByProject.map((p) => [p.name, p.count])).toEqual([['北桥', 4]]);
      expect(board.alarmsByMonitorType.map((p) => [p.name, p.count])).toEqual([['变形监测', 4]]);
      expect(board.activePoints.map((p) => [p.name, p.count])).toEqual([
        ['北桥测点1', 10],
        ['北桥测点2', 2],
      ]);
      expect(board.silentDevices.map((d) => d.id)).toEqual([f.ids.a2]);
      expectRefused(await f.viewer.get(`${X}/countAvue/avueStatis`, { projectId: f.ids.south }), '项目不存在或无权操作');
    });

    it("lets only the platform administrator choose the tenant; anyone else gets their own", async () => {
      const range = { startTime: dayOf(29), endTime: `${dayOf(0)} 23:59:59` };
      const own = await boardData(f.admin, range);
      expect(await boardData(f.admin, { ...range, tenantId: '100001' })).toEqual(own);
      expect(await boardData(ctx.admin, { ...range, tenantId: f.tenantId })).toEqual(own);
      const all = await boardData(ctx.admin, range);
      const projects = all.alarmsByProject.map((p) => p.id);
      expect(projects).toEqual(expect.arrayContaining([f.ids.north, f.ids.south]));
      const demo = await boardData(ctx.demo, range);
      expect(demo.alarmsByProject.length).toBeGreaterThan(0);
      expect(projects).toEqual(expect.arrayContaining(demo.alarmsByProject.map((p) => p.id)));
      expect(demo.alarmsByProject.map((p) => p.id)).not.toContain(f.ids.north);
    });

    it('needs the monitoring screen menu', async () => {
      const lister = await signedIn(ctx.server.url, 'st-projects', 'Staff@123', f.tenantId);
      refused(await lister.get(`${X}/countAvue/avueStatis`), 403);
    });
  });
});
