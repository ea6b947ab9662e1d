import { beforeAll, expect, it } from 'vitest';
import type { Bucket } from '../../../server/series/sampling';
import { formatDateTime } from '../../../server/time';
import { expectOk, expectRefused, postParams } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { staffUser, submit, X } from '../monitoring/support';

interface Series {
  pointKey: string;
  name: string;
  unit: string | null;
  type: string;
  bucketMs: number;
  count: number;
  data: Array<[number, number]>;
  buckets?: Bucket[];
  deviceCode: string;
}

interface Chart {
  start: number;
  end: number;
  legend: string[];
  series: Series[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A whole hour, so hourly buckets line up with the data. */
const T0 = Math.floor(Date.UTC(2026, 0, 5) / HOUR) * HOUR;
const N = 10_000;
/** Minute i of the synthetic humidity series; one spike. */
const SPIKE_AT = 4321;
const valueAt = (i: number) => (i === SPIKE_AT ? 999 : 50 + Math.sin(i / 100) * 10);

onEveryStore('history charts', { signIn: ['demo'] }, (ctx) => {
  let deviceId: string;

  beforeAll(async () => {
    // The test rolls up itself (settle); the background roller would race it for the marks.
    await ctx.server.app.ingest.rollups.stop();
    const db = ctx.server.app.platform.db;
    deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TH-01').executeTakeFirstOrThrow()).id);
    const rows = Array.from({ length: N }, (_, i) => ({ deviceId, pointKey: 'humidity', ts: T0 + i * MINUTE, value: valueAt(i), raw: valueAt(i) }));
    // Temperature: only 50 points, hourly; and a key stored without a device point.
    rows.push(...Array.from({ length: 50 }, (_, i) => ({ deviceId, pointKey: 'temperature', ts: T0 + i * HOUR, value: i, raw: i })));
    rows.push({ deviceId, pointKey: 'battery', ts: T0, value: 3.6, raw: 3.6 });
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('wit_device_log').values(rows.slice(i, i + 1000)).execute();
  });

  const chart = async (call: string, query: Record<string, string | number>) => expectOk(await ctx.demo.get<Chart>(`${X}/devicelog/${call}`, query));
  const range = { startTime: T0, endTime: T0 + (N - 1) * MINUTE };

  it('returns raw points when the range holds fewer points than the chart is wide', async () => {
    const result = await chart('getHistoryEchartsData', { deviceId, pointKey: 'temperature', ...range, width: 100 });
    expect(result.series).toHaveLength(1);
    const [series] = result.series;
    expect(series).toMatchObject({ pointKey: 'temperature', unit: '℃', type: 'line', bucketMs: 0, count: 50 });
    expect(series.buckets).toBeUndefined();
    expect(series.data).toEqual(Array.from({ length: 50 }, (_, i) => [T0 + i * HOUR, i]));
  });

  it('splits a long range into width buckets with min, max, avg, first and last; a spike survives as max', async () => {
    const width = 100;
    const [series] = (await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', ...range, width })).series;
    // ceil(range / width), rounded up to a whole number of the 10-minute rollups that serve it.
    const bucketMs = Math.ceil(Math.ceil(((N - 1) * MINUTE + 1) / width) / (10 * MINUTE)) * 10 * MINUTE;
    expect(series.bucketMs).toBe(bucketMs);
    expect(series.count).toBe(N);
    const buckets = series.buckets ?? [];
    expect(buckets.length).toBeGreaterThanOrEqual(width / 2);
    expect(buckets.length).toBeLessThanOrEqual(width + 1);
    expect(buckets.reduce((sum, b) => sum + b[6], 0)).toBe(N);
    expect(series.data).toEqual(buckets.map((b) => [b[0], b[3]]));

    // Every bucket agrees with the same grouping done here.
    const origin = Math.floor(T0 / bucketMs) * bucketMs;
    const expected = new Map<number, number[]>();
    for (let i = 0; i < N; i += 1) {
      const start = origin + Math.floor((T0 + i * MINUTE - origin) / bucketMs) * bucketMs;
      expected.set(start, [...(expected.get(start) ?? []), valueAt(i)]);
    }
    expect(buckets.map((b) => b[0])).toEqual([...expected.keys()]);
    for (const [t, min, max, avg, first, last, count] of buckets) {
      const values = expected.get(t) ?? [];
      expect([count, first, last]).toEqual([values.length, values[0], values[values.length - 1]]);
      expect(min).toBeCloseTo(Math.min(...values), 9);
      expect(max).toBeCloseTo(Math.max(...values), 9);
      expect(avg).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length, 9);
    }
    const spiked = buckets.find((b) => b[0] <= T0 + SPIKE_AT * MINUTE && T0 + SPIKE_AT * MINUTE < b[0] + bucketMs);
    expect(spiked?.[2]).toBe(999);
    expect(buckets.filter((b) => b[2] === 999)).toHaveLength(1);
  });

  it('keeps to the range asked for, and refetches a zoomed range at finer buckets', async () => {
    const startTime = T0 + 1000 * MINUTE;
    const endTime = T0 + 1999 * MINUTE;
    const [series] = (await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', startTime, endTime, width: 200 })).series;
    expect(series.count).toBe(1000);
    expect(series.buckets?.[0][0]).toBeLessThanOrEqual(startTime);
    expect(series.buckets?.[0][4]).toBeCloseTo(valueAt(1000), 9);
    expect(series.buckets?.at(-1)?.[5]).toBeCloseTo(valueAt(1999), 9);
    // Zoomed in to fewer points than pixels: raw.
    const zoomed = (await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', startTime: formatDateTime(new Date(T0 + 4300 * MINUTE)), endTime: formatDateTime(new Date(T0 + 4350 * MINUTE)), width: 800 })).series[0];
    expect(zoomed.bucketMs).toBe(0);
    expect(zoomed.count).toBe(51);
    expect(zoomed.data.find(([t]) => t === T0 + SPIKE_AT * MINUTE)?.[1]).toBe(999);
    // Nothing in the range: an empty series, not an error.
    const empty = (await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', startTime: T0 - 10 * HOUR, endTime: T0 - HOUR })).series[0];
    expect(empty).toMatchObject({ count: 0, data: [] });
  });

  it('aggregates by hour, by channel and by device code', async () => {
    const hourly = (await chart('getHistoryEchartsDataByHour', { deviceId, pointKey: 'humidity', ...range })).series[0];
    expect(hourly.bucketMs).toBe(HOUR);
    expect(hourly.buckets?.[0]).toEqual([T0, expect.any(Number), expect.any(Number), expect.any(Number), valueAt(0), valueAt(59), 60]);
    expect(hourly.buckets?.length).toBe(Math.ceil(N / 60));

    const byChannel = await chart('getHistoryEchartsDataByCd', { deviceId, cd: '1,2', ...range, width: 50 });
    expect(byChannel.series.map((s) => s.pointKey)).toEqual(['temperature', 'humidity']);
    expect(byChannel.legend).toEqual(byChannel.series.map((s) => s.name));
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsDataByCd`, { deviceId, cd: '9' }), '设备没有通道: 9');

    const byCode = await chart('getHistoryEchartsByCode', { code: 'QJ-TH-01', pointKey: 'humidity', ...range, width: 100 });
    const byId = await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', ...range, width: 100 });
    expect(byCode.series).toEqual(byId.series);
    const all = await chart('getHistoryEchartsData', { deviceId, ...range, width: 100 });
    expect(all.series.map((s) => s.pointKey)).toEqual(['temperature', 'humidity', 'battery']);
  });

  it('lists the keys of a device for the chart selector', async () => {
    const keys = expectOk(await ctx.demo.get<Array<{ pointKey: string; unit: string | null; label: string }>>(`${X}/devicelog/getDeviceLogDict`, { deviceId }));
    expect(keys.map((k) => k.pointKey)).toEqual(['temperature', 'humidity', 'battery']);
    expect(keys[0]).toMatchObject({ unit: '℃', value: 'temperature' });
    expect(keys[2]).toMatchObject({ unit: null, label: 'battery' });
    expect(expectOk(await ctx.demo.get<unknown[]>(`${X}/devicelog/getDeviceLogDict`, { deviceId, subside: 1 }))).toEqual([]);
    const hls = String((await ctx.server.app.platform.db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-HLS-01').executeTakeFirstOrThrow()).id);
    const settlement = expectOk(await ctx.demo.get<Array<{ pointKey: string; factorsCode: string }>>(`${X}/devicelog/getDeviceLogDict`, { deviceId: hls, subside: 1 }));
    expect(settlement).toMatchObject([{ pointKey: 'settlement', factorsCode: 'settlement' }]);
  });

  it('refuses bad arguments in Chinese and hides other tenants', async () => {
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsData`, { pointKey: 'humidity' }), 'deviceId');
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsData`, { deviceId, pointKey: 'nope' }), '设备没有点位: nope');
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsData`, { deviceId, startTime: 'yesterday' }), 'startTime 格式应为');
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsData`, { deviceId, startTime: T0 + HOUR, endTime: T0 }), '开始时间应早于结束时间');
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsData`, { deviceId, startTime: '2020-01-01 00:00:00', endTime: '2026-01-01 00:00:00' }), '不能超过3年');
    expectRefused(await ctx.demo.get(`${X}/devicelog/getHistoryEchartsByCode`, { code: 'NO-SUCH' }), '设备不存在或无权查看', 404);
    const stranger = await staffUser(ctx.server, '000000', 'history_stranger');
    expectRefused(await stranger.client.get(`${X}/devicelog/getHistoryEchartsData`, { deviceId }), '设备不存在或无权查看', 404);
    expectRefused(await stranger.client.get(`${X}/devicelog/getDeviceLogDict`, { deviceId }), '设备不存在或无权查看', 404);
  });

  it('keeps data comparisons: batches, validation, one chart of several devices', async () => {
    const db = ctx.server.app.platform.db;
    const projectId = String((await db.selectFrom('wit_project').select('id').where('code', '=', 'QJ-BRIDGE').executeTakeFirstOrThrow()).id);
    const tilt = String((await db.selectFrom('wit_device').select('id').where('code', '=', 'QJ-TILT-01').executeTakeFirstOrThrow()).id);
    await db.insertInto('wit_device_log').values(Array.from({ length: 30 }, (_, i) => ({ deviceId: tilt, pointKey: 'tilt_x', ts: T0 + i * MINUTE, value: i / 100, raw: i / 100 }))).execute();
    const body = {
      projectId,
      name: '湿度与倾角',
      batchNumber: '2026-第1期',
      startTime: formatDateTime(new Date(T0)),
      endTime: formatDateTime(new Date(T0 + (N - 1) * MINUTE)),
      items: [{ deviceId, pointKey: 'humidity', name: '温湿度计湿度' }, { deviceId: tilt, pointKey: 'tilt_x' }],
    };
    const saved = await submit(ctx.demo, 'datacomparison', body);
    await submit(ctx.demo, 'datacomparison', { ...body, name: '第二期', batchNumber: '2026-第2期', items: JSON.stringify(body.items.slice(1)) });
    expectRefused(await ctx.demo.post(`${X}/datacomparison/submit`, body), '该批次已有同名的数据对比');
    expectRefused(await ctx.demo.post(`${X}/datacomparison/submit`, { ...body, name: 'x', items: [] }), '请选择对比的设备点位');
    expectRefused(await ctx.demo.post(`${X}/datacomparison/submit`, { ...body, name: 'x', items: 'not json' }), '对比项应为 JSON 数组');
    expectRefused(await ctx.demo.post(`${X}/datacomparison/submit`, { ...body, name: 'x', items: [{ deviceId, pointKey: 'nope' }] }), '第1个对比项: 设备 QJ-TH-01 没有点位 nope');
    expectRefused(await ctx.demo.post(`${X}/datacomparison/submit`, { ...body, name: 'x', items: [{ deviceId: '123', pointKey: 'tilt_x' }] }), '第1个对比项: 设备不存在或无权操作');
    expectRefused(await ctx.demo.post(`${X}/datacomparison/submit`, { ...body, name: 'x', startTime: '2026-02-01 00:00:00', endTime: '2026-01-01 00:00:00' }), '开始时间应早于结束时间');

    const list = expectOk(await ctx.demo.get<Array<{ name: string; items: Array<{ deviceCode: string }>; projectName: string }>>(`${X}/datacomparison/nopage`, { projectId }));
    expect(list.map((r) => r.name).sort()).toEqual(['湿度与倾角', '第二期']);
    expect(list.find((r) => r.name === '湿度与倾角')?.items.map((i) => i.deviceCode)).toEqual(['QJ-TH-01', 'QJ-TILT-01']);
    const batches = expectOk(await postParams<Array<{ batchNumber: string; count: number }>>(ctx.demo, `${X}/datacomparison/selectBatchNumber`, { projectId }));
    expect(batches).toEqual([expect.objectContaining({ batchNumber: '2026-第2期', count: 1 }), expect.objectContaining({ batchNumber: '2026-第1期', count: 1 })]);

    const compared = expectOk(await ctx.demo.get<Chart & { batchNumber: string }>(`${X}/datacomparison/getHistoryEchartsData`, { id: saved.id, width: 100 }));
    expect(compared.batchNumber).toBe('2026-第1期');
    expect(compared.series.map((s) => [s.deviceCode, s.pointKey, s.count])).toEqual([['QJ-TH-01', 'humidity', N], ['QJ-TILT-01', 'tilt_x', 30]]);
    expect(compared.legend[0]).toBe('温湿度计湿度');
    expect(compared.series[1].bucketMs).toBe(0);

    const stranger = await staffUser(ctx.server, '000000', 'comparison_stranger');
    expectRefused(await stranger.client.get(`${X}/datacomparison/getHistoryEchartsData`, { id: saved.id }), '数据对比不存在或无权查看', 404);
    expect(expectOk(await stranger.client.get<unknown[]>(`${X}/datacomparison/nopage`))).toEqual([]);
  });

  it('answers long ranges from the rollups exactly as from the points, through corrections and removals', async () => {
    const db = ctx.server.app.platform.db;
    const values = new Map(Array.from({ length: N }, (_, i) => [T0 + i * MINUTE, valueAt(i)]));
    /** The buckets of `span` over [from, to] computed here from what the series holds. */
    const reference = (from: number, to: number, span: number): Bucket[] => {
      const byBucket = new Map<number, Array<[number, number]>>();
      for (const [ts, value] of values) {
        if (ts < from || ts > to) continue;
        const t = Math.floor(ts / span) * span;
        byBucket.set(t, [...(byBucket.get(t) ?? []), [ts, value]]);
      }
      return [...byBucket.entries()].sort((a, b) => a[0] - b[0]).map(([t, points]) => {
        const vs = points.map((p) => p[1]);
        return [t, Math.min(...vs), Math.max(...vs), vs.reduce((a, b) => a + b, 0) / vs.length, vs[0], vs[vs.length - 1], vs.length];
      });
    };
    const ranges = [
      { startTime: T0, endTime: T0 + (N - 1) * MINUTE, width: 100 }, // 10-minute rollups
      { startTime: T0 + 17 * MINUTE + 123, endTime: T0 + 9000 * MINUTE + 7, width: 20 }, // hour rollups, ragged edges
      { startTime: T0 - 5 * HOUR, endTime: T0 + N * MINUTE, width: 10 }, // 6-hour rollups
    ];
    const expectExact = async () => {
      for (const query of ranges) {
        const [series] = (await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', ...query })).series;
        const expected = reference(query.startTime, query.endTime, series.bucketMs);
        expect(series.buckets?.map((b) => [b[0], b[6], b[4], b[5], b[2]])).toEqual(expected.map((b) => [b[0], b[6], b[4], b[5], b[2]]));
        series.buckets?.forEach((b, i) => {
          expect(b[1]).toBeCloseTo(expected[i][1], 9);
          expect(b[3]).toBeCloseTo(expected[i][3], 9);
        });
      }
    };

    // Points written straight into the table are marked by its triggers; until rolled up they are read as points.
    expect(Number((await db.selectFrom('wit_device_log_dirty').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(0);
    await expectExact();
    expect(await ctx.server.app.ingest.rollups.settle()).toBeGreaterThan(0);
    expect(await db.selectFrom('wit_device_log_dirty').selectAll().execute()).toEqual([]);
    expect(Number((await db.selectFrom('wit_device_log_rollup').select(db.fn.countAll().as('n')).where('deviceId', '=', deviceId).executeTakeFirstOrThrow()).n)).toBeGreaterThan(0);
    await expectExact();

    // The charts really read the rollups: a rollup cell altered behind their back shows.
    const cell = await db.selectFrom('wit_device_log_rollup').selectAll().where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('step', '=', 10 * MINUTE).orderBy('bucket').offset(300).limit(1).executeTakeFirstOrThrow();
    await db.updateTable('wit_device_log_rollup').set({ mx: 12345 }).where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('step', '=', 10 * MINUTE).where('bucket', '=', cell.bucket).execute();
    const tampered = (await chart('getHistoryEchartsData', { deviceId, pointKey: 'humidity', ...ranges[0] })).series[0];
    expect(tampered.buckets?.some((b) => b[2] === 12345)).toBe(true);

    // A correction and a removal are exact at once (their hours are stale until rolled up again) and after.
    const corrected = Number(cell.bucket) + 3 * MINUTE;
    await db.updateTable('wit_device_log').set({ value: -77 }).where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('ts', '=', corrected).execute();
    values.set(corrected, -77);
    const [from, to] = [T0 + 2000 * MINUTE, T0 + 2500 * MINUTE];
    await db.deleteFrom('wit_device_log').where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('ts', '>=', from).where('ts', '<=', to).execute();
    for (const ts of [...values.keys()]) if (ts >= from && ts <= to) values.delete(ts);
    await expectExact();
    await ctx.server.app.ingest.rollups.settle();
    await expectExact();

    // A claim a crash left behind (the roller had taken the mark, not yet recomputed): stale until the next pass.
    const later = await db.selectFrom('wit_device_log_rollup').selectAll().where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('step', '=', 10 * MINUTE).orderBy('bucket').offset(600).limit(1).executeTakeFirstOrThrow();
    await db.updateTable('wit_device_log_rollup').set({ mx: 54321 }).where('deviceId', '=', deviceId).where('pointKey', '=', 'humidity').where('step', '=', 10 * MINUTE).where('bucket', '=', later.bucket).execute();
    await db.insertInto('wit_device_log_rolling').values({ deviceId, hour: Math.floor(Number(later.bucket) / HOUR) }).execute();
    await expectExact();
    expect(await ctx.server.app.ingest.rollups.settle()).toBeGreaterThan(0);
    expect(await db.selectFrom('wit_device_log_rolling').selectAll().execute()).toEqual([]);
    await expectExact();
  });
});
