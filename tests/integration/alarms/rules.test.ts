import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { SeriesRule } from '../../../server/alarms/rules';
import { expectOk, postParams } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, submit, X } from '../monitoring/support';
import { BRIDGE } from './support';

/**
 * Which threshold governs a device channel (server/alarms/rules.ts, docs/alarms.md): a channel's own rule beats its
 * monitor point's, which beats a factor item rule of its project; a change to the rules or to what they cover takes
 * effect at the next lookup.
 */
onEveryStore('the threshold that governs a channel', { signIn: ['demo'] }, (ctx) => {
  const device = (code: string) => demoId(`device:${code}`);
  const governing = async (deviceId: string, pointKey: string, tenantId = DEMO): Promise<SeriesRule | undefined> =>
    (await ctx.server.app.alarms.rules.ruled([{ tenantId, deviceId, pointKey }]))[0]?.[1];
  const governedBy = async (deviceId: string, pointKey: string) => (await governing(deviceId, pointKey))?.thresholdId;
  const threshold = (body: Record<string, unknown>) => submit(ctx.demo, 'devicethreshold', { level4Upper: 1, ...body });
  const call = async (path: string, params: Record<string, string>) => expectOk(await postParams(ctx.demo, `${X}/${path}`, params));
  const remove = (resource: string, ids: string) => call(`${resource}/remove`, { ids });

  it("prefers the channel's own rule, then its monitor point's, then its factor item's, whatever order they were made in", async () => {
    const factor = await threshold({ targetType: 3, projectId: BRIDGE, factorsItemId: demoId('fi:crack_raw') });
    // QJ-CRACK-02: its own rule first, then its monitor point's; QJ-CRACK-01 the other way round.
    const own2 = await threshold({ targetType: 1, deviceId: device('QJ-CRACK-02'), pointKey: 'crack' });
    const point2 = await threshold({ targetType: 2, monitorPointId: demoId('mp:QJ-CRACK-02:crack') });
    const point1 = await threshold({ targetType: 2, monitorPointId: demoId('mp:QJ-CRACK-01:crack') });
    const own1 = await threshold({ targetType: 1, deviceId: device('QJ-CRACK-01'), pointKey: 'crack', level4Upper: 2 });

    expect(await governing(device('QJ-CRACK-01'), 'crack')).toEqual({
      thresholdId: own1.id,
      projectId: BRIDGE,
      monitorPointId: null,
      rule: expect.objectContaining({ levels: { 4: expect.objectContaining({ upper: 2 }) } }),
    });
    expect(await governedBy(device('QJ-CRACK-02'), 'crack')).toBe(own2.id);
    // The crack meters' temperature has no factor item rule, and another tenant asking for these devices gets nothing.
    expect(await governing(device('QJ-CRACK-01'), 'temperature')).toBeUndefined();
    expect(await governing(device('QJ-CRACK-01'), 'crack', '000000')).toBeUndefined();
    // A batch, tenants mixed, as the engine judges it: its governed readings in order, each with the lookup's rule.
    const batch = [
      { tenantId: DEMO, deviceId: device('QJ-CRACK-01'), pointKey: 'crack' },
      { tenantId: DEMO, deviceId: device('QJ-CRACK-01'), pointKey: 'temperature' },
      { tenantId: '000000', deviceId: device('QJ-CRACK-02'), pointKey: 'crack' },
      { tenantId: DEMO, deviceId: device('QJ-CRACK-02'), pointKey: 'crack' },
    ];
    const ruled = await ctx.server.app.alarms.rules.ruled(batch);
    expect(ruled.map(([reading, rule]) => [reading, rule.thresholdId])).toEqual([[batch[0], own1.id], [batch[3], own2.id]]);

    await remove('devicethreshold', `${own1.id},${own2.id}`);
    expect(await governing(device('QJ-CRACK-01'), 'crack')).toMatchObject({ thresholdId: point1.id, monitorPointId: demoId('mp:QJ-CRACK-01:crack'), projectId: BRIDGE });
    expect(await governedBy(device('QJ-CRACK-02'), 'crack')).toBe(point2.id);

    await remove('devicethreshold', point1.id);
    expect(await governing(device('QJ-CRACK-01'), 'crack')).toMatchObject({ thresholdId: factor.id, monitorPointId: null });
    expect(await governedBy(device('QJ-CRACK-02'), 'crack')).toBe(point2.id);
  });

  it('gives a monitor point rule to every channel of a device bound whole, and to the one channel of a channel binding', async () => {
    const point = await submit(ctx.demo, 'monitorpoint', { projectId: BRIDGE, factorsId: demoId('f:temperature'), name: '箱梁环境', code: 'MP-RULES-ENV' });
    const whole = await submit(ctx.demo, 'pointrelationdevice', { monitorPointId: point.id, deviceId: device('QJ-TH-01') });
    await submit(ctx.demo, 'pointrelationdevice', { monitorPointId: point.id, deviceId: device('QJ-GNSS-01'), pointKey: 'dz' });
    const rule = await threshold({ targetType: 2, monitorPointId: point.id });

    for (const [code, pointKey] of [['QJ-TH-01', 'temperature'], ['QJ-TH-01', 'humidity'], ['QJ-GNSS-01', 'dz']]) {
      expect(await governing(device(code), pointKey)).toMatchObject({ thresholdId: rule.id, monitorPointId: point.id });
    }
    expect(await governing(device('QJ-GNSS-01'), 'dx')).toBeUndefined();

    // A channel added to the device is covered at once, and a removed one no longer is.
    const dew = await submit(ctx.demo, 'devicepoint', { deviceId: device('QJ-TH-01'), pointKey: 'dew', name: '露点', unit: '℃' });
    expect(await governedBy(device('QJ-TH-01'), 'dew')).toBe(rule.id);
    await remove('devicepoint', dew.id);
    expect(await governing(device('QJ-TH-01'), 'dew')).toBeUndefined();

    // Unbound, the device is governed by nothing again.
    await remove('pointrelationdevice', whole.id);
    expect(await governing(device('QJ-TH-01'), 'temperature')).toBeUndefined();
    expect(await governedBy(device('QJ-GNSS-01'), 'dz')).toBe(rule.id);
  });

  it('takes the rule made first for a channel bound to two monitor points', async () => {
    const points = [];
    for (const code of ['MP-RULES-DY-A', 'MP-RULES-DY-B']) {
      const point = await submit(ctx.demo, 'monitorpoint', { projectId: BRIDGE, factorsId: demoId('f:displacement'), name: code, code });
      await submit(ctx.demo, 'pointrelationdevice', { monitorPointId: point.id, deviceId: device('QJ-GNSS-01'), pointKey: 'dy' });
      points.push(point);
    }
    const first = await threshold({ targetType: 2, monitorPointId: points[1].id });
    await threshold({ targetType: 2, monitorPointId: points[0].id });
    expect(await governing(device('QJ-GNSS-01'), 'dy')).toMatchObject({ thresholdId: first.id, monitorPointId: points[1].id });
  });

  it("covers with a factor item rule its project's devices only, and no rule applies while its project is in the recycle bin", async () => {
    const project = await submit(ctx.demo, 'project', { name: '规则测试基坑', code: 'RULES-PIT', structureType: 4 });
    const inclinometer = await submit(ctx.demo, 'device', { code: 'RULES-CX-01', name: '测斜仪', projectId: project.id });
    const item = demoId('fi:displacement_raw');
    await submit(ctx.demo, 'devicepoint', { deviceId: inclinometer.id, pointKey: 'depth_1', name: '1m 位移', unit: 'mm', factorsItemId: item });
    const rule = await threshold({ targetType: 3, projectId: project.id, factorsItemId: item });

    expect(await governing(inclinometer.id, 'depth_1')).toMatchObject({ thresholdId: rule.id, projectId: project.id });
    // The bridge's GNSS station measures the same factor item, in another project.
    expect(await governing(device('QJ-GNSS-01'), 'dx')).toBeUndefined();

    await call('project/remove', { ids: project.id });
    expect(await governing(inclinometer.id, 'depth_1')).toBeUndefined();
    expectOk(await ctx.demo.get(`${X}/project/recovery`, { projectId: project.id }));
    expect(await governedBy(inclinometer.id, 'depth_1')).toBe(rule.id);

    // Moved to the bridge, the device leaves the rule of its old project.
    expectOk(await ctx.demo.post(`${X}/device/update`, { id: inclinometer.id, projectId: BRIDGE }));
    expect(await governing(inclinometer.id, 'depth_1')).toBeUndefined();
  });

  it('does not keep a load that failed: the next lookup reads again', async () => {
    const rule = await threshold({ targetType: 1, deviceId: device('QJ-TILT-02'), pointKey: 'tilt_x' });
    const { db } = ctx.server.app.platform;
    // The database refuses the read for a moment (a lock, a restart): the lookup fails with it.
    await sql`alter table wit_device_threshold rename to wit_device_threshold_away`.execute(db);
    try {
      await expect(governing(device('QJ-TILT-02'), 'tilt_x')).rejects.toThrow();
    } finally {
      await sql`alter table wit_device_threshold_away rename to wit_device_threshold`.execute(db);
    }
    expect(await governedBy(device('QJ-TILT-02'), 'tilt_x')).toBe(rule.id);
  });
});
