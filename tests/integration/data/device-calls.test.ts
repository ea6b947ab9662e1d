import { beforeAll, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { submit, X } from '../monitoring/support';
import { at, connectAs, deviceOf, GATEWAY } from './support';

/** Initial values, recalculation after a formula change, hydrostatic settlement, gateway status — over HTTP. */
onEveryStore('device calls', { signIn: ['demo', 'admin'] }, (ctx) => {
  let model: Row;
  let strain: Row;
  const t1 = at('2026-04-01 10:00:00');
  const t2 = at('2026-04-01 10:10:00');
  const t3 = at('2026-04-02 10:00:00');

  beforeAll(async () => {
    model = await submit(ctx.demo, 'devicemodel', { name: '测试应变计', code: 'T-STRAIN' });
    strain = await submit(ctx.demo, 'device', { code: 'T-STRAIN-01', name: '测试应变计1', modelId: model.id, initialValues: { strain: 100 } });
    await submit(ctx.demo, 'devicepoint', { deviceId: strain.id, pointKey: 'strain', name: '应变', channel: 1 });
    await submit(ctx.demo, 'devicepoint', { deviceId: strain.id, pointKey: 'temperature', name: '温度', channel: 2 });
    await submit(ctx.demo, 'mqttuser', { username: 'T-STRAIN-01', password: 'Strain#Secret01', clientType: 1, clientId: 'T-STRAIN-01' });
    // Stored while the model has no formula: values as sent.
    const device = await connectAs(ctx.server, 'device', 'T-STRAIN-01', 'Strain#Secret01');
    await device.publish([
      { ts: t1, values: { strain: 100, temperature: 30 } },
      { ts: t2, values: { strain: 110 } },
      { ts: t3, values: { strain: 120 } },
    ]);
    await device.close();
  });

  const values = async () => {
    const rows = expectOk(await ctx.demo.get<Row[]>(`${X}/devicelog/nopage`, { deviceId: strain.id }));
    return Object.fromEntries(rows.map((r) => [`${r.pointKey}@${r.ts === t1 ? 't1' : r.ts === t2 ? 't2' : 't3'}`, r.value]));
  };

  it('recalculates a range from the raw readings with the current formula, initial values and coefficients', async () => {
    expect(await values()).toEqual({ 'strain@t1': 100, 'temperature@t1': 30, 'strain@t2': 110, 'strain@t3': 120 });
    expectOk(await ctx.demo.post(`${X}/devicemodel/submit`, { id: model.id, formula: JSON.stringify({ strain: '(x - x0) * 2' }) }));
    await submit(ctx.demo, 'temperaturecoefficient', { modelId: model.id, channel: 1, coefficient: 0.1, referenceTemperature: 20 });

    expectRefused(await ctx.demo.post(`${X}/device/recalculate`, { deviceId: strain.id, endTime: '2026-04-01 23:59:59' }), '请选择开始时间');
    expectRefused(await ctx.demo.post(`${X}/device/recalculate`, { deviceId: REFERENCE_IDS.device, startTime: '2026-04-01', endTime: '2026-04-01' }), '设备不存在或无权操作');
    const run = expectOk(await ctx.demo.post<Row>(`${X}/device/recalculate`, { deviceId: strain.id, startTime: '2026-04-01 00:00:00', endTime: '2026-04-01' }));
    expect(run).toMatchObject({ total: 3, changed: 2, failed: 0, state: 1 });
    // t1: (100 − 100) × 2 + 0.1 × (30 − 20); t2 takes the temperature of t1; t3 is outside the range.
    expect(await values()).toEqual({ 'strain@t1': 1, 'temperature@t1': 30, 'strain@t2': 21, 'strain@t3': 120 });

    const logs = expectOk(await ctx.demo.get<PageData>(`${X}/collectcalculationlog/list`, { deviceId: strain.id }));
    expect(logs.records[0]).toMatchObject({ deviceCode: 'T-STRAIN-01', total: 3, changed: 2, state: 1, startTs: at('2026-04-01 00:00:00'), formula: JSON.stringify({ strain: '(x - x0) * 2' }) });
    expect(JSON.parse(String(logs.records[0].initialValues))).toEqual({ strain: 100 });
    expect(expectOk(await ctx.admin.get<PageData>(`${X}/collectcalculationlog/list`, { tenantId_equal: '000000' })).total).toBe(0);
  });

  it('sets initial values, given or from the latest raw readings, and recalculation uses them', async () => {
    expectRefused(await ctx.demo.post(`${X}/device/setDevInitValue`, { deviceId: strain.id, values: { strain: 'zero' } }), '初始值应为数字: strain');
    expectRefused(await ctx.demo.post(`${X}/device/setDevInitValue`, { deviceId: strain.id }), '请输入初始值');
    const set = expectOk(await ctx.demo.post<Row>(`${X}/device/setDevInitValue`, { deviceId: strain.id, values: { strain: 105 } }));
    expect(set.initialValues).toEqual({ strain: 105 });
    expectOk(await ctx.demo.post(`${X}/device/recalculate`, { deviceId: strain.id, pointKey: 'strain', ts_ge: t1, ts_le: t3 }));
    expect(await values()).toMatchObject({ 'strain@t1': -9, 'strain@t2': 11, 'strain@t3': 31 });

    const latest = expectOk(await ctx.demo.post<Row>(`${X}/device/setDevInitValue`, { deviceId: strain.id, useLatest: 1 }));
    expect(latest.initialValues).toEqual({ strain: 120, temperature: 30 });
    expect(JSON.parse(String(expectOk(await ctx.demo.get<Row>(`${X}/device/detail`, { id: strain.id })).initialValues))).toEqual({ strain: 120, temperature: 30 });
    const empty = await submit(ctx.demo, 'device', { code: 'T-EMPTY-01', name: '无数据设备' });
    expectRefused(await ctx.demo.post(`${X}/device/setDevInitValue`, { deviceId: empty.id, useLatest: true }), '该设备暂无数据');
  });

  it('computes settlement of levelling points relative to the reference point since the base instant', async () => {
    const gw = await connectAs(ctx.server, 'gateway', 'QJ-GW-01');
    const s = [t1, t2, t3];
    await gw.publish([
      ...[1.0, 1.2, 1.1].map((v, i) => ({ device: 'QJ-HLS-02', ts: s[i], values: { settlement: v } })),
      ...[2.0, 2.5, 2.9].map((v, i) => ({ device: 'QJ-HLS-01', ts: s[i] + 20_000, values: { settlement: v } })),
    ]);
    const result = expectOk(await ctx.demo.post<{ devices: Array<Row & { points: Row[] }> }>(`${X}/device/computeSettlement`, { referenceDeviceId: deviceOf('QJ-HLS-02'), startTime: '2026-04-01', endTime: '2026-04-02' }));
    expect(result.devices.map((d) => d.deviceCode)).toEqual(['QJ-HLS-01']);
    const [hls] = result.devices;
    expect(hls.baseTs).toBe(t1 + 20_000);
    expect(hls.points.map((p) => [p.reference, p.settlement])).toEqual([[1.0, 0], [1.2, 0.3], [1.1, 0.8]]);
    // Readings farther apart than the tolerance are not paired.
    const strict = expectOk(await ctx.demo.post<{ devices: Array<Row & { points: Row[] }> }>(`${X}/device/computeSettlement`, { referenceDeviceId: deviceOf('QJ-HLS-02'), deviceIds: deviceOf('QJ-HLS-01'), toleranceSeconds: 10 }));
    expect(strict.devices[0].points).toEqual([]);
    // A later base instant moves the zero.
    const later = expectOk(await ctx.demo.post<{ devices: Array<Row & { points: Row[] }> }>(`${X}/device/computeSettlement`, { referenceDeviceId: deviceOf('QJ-HLS-02'), baseTime: '2026-04-01 10:05:00' }));
    expect(later.devices[0].points.map((p) => p.settlement)).toEqual([0, 0.5]);
    expectRefused(await ctx.demo.post(`${X}/device/computeSettlement`, { referenceDeviceId: deviceOf('QJ-HLS-02'), startTime: '2027-01-01' }), '基准点在该时间段内没有数据');
    expectRefused(await ctx.demo.post(`${X}/device/computeSettlement`, { referenceDeviceId: deviceOf('QJ-HLS-02'), deviceIds: REFERENCE_IDS.device }), '设备不存在或无权操作');

    // The gateway is connected: its status says so, with the transition.
    const status = await until(async () => {
      const data = expectOk(await ctx.demo.post<Row & { transitions: Row[]; devices: Row[] }>(`${X}/device/checkGatewayStatus`, { gatewayId: GATEWAY }));
      return data.online === 1 ? data : undefined;
    });
    expect(status).toMatchObject({ code: 'QJ-GW-01', connected: true });
    expect(status.transitions[0]).toMatchObject({ online: 1, reason: 'connect' });
    expect(status.devices.map((d) => d.code).sort()).toEqual(['QJ-GNSS-01', 'QJ-HLS-01', 'QJ-HLS-02', 'QJ-TILT-01', 'QJ-TILT-02']);
    expect(status.lastSeen).toBeTruthy();
    await gw.client.endAsync();
    const gone = await until(async () => {
      const data = expectOk(await ctx.demo.post<Row & { transitions: Row[] }>(`${X}/device/checkGatewayStatus`, { gatewayId: GATEWAY }));
      return data.online === 0 ? data : undefined;
    });
    expect(gone.connected).toBe(false);
    expect(gone.transitions[0]).toMatchObject({ online: 0, reason: 'disconnect' });
    expectRefused(await ctx.admin.post(`${X}/device/checkGatewayStatus`, { gatewayId: '1' }), '网关不存在或无权操作');
    expectRefused(await ctx.demo.post(`${X}/device/checkGatewayStatus`, {}), '请选择网关');
  });
});
