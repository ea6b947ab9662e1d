import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedIn } from '../../support/client';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { startServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { submit, X } from '../monitoring/support';
import { BRIDGE, connectAs, deviceOf, type FakeDevice, GATEWAY } from './support';

/** Collection strategies that really run: a timer in the server sends the command to the device over MQTT. */
onEveryStore('collection strategies', { signIn: ['demo'] }, (ctx) => {
  let rain: FakeDevice;
  const RAIN = deviceOf('QJ-RAIN-01');

  beforeAll(async () => {
    rain = await connectAs(ctx.server, 'device', 'QJ-RAIN-01');
  });
  afterAll(async () => {
    await rain.close();
  });

  it('checks a strategy before saving it', async () => {
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '缺项目' }), '请选择项目');
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '无计划', projectId: BRIDGE, deviceIds: RAIN, enabled: 1 }), '请设置采集间隔或采集时刻');
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '无目标', projectId: BRIDGE, intervalSeconds: 60, enabled: 1 }), '请选择网关或设备');
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '太快', projectId: BRIDGE, intervalSeconds: 1 }), '采集间隔至少5秒');
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '坏时刻', projectId: BRIDGE, times: '8:00,25:00' }), '采集时刻格式应为 HH:mm');
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '坏指令', projectId: BRIDGE, command: '{"params":{}}' }), '指令应为 JSON 对象');
    const slope = await submit(ctx.demo, 'project', { name: '边坡', code: 'SLOPE-S', structureType: 3 });
    const slopeDevice = await submit(ctx.demo, 'device', { code: 'SLOPE-S-01', name: '边坡雨量计', projectId: slope.id });
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '跨项目', projectId: BRIDGE, deviceIds: slopeDevice.id }), `设备不存在或不属于该项目: ${slopeDevice.id}`);
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '跨项目网关', projectId: slope.id, gatewayId: GATEWAY }), '网关不属于该项目');
    const draft = await submit(ctx.demo, 'collectstrategy', { name: '草稿', projectId: BRIDGE });
    expect(expectOk(await ctx.demo.get<Row>(`${X}/collectstrategy/detail`, { id: draft.id }))).toMatchObject({ enabled: 0, running: 0, command: '{"command":"collect"}' });
    expectRefused(await ctx.demo.post(`${X}/collectstrategy/submit`, { name: '草稿', projectId: BRIDGE }), '该项目已有同名策略');
  });

  it('starts: the command reaches the device within the interval, each run logged; stops: nothing more', async () => {
    const strategy = await submit(ctx.demo, 'collectstrategy', { name: '雨量每5秒', projectId: BRIDGE, deviceIds: RAIN, intervalSeconds: 5, command: { command: 'collect', params: { burst: 1 } } });
    expect(expectOk(await ctx.demo.get<Row>(`${X}/collectstrategy/detail`, { id: strategy.id })).running).toBe(0);
    const started = Date.now();
    expectOk(await ctx.demo.post(`${X}/collectstrategy/update`, { id: strategy.id, enabled: 1 }));
    expect(expectOk(await ctx.demo.get<Row>(`${X}/collectstrategy/detail`, { id: strategy.id })).running).toBe(1);

    const command = await until(() => rain.received.find((c) => c.command === 'collect'), 8000, 'the strategy command');
    expect(Date.now() - started).toBeLessThan(7000);
    expect(command.params).toEqual({ burst: 1 });
    const jobs = await until(async () => {
      const page = expectOk(await ctx.demo.get<PageData>(`${X}/jobinfo/list`, { strategyId: strategy.id }));
      return page.total > 0 ? page : undefined;
    });
    expect(jobs.records[0]).toMatchObject({ strategyName: '雨量每5秒', projectId: BRIDGE, triggerType: 'interval', targets: 1, sent: 1 });
    const pushes = expectOk(await ctx.demo.get<PageData>(`${X}/devicepushlog/list`, { source: `strategy:${strategy.id}` }));
    expect(pushes.records[0]).toMatchObject({ deviceId: RAIN, commandName: 'collect', state: 0 });
    expect(expectOk(await ctx.demo.get<Row>(`${X}/collectstrategy/detail`, { id: strategy.id })).lastRunTime).toBeTruthy();

    expectOk(await ctx.demo.post(`${X}/collectstrategy/update`, { id: strategy.id, enabled: 0 }));
    expect(expectOk(await ctx.demo.get<Row>(`${X}/collectstrategy/detail`, { id: strategy.id })).running).toBe(0);
    // The update answers once the stopped strategy has no timer and no run in progress: a command sent now reaches
    // the device after everything the strategy published, and nothing of the strategy is behind it (that the timer
    // stays stopped is proved on a fake clock in strategy-claims.test.ts).
    expectOk(await ctx.demo.post(`${X}/device/sendCommands`, { deviceId: RAIN, command: 'barrier', wait: 0 }));
    await until(() => rain.received.find((c) => c.command === 'barrier'), 5000, 'the barrier command');
    expect(rain.received.at(-1)?.command).toBe('barrier');
  });

  it('lists, shows a strategy with its project devices, and restarts the tenant strategies', async () => {
    const strategy = await submit(ctx.demo, 'collectstrategy', { name: '网关每日', projectId: BRIDGE, gatewayId: GATEWAY, deviceIds: `${deviceOf('QJ-HLS-01')},${RAIN}`, times: '06:00', enabled: 1 });
    const list = expectOk(await ctx.demo.get<Row[]>(`${X}/collectstrategy/selectlist`));
    expect(list.find((s) => s.id === strategy.id)).toMatchObject({ projectName: '钱塘江大桥健康监测', gatewayName: 'GNSS基准站网关', deviceCount: 2, running: 1 });
    const view = expectOk(await ctx.demo.get<PageData>(`${X}/viewstrateg/page`, { name: '网关每日' }));
    expect(view.records[0]).toMatchObject({ id: strategy.id, running: 1 });

    const detail = expectOk(await ctx.demo.get<{ strategy: Row; project: Row; gateways: Row[]; devices: Row[] }>(`${X}/collectstrategy/selectStrategyProject`, { id: strategy.id }));
    expect(detail.project).toMatchObject({ id: BRIDGE, code: 'QJ-BRIDGE' });
    expect(detail.devices).toHaveLength(9);
    expect(detail.devices.filter((d) => d.selected).map((d) => d.code).sort()).toEqual(['QJ-HLS-01', 'QJ-RAIN-01']);
    expect(detail.gateways).toEqual([expect.objectContaining({ id: GATEWAY, selected: true })]);
    expectRefused(await ctx.demo.get(`${X}/collectstrategy/selectStrategyProject`, { id: '1' }), '采集策略不存在或无权操作');

    const restarted = expectOk(await ctx.demo.get<{ running: number }>(`${X}/collectstrategy/restartWithingsPro`));
    expect(restarted.running).toBe(1);
    // Removing it stops it.
    expectOk(await ctx.demo.request('POST', `${X}/collectstrategy/remove`, { query: { ids: strategy.id } }));
    await until(async () => (expectOk(await ctx.demo.get<{ running: number }>(`${X}/collectstrategy/restartWithingsPro`)).running === 0 ? true : undefined));
  });

  it('starts enabled strategies again when the server starts', async () => {
    const first = await startServer(ctx.store);
    const admin = await signedIn(first.url, 'admin', 'admin', '100001');
    const saved = await submit(admin, 'collectstrategy', { name: '重启后继续', projectId: BRIDGE, deviceIds: RAIN, intervalSeconds: 5, enabled: 1 });
    await first.app.app.close();
    // A second server on the same database.
    const second = await startServer(ctx.store, { dataDir: first.dataDir, databaseUrl: first.app.platform.config.databaseUrl });
    try {
      const again = await signedIn(second.url, 'admin', 'admin', '100001');
      expect(expectOk(await again.get<Row>(`${X}/collectstrategy/detail`, { id: saved.id })).running).toBe(1);
      const device = await connectAs(second, 'device', 'QJ-RAIN-01');
      await until(() => device.received.find((c) => c.command === 'collect'), 8000, 'a command after the restart');
      await device.close();
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
