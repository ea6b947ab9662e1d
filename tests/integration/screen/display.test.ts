import type { MqttClient } from 'mqtt';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { SCREEN_EVENTS, type ScreenData, type ScreenTrend } from '../../../resources/wire/screen';
import { DISPLAY_MESSAGES } from '../../../server/auth/display';
import { LatestValues } from '../../../server/ingest/latest';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO, X } from '../monitoring/support';
import { buildStructure, createLink, deviceClient, displayCall, publish, refusedHandshake, screenSocket, type Structure } from './support';

const DATA = '/api/wit-xinde/screen/data';
const TREND = '/api/wit-xinde/screen/trend';
const IMAGE = '/api/wit-xinde/screen/image';

/**
 * A display link's reach (docs/wall-screen.md): it reads its own screen's data — its projects, their points, latest
 * values, alarms and counts, as the fixture wrote them through the API and over MQTT — and live events of exactly
 * those projects; every other route answers it as a caller without credentials, and another project's or tenant's
 * rows are not there for it.
 */
onEveryStore('a display link reads its screen and nothing else', { signIn: ['demo', 'admin'] }, (ctx) => {
  const sockets: Socket[] = [];
  const clients: MqttClient[] = [];
  let s: Structure;
  let link: Row & { secret: string };

  beforeAll(async () => {
    s = await buildStructure(ctx.demo, 'D');
    link = await createLink(ctx.demo, { projectIds: [s.projectA, s.projectB], trends: { [s.projectA]: [`${s.devices.A2.id}:crack`] } });
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(clients.map((c) => c.endAsync(true)));
  });

  it('reads its projects, points, latest values, alarms and counts as they were written', async () => {
    const [a1, a2, b1] = await Promise.all([s.devices.A1, s.devices.A2, s.devices.B1].map((d) => deviceClient(ctx.server, d.code, clients)));
    const ids = [s.devices.A1.id, s.devices.A2.id, s.devices.B1.id];
    // Connected to the broker: online once the broker's connection hook wrote it.
    await until(async () => (await ctx.server.app.platform.db.selectFrom('wit_device').select('id').where('id', 'in', ids).where('online', '=', 1).execute()).length === 3);
    const t1 = Date.now() - 2000;
    const t2 = t1 + 1000;
    await publish(a1, DEMO, s.devices.A1.code, t1, { tilt_x: 0.1, tilt_y: 0.2 });
    await publish(a1, DEMO, s.devices.A1.code, t2, { tilt_x: 0.15, tilt_y: 0.25 });
    await publish(a2, DEMO, s.devices.A2.code, t1, { crack: 0.5 });
    await publish(a2, DEMO, s.devices.A2.code, t2, { crack: 6 });
    await publish(b1, DEMO, s.devices.B1.code, t2, { settlement: 1.5 });
    await ctx.server.app.alarms.idle();

    const data = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA));
    expect(data.link).toEqual({ id: link.id, name: '监控室大屏', layout: 'structure', rotateSeconds: 30, expiresAt: link.expiresAt });
    expect(data.projects.map((p) => p.id)).toEqual([s.projectA, s.projectB]);
    const [a, b] = data.projects;
    const channel = (deviceId: string, pointKey: string, value: number, previous: number | null, level: number | null = null) =>
      expect.objectContaining({ deviceId, pointKey, value, previous, ts: t2, level });
    expect(a.points).toEqual([
      expect.objectContaining({ id: s.points.M1, name: '塔顶倾角', x: null, y: null, online: true, channels: [channel(s.devices.A1.id, 'tilt_x', 0.15, 0.1), channel(s.devices.A1.id, 'tilt_y', 0.25, 0.2)] }),
      expect.objectContaining({ id: s.points.M2, name: '梁底裂缝', online: true, channels: [channel(s.devices.A2.id, 'crack', 6, 0.5, 2)] }),
    ]);
    expect(a.points[1].channels[0]).toMatchObject({ name: '裂缝宽度', unit: 'mm', precision: 3 });
    expect(a.points[1].channels[0]).not.toHaveProperty('deviceName');
    // A project without monitor points shows its devices as its points.
    expect(b.points).toEqual([expect.objectContaining({ id: s.devices.B1.id, name: `设备 ${s.devices.B1.code}`, online: true, channels: [channel(s.devices.B1.id, 'settlement', 1.5, null)] })]);
    const stored = async (deviceIds: string[]) =>
      Number(
        (await ctx.server.app.platform.db.selectFrom('wit_device_log').select((eb) => eb.fn.countAll().as('n')).where('deviceId', 'in', deviceIds).where('ts', '>=', new Date(new Date().setHours(0, 0, 0, 0)).getTime()).executeTakeFirstOrThrow()).n,
      );
    expect(a).toMatchObject({ image: null, devices: { total: 2, online: 2, offline: 0, never: 0 }, pointsToday: await stored([s.devices.A1.id, s.devices.A2.id]), openAlarms: { 1: 0, 2: 1, 3: 0, 4: 0 } });
    expect(a.pointsToday).toBe(6);
    expect(b).toMatchObject({ devices: { total: 1, online: 1, offline: 0, never: 0 }, pointsToday: 1, openAlarms: { 1: 0, 2: 0, 3: 0, 4: 0 } });
    // The chosen trend, and the first channels where none was chosen.
    expect(a.trends).toEqual([`${s.devices.A2.id}:crack`]);
    expect(b.trends).toEqual([`${s.devices.B1.id}:settlement`]);
    const open = expectOk(await ctx.demo.get<{ records: Row[] }>(`${X}/alarm/list`, { projectId: s.projectA, alarmState: 1 })).records;
    expect(open).toHaveLength(1);
    expect(data.alarms).toEqual([
      { id: open[0].id, projectId: s.projectA, projectName: '大屏桥 D', deviceId: s.devices.A2.id, deviceName: `设备 ${s.devices.A2.code}`, pointKey: 'crack', alarmLevel: 2, alarmState: 1, handleState: 0, title: open[0].title, value: 6, unit: 'mm', levelTime: open[0].levelTime },
    ]);
    // The project not on the link is nowhere.
    expect(JSON.stringify(data)).not.toContain(s.projectC);
    expect(JSON.stringify(data)).not.toContain(s.devices.C1.id);
  });

  it("keeps each channel's latest value and the one before beside its device, and a restarted ingestion goes on from them", async () => {
    const { db } = ctx.server.app.platform;
    const a1 = s.devices.A1.id;
    const column = async () => JSON.parse((await db.selectFrom('wit_device').select('lastChannels').where('id', '=', a1).executeTakeFirstOrThrow()).lastChannels ?? 'null');
    await ctx.server.app.ingest.latest.persist();
    const written = await column();
    const t2 = written.tilt_x[0];
    expect(written).toEqual({ tilt_x: [t2, 0.15, 0.1], tilt_y: [t2, 0.25, 0.2] });
    // What a restart builds: a new ingestion memory that reads the write-back, then takes the next reading.
    const restarted = new LatestValues(db, (error) => {
      throw error;
    });
    restarted.start(60_000);
    restarted.update(a1, 'tilt_x', t2 + 1000, 0.3, Date.now());
    await restarted.persist();
    restarted.stop();
    expect(await column()).toEqual({ tilt_x: [t2 + 1000, 0.3, 0.15], tilt_y: [t2, 0.25, 0.2] });
    // The screen reads the device's write-back and this process's newer memory, whichever is newer.
    const data = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA));
    const tilt = data.projects[0].points[0].channels;
    expect(tilt.map(({ pointKey, value, previous }) => [pointKey, value, previous])).toEqual([
      ['tilt_x', 0.3, 0.15],
      ['tilt_y', 0.25, 0.2],
    ]);
  });

  it('reads from the series a channel that neither the write-back nor the ingestion knows', async () => {
    // B1 (shown as its project's point) has a write-back; its new channel gets values only by hand (devicelog), which
    // the ingestion never sees.
    const b1 = s.devices.B1.id;
    await ctx.server.app.ingest.latest.persist();
    expectOk(await ctx.demo.post(`${X}/devicepoint/submit`, { deviceId: b1, pointKey: 'temp', name: '温度' }));
    const ts = Date.now() - 5000;
    for (const [at, value] of [[ts, 11], [ts + 1000, 12.5]]) expectOk(await ctx.demo.post(`${X}/devicelog/submit`, { deviceId: b1, pointKey: 'temp', ts: at, value, reason: '补录' }));
    const data = expectOk(await displayCall<ScreenData>(ctx.server, link.secret, DATA));
    // A point without `sort` comes first on SQLite, last on PostgreSQL: compared by key.
    const channels = [...data.projects[1].points[0].channels].sort((a, b) => a.pointKey.localeCompare(b.pointKey));
    expect(channels.map(({ pointKey, value, previous, ts: at }) => [pointKey, value, previous, at])).toEqual([
      ['settlement', 1.5, null, expect.any(Number)],
      ['temp', 12.5, 11, ts + 1000],
    ]);
  });

  it("charts a channel of its projects, and refuses another project's, another tenant's and bad arguments", async () => {
    const trend = expectOk(await displayCall<ScreenTrend>(ctx.server, link.secret, TREND, { deviceId: s.devices.A2.id, pointKey: 'crack', hours: 1 }));
    expect(trend.map(([, value]) => value)).toEqual([0.5, 6]);
    expect(trend[1][0] - trend[0][0]).toBe(1000);
    const refused = async (query: Record<string, string | number>, status: number, message: string) => {
      const reply = await displayCall(ctx.server, link.secret, TREND, query);
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      expect(reply.body.msg).toContain(message);
    };
    await refused({ deviceId: s.devices.C1.id, pointKey: 'rainfall' }, 404, '设备不存在或无权查看');
    await refused({ deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x' }, 404, '设备不存在或无权查看');
    await refused({ deviceId: s.devices.A2.id, pointKey: 'tilt_x' }, 400, '设备没有该点位');
    await refused({ deviceId: s.devices.A2.id, pointKey: 'crack', hours: 0 }, 400, 'hours');
    await refused({ deviceId: s.devices.A2.id, pointKey: 'crack', hours: 'x' }, 400, 'hours');
    await refused({ deviceId: 'x', pointKey: 'crack' }, 400, 'deviceId');
    await refused({ pointKey: 'crack' }, 400, 'deviceId');
    // Images: none set, another project's, another tenant's.
    expect((await displayCall(ctx.server, link.secret, IMAGE, { projectId: s.projectA })).status).toBe(404);
    expect((await displayCall(ctx.server, link.secret, IMAGE, { projectId: s.projectC })).body.msg).toBe('项目不存在或无权操作');
    expect((await displayCall(ctx.server, link.secret, IMAGE, { projectId: REFERENCE_IDS.project })).body.msg).toBe('项目不存在或无权操作');
  });

  it('is no credential on any other route, and a user token is none on its routes', async () => {
    const wrong: string[] = [];
    let walked = 0;
    for (const { method, url, right } of ctx.server.app.routes) {
      const path = `/api${url.replace(/:[a-z]+/gi, 'x')}`;
      const reply = await displayCall(ctx.server, link.secret, path, {}, method);
      if (right.kind === 'display') {
        if (reply.status === 401 || reply.status === 403 || reply.status >= 500) wrong.push(`${method} ${url}: ${reply.status} ${reply.body.msg}`);
        continue;
      }
      // Public routes need no credential at all; every other one must find none in the display header.
      if (right.kind === 'public') continue;
      walked += 1;
      if (reply.status !== 401) wrong.push(`${method} ${url} (${right.kind}): ${reply.status} ${reply.body?.msg}`);
    }
    expect(wrong).toEqual([]);
    expect(walked).toBeGreaterThan(300);
    // A signed-in administrator's token opens no display route.
    for (const path of [DATA, TREND, IMAGE]) {
      const reply = await ctx.demo.get(path);
      expect(reply.status).toBe(401);
      expect(reply.body.msg).toBe(DISPLAY_MESSAGES.missing);
    }
    // Unknown and malformed secrets.
    for (const secret of ['', 'x', 'A'.repeat(43), `${link.secret}x`]) {
      const reply = await displayCall(ctx.server, secret, DATA);
      expect(reply.status).toBe(401);
      expect(reply.body.msg).toBe(secret === '' ? DISPLAY_MESSAGES.missing : DISPLAY_MESSAGES.unknown);
    }
  });

  it("reads only its own tenant's projects: another tenant's link, and a link naming a project moved away", async () => {
    const platformLink = await createLink(ctx.admin, { projectIds: REFERENCE_IDS.project });
    const data = expectOk(await displayCall<ScreenData>(ctx.server, platformLink.secret, DATA));
    expect(data.projects.map((p) => p.id)).toEqual([REFERENCE_IDS.project]);
    expect(JSON.stringify(data)).not.toContain(s.projectA);
    expect((await displayCall(ctx.server, platformLink.secret, TREND, { deviceId: s.devices.A1.id, pointKey: 'tilt_x' })).status).toBe(404);

    // The platform administrator moves project B to the platform tenant: it drops out of the demo link silently.
    const moving = await buildStructure(ctx.demo, 'MV');
    const moved = await createLink(ctx.demo, { projectIds: [moving.projectA, moving.projectB] });
    expectOk(await ctx.admin.post(`${X}/project/adjustTenant`, { ids: moving.projectB, tenantId: '000000' }));
    const after = expectOk(await displayCall<ScreenData>(ctx.server, moved.secret, DATA));
    expect(after.projects.map((p) => p.id)).toEqual([moving.projectA]);
    expect((await displayCall(ctx.server, moved.secret, TREND, { deviceId: moving.devices.B1.id, pointKey: 'settlement' })).status).toBe(404);
  });

  it('leaves out what was removed: a monitor point or a project in the recycle bin is off the screen', async () => {
    const r = await buildStructure(ctx.demo, 'RM');
    const removing = await createLink(ctx.demo, { projectIds: [r.projectA] });
    const points = async () => expectOk(await displayCall<ScreenData>(ctx.server, removing.secret, DATA)).projects[0].points.map((p) => p.id);
    expect(await points()).toEqual([r.points.M1, r.points.M2]);
    const bindings = expectOk(await ctx.demo.get<PageData>(`${X}/pointrelationdevice/list`, { monitorPointId: r.points.M2 })).records;
    expectOk(await postParams(ctx.demo, `${X}/pointrelationdevice/remove`, { ids: bindings.map((b) => b.id).join(',') }));
    expectOk(await postParams(ctx.demo, `${X}/monitorpoint/remove`, { ids: r.points.M2 }));
    expect(await points()).toEqual([r.points.M1]);
    // Its project removed, the link shows nothing of it: no project, no device's trend.
    expectOk(await ctx.demo.request('POST', `${X}/project/remove`, { query: { ids: r.projectA } }) as never);
    expect(expectOk(await displayCall<ScreenData>(ctx.server, removing.secret, DATA)).projects).toEqual([]);
    expect((await displayCall(ctx.server, removing.secret, TREND, { deviceId: r.devices.A1.id, pointKey: 'tilt_x' })).status).toBe(404);
  });

  it('pushes readings over real MQTT, alarms and presence of its projects only, one event per project and batch', async () => {
    const screen = await screenSocket(ctx.server, link.secret, sockets);
    const c1 = await deviceClient(ctx.server, s.devices.C1.code, clients);
    const a2 = clients.find((c) => c.options.clientId === s.devices.A2.code) as MqttClient;
    const ts = Date.now();
    // Project C is not on the link: its reading, stored first, must not reach the screen before A's does.
    await publish(c1, DEMO, s.devices.C1.code, ts, { rainfall: 3 });
    const alarmed = screen.next(SCREEN_EVENTS.alarm);
    await publish(a2, DEMO, s.devices.A2.code, ts, { crack: 0.2 });
    const batch = await until(() => screen.readings.find((r) => r.some((x) => x.ts === ts)));
    expect(batch).toEqual([{ projectId: s.projectA, deviceId: s.devices.A2.id, ts, values: { crack: 0.2 } }]);
    expect(screen.readings.flat().filter((r) => r.projectId !== s.projectA && r.projectId !== s.projectB)).toEqual([]);
    // 0.2 is below every bound: the open level-2 alarm clears.
    const cleared = await alarmed;
    expect(cleared).toMatchObject({ projectId: s.projectA, deviceId: s.devices.A2.id, pointKey: 'crack', alarmLevel: 2, alarmState: 2, projectName: '大屏桥 D' });
    const breach = screen.next(SCREEN_EVENTS.alarm);
    await publish(a2, DEMO, s.devices.A2.code, ts + 1, { crack: 1.5 });
    expect(await breach).toMatchObject({ deviceId: s.devices.A2.id, pointKey: 'crack', alarmLevel: 4, alarmState: 1, value: 1.5, at: expect.any(Number) });
    // Presence: B's device goes away.
    const b1 = clients.find((c) => c.options.clientId === s.devices.B1.code) as MqttClient;
    const offline = screen.next(SCREEN_EVENTS.presence);
    await b1.endAsync();
    expect(await offline).toMatchObject({ projectId: s.projectB, deviceId: s.devices.B1.id, online: false });
    expect(screen.presence.filter((p) => p.projectId === s.projectC)).toEqual([]);
  });

  it('refuses a handshake with a bad secret, and a screen socket gets no user streams', async () => {
    expect(await refusedHandshake(ctx.server, { display: 'A'.repeat(43) }, sockets)).toBe(DISPLAY_MESSAGES.unknown);
    expect(await refusedHandshake(ctx.server, { display: 42 }, sockets)).toBe(DISPLAY_MESSAGES.missing);
    // The display decides: a valid user token beside a bad secret does not let it in.
    expect(await refusedHandshake(ctx.server, { display: 'nope', token: ctx.demo.token }, sockets)).toBe(DISPLAY_MESSAGES.unknown);
    // Its rooms are its link's and its projects', no user's or tenant's (and it has no debug handlers to ask).
    const screen = await screenSocket(ctx.server, link.secret, sockets);
    const rooms = ctx.server.app.realtime.io.of('/').sockets.get(screen.socket.id ?? '')?.rooms;
    expect([...(rooms ?? [])].sort()).toEqual([screen.socket.id, `screen:link:${link.id}`, `screen:project:${DEMO}:${s.projectA}`, `screen:project:${DEMO}:${s.projectB}`].sort());
  });
});
