import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { submit, X } from '../monitoring/support';
import { answering, BRIDGE, connectAs, deviceOf, type FakeDevice, GATEWAY } from './support';
import { expectEvery } from '../../support/lists';

interface Result {
  pushLogId: string;
  messageId: string;
  state: number;
  stateName: string;
  result?: unknown;
  error?: unknown;
}

/** Commands over HTTP → MQTT → a real MQTT client acting as the device → its reply → the push log. */
onEveryStore('commands', { signIn: ['demo', 'admin'] }, (ctx) => {
  let crack1: FakeDevice; // answers everything
  let crack2: FakeDevice; // stays silent unless told
  let gateway: FakeDevice; // answers everything
  const CRACK1 = deviceOf('QJ-CRACK-01');
  const CRACK2 = deviceOf('QJ-CRACK-02');

  beforeAll(async () => {
    crack1 = await connectAs(ctx.server, 'device', 'QJ-CRACK-01');
    answering(crack1, (c) => (c.command === 'getPoint' ? { values: { crack: 0.21 } } : { done: c.command }));
    crack2 = await connectAs(ctx.server, 'device', 'QJ-CRACK-02');
    gateway = await connectAs(ctx.server, 'gateway', 'QJ-GW-01');
    answering(gateway);
  });
  afterAll(async () => {
    await Promise.all([crack1.close(), crack2.close(), gateway.close()]);
  });

  const pushLog = async (id: string) => expectOk(await ctx.demo.get<Row>(`${X}/devicepushlog/detail`, { id }));

  it('publishes a command, records it, and returns the reply that arrives within the wait', async () => {
    const reply = await ctx.demo.post<Result>(`${X}/device/sendCommands`, { deviceId: CRACK1, command: 'reboot', params: { delay: 1 }, wait: 5 });
    const result = expectOk(reply);
    expect(reply.body.msg).toBe('设备已回复');
    expect(result).toMatchObject({ state: 1, stateName: '已回复', result: { done: 'reboot' } });
    const received = crack1.received.find((c) => c.id === result.messageId);
    expect(received).toMatchObject({ command: 'reboot', params: { delay: 1 } });
    expect(typeof received?.ts).toBe('number');
    const log = await pushLog(result.pushLogId);
    expect(log).toMatchObject({ deviceId: CRACK1, projectId: BRIDGE, code: 'QJ-CRACK-01', topic: 'vigil/100001/device/QJ-CRACK-01/command', commandName: 'reboot', state: 1, source: 'api' });
    expect(JSON.parse(String(log.reply))).toEqual({ id: result.messageId, ok: true, result: { done: 'reboot' } });
    expect(log.repliedAt).toBeTruthy();
  });

  it('says "sent, no reply yet" after the wait (state 2), and a late reply still lands', async () => {
    const reply = await ctx.demo.post<Result>(`${X}/device/sendCommands`, { deviceId: CRACK2, command: 'collect', wait: 1 });
    const result = expectOk(reply);
    expect(reply.body.msg).toBe('已发送,暂未收到回复');
    expect(result.state).toBe(2);
    expect((await pushLog(result.pushLogId)).state).toBe(2);
    await until(() => crack2.received.some((c) => c.id === result.messageId));
    // Another device cannot answer for it (its reply topic is its own).
    await crack1.reply({ id: result.messageId, ok: true });
    await crack2.reply({ id: result.messageId, ok: true, result: { late: true } });
    await until(async () => ((await pushLog(result.pushLogId)).state === 1 ? true : undefined));
    expect(JSON.parse(String((await pushLog(result.pushLogId)).reply)).result).toEqual({ late: true });

    const noWait = expectOk(await ctx.demo.post<Result>(`${X}/device/sendCommands`, { deviceId: CRACK2, command: 'collect', wait: 0 }));
    expect(noWait.state).toBe(0);
  });

  it('marks a refused command failed (state 3) with the device error', async () => {
    const pending = ctx.demo.post<Result>(`${X}/device/sendFunCommands`, { deviceId: CRACK2, function: 'calibrate', params: { zero: true }, wait: 5 });
    const command = await until(() => crack2.received.find((c) => c.command === 'calibrate'));
    expect(command.params).toEqual({ zero: true });
    await crack2.reply({ id: command.id, ok: false, error: '标定失败: 传感器未就绪' });
    const reply = await pending;
    expect(reply.body.msg).toBe('设备执行失败');
    expect(expectOk(reply)).toMatchObject({ state: 3, stateName: '执行失败', error: '标定失败: 传感器未就绪' });
  });

  it('sends several commands in one call, and refuses bad ones before sending anything', async () => {
    const before = crack1.received.length;
    const results = expectOk(await ctx.demo.post<Result[]>(`${X}/device/sendCommands`, { deviceId: CRACK1, commands: [{ command: 'collect' }, { command: 'setClock', params: '{"tz":"+08:00"}' }] }));
    expect(results.map((r) => r.state)).toEqual([1, 1]);
    expect(crack1.received.slice(before).map((c) => c.command)).toEqual(['collect', 'setClock']);

    expectRefused(await ctx.demo.post(`${X}/device/sendCommands`, { deviceId: CRACK1, command: '1bad name' }), '指令名称不正确');
    expectRefused(await ctx.demo.post(`${X}/device/sendCommands`, { deviceId: CRACK1, command: 'collect', params: '[1]' }), '指令参数应为 JSON 对象');
    expectRefused(await ctx.demo.post(`${X}/device/sendCommands`, { deviceId: CRACK1, command: 'collect', wait: 31 }), '等待时间应在 0 到 30 秒之间');
    expectRefused(await ctx.demo.post(`${X}/device/sendCommands`, { deviceId: CRACK1, commands: [{ command: 'ok' }, { command: '' }] }), '第2条指令');
    expectRefused(await ctx.demo.post(`${X}/device/sendCommands`, { command: 'collect' }), '请选择设备');
    expectRefused(await ctx.demo.post(`${X}/device/sendCommands`, { deviceId: REFERENCE_IDS.device, command: 'collect' }), '设备不存在或无权操作');
    expect(crack1.received.length).toBe(before + 2);
  });

  it('reads and writes device points, refusing unknown and read-only ones', async () => {
    const read = expectOk(await ctx.demo.post<Result>(`${X}/device/setDevicePoint`, { deviceId: CRACK1, pointKey: 'crack', isGet: 1 }));
    expect(read).toMatchObject({ state: 1, result: { values: { crack: 0.21 } } });
    expect(crack1.received.find((c) => c.id === read.messageId)).toMatchObject({ command: 'getPoint', params: { points: ['crack'] } });
    // `crack` is a read-only point of the model's protocol.
    expectRefused(await ctx.demo.post(`${X}/device/setDevicePoint`, { deviceId: CRACK1, pointKey: 'crack', readWriteType: 2, value: 1 }), '点位 crack 只读');
    expectRefused(await ctx.demo.post(`${X}/device/setDevicePoint`, { deviceId: CRACK1, pointKey: 'nothing', isGet: 1 }), '该设备没有点位 nothing');
    expectRefused(await ctx.demo.post(`${X}/device/setDevicePoint`, { deviceId: CRACK1, readWriteType: 2, value: 1 }), '请选择要写入的点位');
    expectRefused(await ctx.demo.post(`${X}/device/setDevicePoint`, { deviceId: CRACK1, readWriteType: 3 }), '读写类型应为');
    await submit(ctx.demo, 'devicepoint', { deviceId: CRACK1, pointKey: 'interval', name: '采样间隔', unit: 's' });
    expectRefused(await ctx.demo.post(`${X}/device/setDevicePoint`, { deviceId: CRACK1, pointKey: 'interval', isGet: 0 }), '请输入要写入的值');
    const write = expectOk(await ctx.demo.post<Result>(`${X}/device/setDevicePoint`, { deviceId: CRACK1, pointKey: 'interval', readWriteType: 2, value: '600' }));
    expect(write.state).toBe(1);
    expect(crack1.received.find((c) => c.id === write.messageId)).toMatchObject({ command: 'setPoint', params: { point: 'interval', value: 600 } });
  });

  it('commands gateways: points, commands and a collection strategy', async () => {
    const point = expectOk(await ctx.demo.post<Result>(`${X}/gateway/setGatewayPoint`, { gatewayId: GATEWAY, pointKey: 'interval', readWriteType: 2, value: 300 }));
    expect(point.state).toBe(1);
    expect(gateway.received.find((c) => c.id === point.messageId)).toMatchObject({ command: 'setPoint', params: { point: 'interval', value: 300 } });
    const sent = expectOk(await ctx.demo.post<Result>(`${X}/gateway/sendCommands`, { gatewayId: GATEWAY, command: 'collect', params: { devices: ['QJ-HLS-01'] } }));
    expect(sent).toMatchObject({ state: 1, result: { done: 'collect' } });
    expect((await pushLog(sent.pushLogId))).toMatchObject({ gatewayId: GATEWAY, deviceId: null, topic: 'vigil/100001/gateway/QJ-GW-01/command' });

    const strategy = await submit(ctx.demo, 'collectstrategy', { name: '网关下发策略', projectId: BRIDGE, gatewayId: GATEWAY, deviceIds: [deviceOf('QJ-HLS-01'), deviceOf('QJ-HLS-02')], times: '08:00,20:00', command: { command: 'collect', params: { fast: true } } });
    const pushed = expectOk(await ctx.demo.post<Result>(`${X}/gateway/sendStrategy`, { id: strategy.id }));
    expect(pushed.state).toBe(1);
    expect(gateway.received.find((c) => c.id === pushed.messageId)).toMatchObject({
      command: 'setStrategy',
      params: { strategyId: strategy.id, name: '网关下发策略', times: ['08:00', '20:00'], command: { command: 'collect', params: { fast: true } }, enabled: false, devices: ['QJ-HLS-01', 'QJ-HLS-02'] },
    });
    const withoutGateway = await submit(ctx.demo, 'collectstrategy', { name: '设备策略', projectId: BRIDGE, deviceIds: CRACK1, intervalSeconds: 600 });
    expectRefused(await ctx.demo.post(`${X}/gateway/sendStrategy`, { id: withoutGateway.id }), '该策略未指定网关');
    expectRefused(await ctx.admin.post(`${X}/gateway/sendCommands`, { gatewayId: '42', command: 'collect' }), '网关不存在或无权操作');
  });

  it('lists the push log within the tenant', async () => {
    const mine = expectOk(await ctx.demo.get<PageData>(`${X}/devicepushlog/list`, { deviceId: CRACK1, size: 100 }));
    expect(mine.total).toBeGreaterThanOrEqual(5);
    expectEvery(mine.records, (r) => r.tenantId === '100001' && r.code === 'QJ-CRACK-01');
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/devicepushlog/list`, { state: 3 })).records.map((r) => r.commandName)).toEqual(['calibrate']);
    expect(expectOk(await ctx.admin.get<PageData>(`${X}/devicepushlog/list`, { tenantId_equal: '000000' })).total).toBe(0);
  });
});
