import { createHash } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import type { ScreenData } from '../../../resources/wire/screen';
import { DISPLAY_HEADER } from '../../../resources/wire/screen';
import { DisplayLinks } from '../../../server/auth/display';
import { seedId } from '../../../server/db/seed/ids';
import { formatDateTime, parseDateTime } from '../../../server/time';
import { expectOk, expectRefused, type PageData, postParams, refused, type Row } from '../../support/envelope';
import { hideTable } from '../../support/failures';
import { createStaff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';
import { DEMO, X } from '../monitoring/support';
import { buildStructure, createLink, displayCall, screenSocket, type Structure } from './support';

const DATA = '/api/wit-xinde/screen/data';
const DAY_MS = 86_400_000;

/**
 * The display link manager (监测大屏, docs/wall-screen.md): the secret is shown once and stored only as its hash,
 * the list tells who made a link and where it was last used, a link names only projects its maker sees, and one
 * tenant's links are out of another's reach.
 */
onEveryStore('the display link manager', { signIn: ['demo', 'admin'] }, (ctx) => {
  const sockets: Socket[] = [];
  let s: Structure;

  beforeAll(async () => {
    s = await buildStructure(ctx.demo, 'M');
  });

  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  const detail = async (api = ctx.demo, id: string) => expectOk(await api.get<Row | null>(`${X}/displaylink/detail`, { id }));

  it('shows the secret once, keeps only its hash, and never logs it', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    expect(link.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link).not.toHaveProperty('secretHash');
    const stored = await ctx.server.app.platform.db.selectFrom('wit_display_link').select('secretHash').where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(stored.secretHash).toBe(createHash('sha256').update(link.secret).digest('hex'));
    // Read back every way the manager reads: neither the secret nor its hash.
    const listed = expectOk(await ctx.demo.get<PageData>(`${X}/displaylink/list`, { id_equal: link.id })).records;
    const exported = await ctx.demo.request<string>('GET', `${X}/displaylink/export`, { query: { id_equal: link.id, columns: 'name:名称,projectIds:项目' } });
    expect(exported.status).toBe(200);
    const edited = expectOk(await ctx.demo.post<Row>(`${X}/displaylink/submit`, { id: link.id, remark: '东墙' }));
    for (const row of [...listed, await detail(ctx.demo, link.id), edited]) {
      expect(row).not.toHaveProperty('secret');
      expect(row).not.toHaveProperty('secretHash');
      expect(JSON.stringify(row)).not.toContain(link.secret);
    }
    expect(listed).toHaveLength(1);
    // The screen calls with it, in its header and (by mistake) as a parameter: the API log keeps neither.
    expectOk(await displayCall(ctx.server, link.secret, DATA));
    expectOk(await displayCall(ctx.server, link.secret, DATA, { display: link.secret }));
    await screenSocket(ctx.server, link.secret, sockets);
    await ctx.server.app.platform.logs.flush();
    const logged = await ctx.server.app.platform.db.selectFrom('blade_log_api').select(['requestUri', 'params', 'createBy', 'tenantId']).where('requestUri', 'like', '%screen/data%').execute();
    expect(logged).toHaveLength(2);
    for (const row of logged) {
      expect(JSON.stringify(row)).not.toContain(link.secret);
      expect(row).toMatchObject({ tenantId: DEMO, createBy: `display:${link.id}` });
    }
    const anywhere = await ctx.server.app.platform.db.selectFrom('blade_log_api').select('id').where('params', 'like', `%${link.secret.slice(0, 20)}%`).execute();
    expect(anywhere).toEqual([]);
  });

  it('expires in 90 days unless told otherwise, never when told null, and refuses a past expiry and bad values', async () => {
    const before = Date.now();
    const usual = await createLink(ctx.demo, { projectIds: s.projectA });
    const expires = parseDateTime(String(usual.expiresAt))?.getTime() ?? 0;
    expect(expires).toBeGreaterThanOrEqual(Math.floor((before + 90 * DAY_MS) / 1000) * 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);
    const never = await createLink(ctx.demo, { projectIds: s.projectA, expiresAt: null });
    expect((await detail(ctx.demo, never.id))?.expiresAt).toBeNull();
    expect(expectOk(await displayCall<ScreenData>(ctx.server, never.secret, DATA)).link.expiresAt).toBeNull();

    const refusedBody = async (body: Record<string, unknown>, message: string) =>
      expectRefused(await ctx.demo.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: s.projectA, ...body }), message);
    await refusedBody({ expiresAt: '2020-01-01 00:00:00' }, '过期时间应晚于当前时间');
    await refusedBody({ rotateSeconds: 5 }, '轮播间隔应在 10 到 3600 秒之间');
    await refusedBody({ rotateSeconds: 3601 }, '轮播间隔应在 10 到 3600 秒之间');
    await refusedBody({ layout: 'wall' }, '布局应为 structure、values、trends');
    await refusedBody({ projectIds: '' }, '请选择项目');
    await refusedBody({ projectIds: 'abc' }, '必须是逗号分隔的编号');
    await refusedBody({ name: '' }, '请输入大屏名称');
    await refusedBody({ trends: '[1]' }, '趋势通道应为以项目编号为键的 JSON 对象');
    await refusedBody({ trends: { [s.projectA]: ['nope'] } }, '趋势通道应为 "设备编号:点位标识" 的列表');
  });

  it('ignores the fields only the server writes', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA, secretHash: createHash('sha256').update('x'.repeat(43)).digest('hex'), revoked: 1, lastSeenIp: '6.6.6.6', revokeUser: '1' });
    const row = await detail(ctx.demo, link.id);
    expect(row).toMatchObject({ revoked: 0, lastSeenIp: null, revokeUser: null, state: 'active' });
    expectOk(await displayCall(ctx.server, link.secret, DATA));
    refused(await displayCall(ctx.server, 'x'.repeat(43), DATA), 401);
    // Nor on an update: the link is not revoked, its secret unchanged.
    expectOk(await ctx.demo.post(`${X}/displaylink/update`, { id: link.id, revoked: 1, secretHash: 'x' }));
    expectOk(await displayCall(ctx.server, link.secret, DATA));
  });

  it('lists who made each link, and when, from where and by what it was last seen', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    const me = expectOk(await ctx.demo.get<{ userId: string }>('/api/blade-auth/oauth/user-info'));
    const before = await detail(ctx.demo, link.id);
    expect(before).toMatchObject({ createUser: me.userId, createUserName: '管理员', lastSeenTime: null, lastSeenIp: null, lastSeenAgent: null });
    const response = await fetch(new URL(DATA, ctx.server.url), { headers: { [DISPLAY_HEADER]: link.secret, 'user-agent': 'WallScreen/1.0 (control room east)' } });
    expect(response.status).toBe(200);
    const [row] = expectOk(await ctx.demo.get<PageData>(`${X}/displaylink/list`, { id_equal: link.id })).records;
    expect(row).toMatchObject({ createUserName: '管理员', lastSeenIp: '127.0.0.1', lastSeenAgent: 'WallScreen/1.0 (control room east)', lastSeenTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
  });

  it('records where a screen was seen at most once a minute per link, its agent cut to 500 characters', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    const seenBy = async (agent: string) => expect((await fetch(new URL(DATA, ctx.server.url), { headers: { [DISPLAY_HEADER]: link.secret, 'user-agent': agent } })).status).toBe(200);
    const long = `WallScreen/3.0 ${'x'.repeat(600)}`;
    await seenBy(long);
    await seenBy('WallScreen/4.0'); // within the minute: not written
    const [row] = expectOk(await ctx.demo.get<PageData>(`${X}/displaylink/list`, { id_equal: link.id })).records;
    expect(row.lastSeenAgent).toBe(long.slice(0, 500));
  });

  it("holds until the earlier of its own expiry and its tenant's", async () => {
    const inTwoDays = formatDateTime(new Date(Date.now() + 2 * DAY_MS));
    const link = await createLink(ctx.demo, { projectIds: s.projectA, expiresAt: inTwoDays });
    const untilOf = async () => {
      const check = await ctx.server.app.platform.displays.verify(link.secret);
      if (!('link' in check)) throw new Error(check.refused);
      return check.until;
    };
    expect(await untilOf()).toBe(parseDateTime(inTwoDays)?.getTime());
    const tenant = seedId(`tenant:${DEMO}`);
    const tomorrow = formatDateTime(new Date(Date.now() + DAY_MS));
    try {
      expectOk(await postParams(ctx.admin, '/api/blade-system/tenant/setting', { ids: tenant, expireTime: tomorrow }));
      expect(await untilOf()).toBe(parseDateTime(tomorrow)?.getTime());
    } finally {
      expectOk(await postParams(ctx.admin, '/api/blade-system/tenant/setting', { ids: tenant, expireTime: '' }));
    }
    expect(await untilOf()).toBe(parseDateTime(inTwoDays)?.getTime());
  });

  /** Runs `work` with the display links' clock at `at` (epoch ms). */
  const atTime = async (at: number, work: () => Promise<void>) => {
    const { displays } = ctx.server.app.platform;
    displays.now = () => at;
    try {
      await work();
    } finally {
      displays.now = Date.now;
    }
  };
  /** The link a secret opens now, or the refusal's words. */
  const opened = async (secret: string, displays = ctx.server.app.platform.displays) => {
    const check = await displays.verify(secret);
    return 'link' in check ? check.link.id : check.refused;
  };

  it('refuses a link from the moment it expires, and from the moment its tenant does', async () => {
    const inTwoDays = formatDateTime(new Date(Date.now() + 2 * DAY_MS));
    const link = await createLink(ctx.demo, { projectIds: s.projectA, expiresAt: inTwoDays });
    const end = parseDateTime(inTwoDays)?.getTime() as number;
    await atTime(end - 1, async () => expect(await opened(link.secret)).toBe(link.id));
    await atTime(end, async () => expect(await opened(link.secret)).toBe('大屏链接已过期'));

    const tenant = seedId(`tenant:${DEMO}`);
    const tomorrow = formatDateTime(new Date(Date.now() + DAY_MS));
    const tenantEnd = parseDateTime(tomorrow)?.getTime() as number;
    try {
      expectOk(await postParams(ctx.admin, '/api/blade-system/tenant/setting', { ids: tenant, expireTime: tomorrow }));
      await atTime(tenantEnd - 1, async () => expect(await opened(link.secret)).toBe(link.id));
      await atTime(tenantEnd, async () => expect(await opened(link.secret)).toBe('大屏链接所属租户已停用或已过期'));
    } finally {
      expectOk(await postParams(ctx.admin, '/api/blade-system/tenant/setting', { ids: tenant, expireTime: '' }));
    }
  });

  it('believes a looked-up link for 5 seconds: a revocation another process wrote is read after them', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    const db = ctx.server.app.platform.db;
    const start = Date.now();
    await atTime(start, async () => expect(await opened(link.secret)).toBe(link.id));
    // As another process without a relay writes it: no event reaches this one.
    await db.updateTable('wit_display_link').set({ revoked: 1 }).where('id', '=', link.id).execute();
    await atTime(start + 5000, async () => expect(await opened(link.secret)).toBe(link.id));
    await atTime(start + 5001, async () => expect(await opened(link.secret)).toBe('大屏链接已撤销'));

    // A revocation made here is believed at once.
    const other = await createLink(ctx.demo, { projectIds: s.projectA });
    await atTime(start, async () => {
      expect(await opened(other.secret)).toBe(other.id);
      expectOk(await postParams(ctx.demo, `${X}/displaylink/revoke`, { ids: other.id }));
      expect(await opened(other.secret)).toBe('大屏链接已撤销');
    });
  });

  it('keeps neither a miss nor a failed read: the link is found once it is there', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    const db = ctx.server.app.platform.db;
    const deleted = (isDeleted: number) => db.updateTable('wit_display_link').set({ isDeleted }).where('id', '=', link.id).execute();
    await deleted(1);
    expect(await opened(link.secret)).toBe('大屏链接无效');
    await deleted(0);
    expect(await opened(link.secret)).toBe(link.id);

    const other = await createLink(ctx.demo, { projectIds: s.projectA });
    const restore = await hideTable(ctx.server, 'wit_display_link');
    try {
      await expect(opened(other.secret)).rejects.toThrow();
    } finally {
      await restore();
    }
    expect(await opened(other.secret)).toBe(other.id);
  });

  it('keeps at most its bound of links looked up, then starts again', async () => {
    const { db, events } = ctx.server.app.platform;
    const displays = new DisplayLinks(db, events, 2);
    const [a, b, c] = [await createLink(ctx.demo, { projectIds: s.projectA }), await createLink(ctx.demo, { projectIds: s.projectA }), await createLink(ctx.demo, { projectIds: s.projectA })];
    expect([await opened(a.secret, displays), await opened(b.secret, displays)]).toEqual([a.id, b.id]);
    await db.updateTable('wit_display_link').set({ revoked: 1 }).where('id', '=', a.id).execute();
    // Two links kept: a is still believed.
    expect(await opened(a.secret, displays)).toBe(a.id);
    // A third starts the cache again: a is read anew.
    expect(await opened(c.secret, displays)).toBe(c.id);
    expect(await opened(a.secret, displays)).toBe('大屏链接已撤销');
  });

  it('records the next sighting exactly a minute after the last', async () => {
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    const seenBy = (agent: string) => fetch(new URL(DATA, ctx.server.url), { headers: { [DISPLAY_HEADER]: link.secret, 'user-agent': agent } });
    const agent = async () => (await detail(ctx.demo, link.id))?.lastSeenAgent;
    const start = Date.now();
    await atTime(start, async () => expect((await seenBy('first')).status).toBe(200));
    await atTime(start + 59_999, async () => expect((await seenBy('too soon')).status).toBe(200));
    expect(await agent()).toBe('first');
    await atTime(start + 60_000, async () => expect((await seenBy('a minute on')).status).toBe(200));
    expect(await agent()).toBe('a minute on');
  });

  it("names only projects and channels its maker sees: a user limited to projects, another tenant's project", async () => {
    const staff = await createStaff(ctx.server, DEMO, 'screen_staff');
    expectOk(await ctx.demo.post(`${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: s.projectA }));
    expectRefused(await staff.client.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: [s.projectA, s.projectB] }), '项目不存在或无权操作');
    const own = await createLink(staff.client, { projectIds: s.projectA });
    // Nor by an edit: the staff user may not widen a link beyond its projects.
    expectRefused(await staff.client.post(`${X}/displaylink/update`, { id: own.id, projectIds: [s.projectA, s.projectB] }), '项目不存在或无权操作');
    expectRefused(await ctx.demo.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: REFERENCE_IDS.project }), '项目不存在或无权操作');
    expectRefused(await ctx.demo.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: s.projectA, trends: { [s.projectA]: [`${s.devices.B1.id}:settlement`] } }), `趋势通道 ${s.devices.B1.id}:settlement 不属于项目`);
    expectRefused(await ctx.demo.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: s.projectA, trends: { [s.projectB]: [`${s.devices.B1.id}:settlement`] } }), '不在所选项目中');
    expectRefused(await ctx.demo.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: s.projectA, trends: { [s.projectA]: [`${s.devices.A1.id}:nope`] } }), '不属于项目');
    // Taking a project off the link takes its charted channels with it.
    const charted = await createLink(ctx.demo, { projectIds: [s.projectA, s.projectB], trends: { [s.projectA]: [`${s.devices.A1.id}:tilt_y`], [s.projectB]: [`${s.devices.B1.id}:settlement`] } });
    expectOk(await ctx.demo.post(`${X}/displaylink/update`, { id: charted.id, projectIds: s.projectA }));
    expect(JSON.parse(String((await detail(ctx.demo, charted.id))?.trends))).toEqual({ [s.projectA]: [`${s.devices.A1.id}:tilt_y`] });
    // A removed project is no project.
    const binned = await buildStructure(ctx.demo, 'MB');
    expectOk(await postParams(ctx.demo, `${X}/project/remove`, { ids: binned.projectA }));
    expectRefused(await ctx.demo.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: binned.projectA }), '项目不存在或无权操作');
  });

  it("keeps one tenant's links out of another's reach, the secret's own calls included", async () => {
    const theirs = await createLink(ctx.admin, { projectIds: REFERENCE_IDS.project });
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/displaylink/list`, { id_equal: theirs.id })).total).toBe(0);
    expect(await detail(ctx.demo, theirs.id)).toBeNull();
    expectRefused(await ctx.demo.post(`${X}/displaylink/update`, { id: theirs.id, name: '偷看' }), '数据不存在或无权操作');
    expectRefused(await postParams(ctx.demo, `${X}/displaylink/revoke`, { ids: theirs.id }), '数据不存在或无权操作');
    expectRefused(await postParams(ctx.demo, `${X}/displaylink/regenerate`, { id: theirs.id }), '数据不存在或无权操作');
    expectRefused(await postParams(ctx.demo, `${X}/displaylink/remove`, { ids: theirs.id }), '数据不存在或无权操作');
    expect((await detail(ctx.admin, theirs.id))?.state).toBe('active');
    expectOk(await displayCall(ctx.server, theirs.secret, DATA));
  });

  it('needs the screen menu to read and its buttons to write', async () => {
    const viewer = await createStaff(ctx.server, DEMO, 'screen_viewer');
    // Its role keeps the screen menu alone: it sees the links, it has none of the buttons.
    const menus = await ctx.server.app.platform.db.selectFrom('blade_menu').select('id').where('code', 'in', ['statistics', 'screen']).execute();
    expectOk(await ctx.demo.post('/api/blade-system/role/grant', { roleIds: [viewer.roleId], menuIds: menus.map((m) => m.id) }));
    const link = await createLink(ctx.demo, { projectIds: s.projectA });
    expectOk(await viewer.client.get(`${X}/displaylink/list`));
    refused(await viewer.client.post(`${X}/displaylink/submit`, { name: '大屏', projectIds: s.projectA }), 403);
    refused(await postParams(viewer.client, `${X}/displaylink/revoke`, { ids: link.id }), 403);
    refused(await postParams(viewer.client, `${X}/displaylink/regenerate`, { id: link.id }), 403);
    refused(await viewer.client.post(`${X}/screen/layout`, { projectId: s.projectA, points: [] }), 403);
    refused(await postParams(viewer.client, `${X}/displaylink/remove`, { ids: link.id }), 403);
  });
});
