import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import type { ApiClient } from '../../support/client';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { staffUser, submit, X } from '../monitoring/support';
import { at, BRIDGE, connectAs, deviceOf, type FakeDevice } from './support';
import { expectEvery } from '../../support/lists';

/** The time series over HTTP: lists, corrections and their audit, removal, raw messages, and the scope around them. */
onEveryStore('device log', { signIn: ['demo', 'admin'] }, (ctx) => {
  let crack: FakeDevice;
  const CRACK = deviceOf('QJ-CRACK-01');
  const t0 = at('2026-03-01 08:00:00');
  const minute = 60_000;
  const idOf = (ts: number, key = 'crack', device = CRACK) => `${device}.${key}.${ts}`;

  beforeAll(async () => {
    crack = await connectAs(ctx.server, 'device', 'QJ-CRACK-01');
    // Five buffered readings over real MQTT, as a device sends them after a gap.
    await crack.publish(Array.from({ length: 5 }, (_, i) => ({ ts: t0 + i * minute, values: { crack: [0.2, 0.21, 0.22, 0.23, 0.24][i], temperature: 20 } })));
  });
  afterAll(async () => {
    await crack.close();
  });

  const list = (api: ApiClient, query: Record<string, string | number>) => api.get<PageData>(`${X}/devicelog/list`, query);

  it('lists a device channel newest first, by time range, and pages', async () => {
    const page = expectOk(await list(ctx.demo, { deviceId: CRACK, pointKey: 'crack' }));
    expect(page.total).toBe(5);
    expect(page.records.map((r) => r.id)).toEqual([4, 3, 2, 1, 0].map((i) => idOf(t0 + i * minute)));
    expect(page.records[4]).toMatchObject({ deviceId: CRACK, deviceCode: 'QJ-CRACK-01', projectId: BRIDGE, pointKey: 'crack', ts: t0, time: '2026-03-01 08:00:00', raw: 0.2 });
    // With its point's unit and precision, so lists show values as the debug view does.
    expect(page.records[4]).toMatchObject({ unit: 'mm', precision: 2 });
    // The model's temperature coefficient applies (20 ℃ = its reference): the value is the raw one.
    expect(page.records[4].value).toBeCloseTo(0.2);

    const ranged = expectOk(await list(ctx.demo, { deviceCode: 'QJ-CRACK-01', pointKey: 'crack', startTime: '2026-03-01 08:01:00', endTime: '2026-03-01 08:03:00' }));
    expect(ranged.total).toBe(3);
    const byTs = expectOk(await list(ctx.demo, { deviceId: CRACK, ts_ge: t0 + 3 * minute, ts_le: t0 + 10 * minute }));
    expect(byTs.total).toBe(4); // two instants × crack and temperature
    const paged = expectOk(await list(ctx.demo, { deviceId: CRACK, current: 2, size: 4 }));
    expect(paged.records).toHaveLength(4);
    expect(paged.total).toBe(10);

    const byProject = expectOk(await list(ctx.demo, { projectId: BRIDGE, pointKey: 'crack', size: 100 }));
    expect(byProject.records.map((r) => r.id)).toContain(idOf(t0));
    const nopage = expectOk(await ctx.demo.get<Row[]>(`${X}/devicelog/nopage`, { deviceId: CRACK, pointKey: 'temperature' }));
    expect(nopage).toHaveLength(5);

    expect(expectOk(await ctx.demo.get<Row>(`${X}/devicelog/detail`, { id: idOf(t0 + minute) }))).toMatchObject({ raw: 0.21, ts: t0 + minute });
    expectRefused(await ctx.demo.get(`${X}/devicelog/detail`, { id: 'not-an-id' }), '数据编号不正确');
    expectRefused(await list(ctx.demo, { deviceId: CRACK, startTime: '2026-03-02', endTime: '2026-03-01' }), '开始时间不能晚于结束时间');
    expectRefused(await list(ctx.demo, { deviceId: CRACK, startTime: 'yesterday' }), 'startTime');
  });

  it('keeps each tenant to the data of its own devices', async () => {
    // The platform administrator records a value on the bench device of tenant 000000.
    const bench = expectOk(await ctx.admin.post<Row>(`${X}/devicelog/submit`, { deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x', ts: t0, value: 0.5, reason: '台架测试' }));
    expect(bench.id).toBe(`${REFERENCE_IDS.device}.tilt_x.${t0}`);
    expectRefused(await list(ctx.demo, { deviceId: REFERENCE_IDS.device }), '设备不存在或无权操作');
    expect(expectOk(await ctx.demo.get(`${X}/devicelog/detail`, { id: bench.id }))).toBeNull();
    expect(expectOk(await list(ctx.demo, { size: 1000 })).records.some((r) => r.deviceId === REFERENCE_IDS.device)).toBe(false);
    expectRefused(await ctx.demo.post(`${X}/devicelog/submit`, { id: bench.id, value: 1 }), '设备不存在或无权操作');
    expectRefused(await postParams(ctx.demo, `${X}/devicelog/remove`, { ids: bench.id }), '数据不存在或无权操作');
    expectRefused(await postParams(ctx.demo, `${X}/devicelog/removeByDevice`, { deviceId: REFERENCE_IDS.device }), '设备不存在或无权操作');
    expect(expectOk(await ctx.admin.get<Row>(`${X}/devicelog/detail`, { id: bench.id })).value).toBe(0.5);
    // The platform administrator sees every tenant's data.
    expect(expectOk(await list(ctx.admin, { deviceId: CRACK })).total).toBe(10);
    // A user limited to another project does not see the bridge's data.
    const slope = await submit(ctx.demo, 'project', { name: '北岸边坡', code: 'SLOPE-DATA', structureType: 3 });
    const staff = await staffUser(ctx.server, '100001', 'slope_watcher');
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: slope.id }));
    expectRefused(await list(staff.client, { deviceId: CRACK }), '设备不存在或无权操作');
    expect(expectOk(await list(staff.client, {})).total).toBe(0);
    expect(expectOk(await staff.client.get<PageData>(`${X}/collectdata/list`)).total).toBe(0);
  });

  it('adds and corrects values, auditing each change with its reason', async () => {
    const corrected = expectOk(await ctx.demo.post<Row>(`${X}/devicelog/submit`, { id: idOf(t0), value: 0.25, reason: '人工复核' }));
    expect(corrected).toMatchObject({ value: 0.25, raw: 0.2 });
    const added = expectOk(await ctx.demo.post<Row>(`${X}/devicelog/submit`, { deviceId: CRACK, pointKey: 'crack', time: '2026-03-01 09:00:00', value: 0.3, reason: '补录' }));
    expect(added).toMatchObject({ id: idOf(at('2026-03-01 09:00:00')), value: 0.3, raw: 0.3 });
    expectRefused(await ctx.demo.post(`${X}/devicelog/submit`, { deviceId: CRACK, pointKey: 'humidity', ts: t0, value: 1 }), '该设备没有点位 humidity');
    expectRefused(await ctx.demo.post(`${X}/devicelog/submit`, { id: idOf(t0), value: 'wide' }), '请输入数值');
    expectRefused(await ctx.demo.post(`${X}/devicelog/submit`, { deviceId: CRACK, pointKey: 'crack', value: 1 }), '请输入数据时间');

    const audit = expectOk(await ctx.demo.get<PageData>(`${X}/devicelogupdatelog/list`, { deviceId: CRACK }));
    expect(audit.records.map((r) => [r.action, r.pointKey, Number(r.ts), r.oldValue, r.newValue, r.reason])).toEqual(
      expect.arrayContaining([
        [2, 'crack', t0, 0.2, 0.25, '人工复核'],
        [1, 'crack', at('2026-03-01 09:00:00'), null, 0.3, '补录'],
      ]),
    );
    // Only the reason and the remark of an audit row change.
    const row = audit.records.find((r) => r.reason === '人工复核') as Row;
    const edited = expectOk(await ctx.demo.post<Row>(`${X}/devicelogupdatelog/update`, { id: row.id, reason: '人工复核: 传感器松动', remark: '已紧固', newValue: 99 }));
    expect(edited).toMatchObject({ reason: '人工复核: 传感器松动', remark: '已紧固', newValue: 0.25 });
    expect(expectOk(await ctx.demo.get<Row>(`${X}/devicelogupdatelog/detail`, { id: row.id }))).toMatchObject({ reason: '人工复核: 传感器松动', newValue: 0.25 });
    expectRefused(await ctx.demo.post(`${X}/devicelogupdatelog/update`, { id: row.id }), '请输入修正原因或备注');
    expectRefused(await ctx.admin.post(`${X}/devicelogupdatelog/submit`, { id: row.id, reason: 'x' }), '', 404);
  });

  it('corrects a batch in one transaction: one bad item changes nothing', async () => {
    const refused = await ctx.demo.post(`${X}/devicelog/bacthUpdateData`, [
      { id: idOf(t0 + minute), value: 0.5 },
      { id: idOf(t0 + 99 * minute), value: 0.5 },
    ]);
    expectRefused(refused, '第2条: 数据不存在');
    expect(expectOk(await ctx.demo.get<Row>(`${X}/devicelog/detail`, { id: idOf(t0 + minute) })).value).toBeCloseTo(0.21);
    expectRefused(await ctx.demo.post(`${X}/devicelog/bacthUpdateData`, { list: [{ id: idOf(t0 + minute), value: 'x' }] }), '第1条: 请输入数值');

    const done = expectOk(await ctx.demo.post<{ updated: number }>(`${X}/devicelog/bacthUpdateData`, { reason: '批量修正', list: [{ id: idOf(t0 + minute), value: 0.31 }, { id: idOf(t0 + 2 * minute), value: 0.32, reason: '单条原因' }] }));
    expect(done.updated).toBe(2);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/devicelog/detail`, { id: idOf(t0 + 2 * minute) })).value).toBe(0.32);
    const audit = expectOk(await ctx.demo.get<PageData>(`${X}/devicelogupdatelog/list`, { deviceId: CRACK, action: 2, size: 50 }));
    expect(audit.records.filter((r) => r.reason === '批量修正' || r.reason === '单条原因').map((r) => r.newValue).sort()).toEqual([0.31, 0.32]);
  });

  it('removes values by id within a project and year, and a device range, auditing both', async () => {
    const ids = [idOf(t0 + 3 * minute), idOf(t0 + 4 * minute)].join(',');
    expectRefused(await postParams(ctx.demo, `${X}/devicelog/remove`, { ids, projectId: BRIDGE, year: '2025' }), '数据不属于 2025 年');
    expectRefused(await postParams(ctx.demo, `${X}/devicelog/remove`, { ids, projectId: '123' }), '数据不属于该项目');
    expectRefused(await postParams(ctx.demo, `${X}/devicelog/remove`, { ids, year: '20x6' }), 'year');
    expect(expectOk(await postParams<number>(ctx.demo, `${X}/devicelog/remove`, { ids, projectId: BRIDGE, year: '2026', reason: '异常值' }))).toBe(2);
    expect(expectOk(await list(ctx.demo, { deviceId: CRACK, pointKey: 'crack', ts_le: t0 + 10 * minute })).total).toBe(3);

    const removed = expectOk(await postParams<number>(ctx.demo, `${X}/devicelog/removeByDevice`, { deviceId: CRACK, pointKey: 'temperature', startTime: '2026-03-01 08:01:00', endTime: '2026-03-01 08:02:00' }));
    expect(removed).toBe(2);
    expect(expectOk(await list(ctx.demo, { deviceId: CRACK, pointKey: 'temperature' })).total).toBe(3);
    const audit = expectOk(await ctx.demo.get<PageData>(`${X}/devicelogupdatelog/list`, { deviceId: CRACK, size: 50 }));
    expect(audit.records.filter((r) => r.action === 3).map((r) => [r.oldValue, r.reason])).toEqual(expect.arrayContaining([[0.23, '异常值'], [0.24, '异常值']]));
    expect(audit.records.find((r) => r.action === 4)).toMatchObject({ pointKey: 'temperature', affected: 2, ts: at('2026-03-01 08:01:00'), endTs: at('2026-03-01 08:02:00') });
  });

  it('lists raw messages with their project, errors and arrival time', async () => {
    await crack.publish('not json');
    const all = expectOk(await ctx.demo.get<PageData>(`${X}/collectdata/list`, { deviceId: CRACK }));
    expect(all.total).toBe(2);
    expectEvery(all.records, (r) => r.projectId === BRIDGE);
    const failed = expectOk(await ctx.demo.get<PageData>(`${X}/collectdata/list`, { deviceId: CRACK, hasError: 1 }));
    expect(failed.records.map((r) => r.payload)).toEqual(['not json']);
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/collectdata/list`, { deviceId: CRACK, hasError: 0 })).records[0].readings).toBe(10);
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/collectdata/list`, { deviceId: CRACK, endTime: '2020-01-01 00:00:00' })).total).toBe(0);
    const view = expectOk(await ctx.demo.get<PageData>(`${X}/viewcollect/page`, { deviceId: CRACK }));
    expect(view.records[0]).toMatchObject({ deviceName: '跨中底板裂缝计', projectName: '钱塘江大桥健康监测' });
    const detail = expectOk(await ctx.demo.get<Row>(`${X}/collectdata/detail`, { id: failed.records[0].id }));
    expect(String(detail.error)).toContain('不是合法的');
    // The platform administrator filters by tenant: the demo tenant's messages, and none of the platform's own.
    expectEvery(expectOk(await ctx.admin.get<PageData>(`${X}/collectdata/list`, { tenantId_equal: '100001' })).records, (r) => r.tenantId === '100001');
    expect(expectOk(await ctx.admin.get<PageData>(`${X}/collectdata/list`, { tenantId_equal: '000000' })).records).toEqual([]);
  });
});
