import { expect, it } from 'vitest';
import { expectOk, expectRefused, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { demoId, submit, X } from './support';
import { expectEvery } from '../../support/lists';

type Node = Row & { title: string; nodeType: string; children?: Node[] };

onEveryStore('device catalogue and protocols', { signIn: ['demo', 'admin'] }, (ctx) => {
  it('answers device types by model and project, and as monitor objects', async () => {
    const byModel = expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/select`, { model: 'VG-CRACK-1' }));
    expect(byModel.map((t) => t.code)).toEqual(['crack_meter']);
    const byModelId = expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/select`, { model: demoId('m:VG-HLS-1') }));
    expect(byModelId.map((t) => t.code)).toEqual(['settlement_gauge']);
    const byProject = expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/select`, { projectId: demoId('project:bridge') }));
    expect(byProject).toHaveLength(6);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/select`))).toHaveLength(7);
    const objects = expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/getMonitorObject`, { status: 1 }));
    expect(objects.find((o) => o.code === 'crack_meter')).toMatchObject({ name: '裂缝计', deviceCount: 2 });
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/getMonitorObject`, { status: 2 }))).toEqual([]);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/devicetype/selectList`)).length).toBe(7);
    const listed = expectOk(await ctx.demo.get<{ records: Row[] }>(`${X}/devicetype/list`, { code: 'inclinometer' }));
    expect(listed.records[0].monitorTypeName).toBe('变形监测');
  });

  it('selects device attributes of a type, generic ones plus those of the structure type', async () => {
    const hls = demoId('dt:settlement_gauge');
    await submit(ctx.demo, 'deviceattribute', { deviceTypeId: hls, name: '测点编号', attrKey: 'tag', dataType: 'string' });
    const forBridges = expectOk(await postParams<Row[]>(ctx.demo, `${X}/deviceattribute/selectList`, { deviceTypeId: hls, projectType: '1' }));
    expect(forBridges.map((a) => a.attrKey).sort()).toEqual(['reference_point', 'tag']);
    const forSlopes = expectOk(await ctx.demo.post<Row[]>(`${X}/deviceattribute/selectList`, { deviceTypeId: hls, projectType: 3 }));
    expect(forSlopes.map((a) => a.attrKey)).toEqual(['tag']);
    expectRefused(await ctx.demo.post(`${X}/deviceattribute/submit`, { deviceTypeId: hls, name: '坏键', attrKey: '1abc' }), '点位标识以字母开头');
    expectRefused(await ctx.demo.post(`${X}/deviceattribute/selectList`, {}), '缺少必要的请求参数');
  });

  it('builds model trees: all types with models, gateway models, collector models, by project', async () => {
    const types = expectOk(await ctx.demo.get<Node[]>(`${X}/devicemodel/getTreeList`));
    expectEvery(types, (t) => t.nodeType === 'type' && !t.children);
    const tree = expectOk(await ctx.demo.get<Node[]>(`${X}/devicemodel/getTreeList`, { isLoadModel: 1 }));
    expect(tree.find((t) => t.code === 'inclinometer')?.children?.map((m) => m.code)).toEqual(['VG-TILT-2']);
    const gateways = expectOk(await ctx.demo.get<Node[]>(`${X}/devicemodel/getGatewayModelTree`, { isLoadModel: 1 }));
    expect(gateways.map((t) => t.code)).toEqual(['gateway']);
    expect(gateways[0].children?.map((m) => m.code)).toEqual(['VG-GNSS-BASE']);
    await submit(ctx.demo, 'devicemodel', { name: '八通道采集仪', code: 'VG-CJQ-8', modelKind: 3, deviceTypeId: demoId('dt:gateway'), connectionType: 1, channels: 8 });
    const collectors = expectOk(await ctx.demo.get<Node[]>(`${X}/devicemodel/getCjqModelTree`, { isLoadModel: 'true' }));
    expect(collectors[0].children?.map((m) => m.code)).toEqual(['VG-CJQ-8']);
    const inProject = expectOk(await ctx.demo.get<Node[]>(`${X}/devicemodel/getTreeList`, { isLoadModel: 1, projectId: demoId('project:bridge') }));
    expect(inProject.flatMap((t) => t.children ?? []).map((m) => m.code).sort()).toEqual(['VG-CRACK-1', 'VG-GNSS-R', 'VG-HLS-1', 'VG-RAIN-1', 'VG-TH-1', 'VG-TILT-2']);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/devicemodel/selectlist`)).length).toBe(8);
    expectRefused(await ctx.demo.post(`${X}/devicemodel/submit`, { name: '坏型号', code: 'BAD', connectionType: 5 }), '接入方式应为');
    expectRefused(await ctx.demo.post(`${X}/devicemodel/submit`, { name: '重复', code: 'VG-TH-1' }), '型号编号已存在');
  });

  it('keeps protocols with points and Modbus variables, and links models to protocols', async () => {
    const proto = await submit(ctx.demo, 'protocol', { name: '应变计 Modbus', code: 'strain-modbus', protocolType: 3 });
    await submit(ctx.demo, 'protocolpoint', { protocolId: proto.id, pointKey: 'strain', name: '应变', unit: 'με', readWrite: 1 });
    expectRefused(await ctx.demo.post(`${X}/protocolpoint/submit`, { protocolId: proto.id, pointKey: 'strain', name: '重复' }), '点位标识已存在');
    expectRefused(await ctx.demo.post(`${X}/protocolpoint/submit`, { protocolId: proto.id, pointKey: 'rw', name: '读写', readWrite: 4 }), '读写类型应为');
    const variable = await submit(ctx.demo, 'protocolmodbus', { protocolId: proto.id, pointKey: 'strain', name: '应变', functionCode: 4, register: 0, dataType: 'float32', byteOrder: 'CDAB', scale: 0.1, offset: -5 });
    expect(variable.quantity).toBe(2);
    expectRefused(await ctx.demo.post(`${X}/protocolmodbus/submit`, { protocolId: proto.id, pointKey: 'bad_fc', name: '坏功能码', functionCode: 7, register: 1, dataType: 'int16' }), '功能码应为');
    expectRefused(await ctx.demo.post(`${X}/protocolmodbus/submit`, { protocolId: proto.id, pointKey: 'bad_reg', name: '坏地址', functionCode: 3, register: 70000, dataType: 'int16' }), '寄存器地址应在 0 到 65535 之间');
    expectRefused(await ctx.demo.post(`${X}/protocolmodbus/submit`, { protocolId: proto.id, pointKey: 'short', name: '寄存器不够', functionCode: 3, register: 1, quantity: 1, dataType: 'float64' }), '至少需要 4 个寄存器');
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/protocolmodbus/selectlist`, { protocolId: proto.id })).map((v) => v.pointKey)).toEqual(['strain']);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/protocolpoint/selectlist`, { protocolId: demoId('p:json') })).length).toBe(11);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/protocol/selectlist`)).map((p) => p.code).sort()).toEqual(['strain-modbus', 'tilt-modbus', 'vigil-json']);

    const link = await submit(ctx.demo, 'modelagreement', { modelId: demoId('m:VG-TH-1'), protocolId: proto.id });
    const listed = expectOk(await ctx.demo.get<{ records: Row[] }>(`${X}/modelagreement/list`, { modelId: demoId('m:VG-TH-1') }));
    expect(listed.records).toEqual([expect.objectContaining({ id: link.id, modelName: '温湿度计', protocolName: '应变计 Modbus' })]);
    expectRefused(await ctx.demo.post(`${X}/modelagreement/submit`, { modelId: demoId('m:VG-TH-1'), protocolId: proto.id }), '该型号已关联此协议');
    // A protocol of another tenant cannot be linked; a protocol models use cannot be removed.
    const foreign = await submit(ctx.admin, 'protocol', { name: '平台协议', code: 'platform-only' });
    expectRefused(await ctx.demo.post(`${X}/modelagreement/submit`, { modelId: demoId('m:VG-TH-1'), protocolId: foreign.id }), '协议不存在');
    expectRefused(await ctx.demo.request('POST', `${X}/protocol/remove`, { query: { ids: demoId('p:json') } }) as never, '协议已被设备型号使用');
  });

  it('saves temperature coefficients one by one or in a batch, all or nothing', async () => {
    const crack = demoId('m:VG-CRACK-1');
    const single = expectOk(await ctx.demo.post<Row>(`${X}/temperaturecoefficient/save`, { modelId: crack, channel: 2, coefficient: 0.011, referenceTemperature: 18 }));
    expect(single.channel).toBe(2);
    expectRefused(await ctx.demo.post(`${X}/temperaturecoefficient/save`, { modelId: crack, channel: 2, coefficient: 0.02 }), '该型号通道的温度系数已存在');

    const saved = expectOk(await ctx.demo.post<number>(`${X}/temperaturecoefficient/batchSave`, [
      { modelId: crack, channel: 1, coefficient: 0.013, referenceTemperature: 20 },
      { modelId: crack, channel: 3, coefficient: 0.009 },
    ]));
    expect(saved).toBe(2);
    const bad = await ctx.demo.post(`${X}/temperaturecoefficient/batchSave`, [
      { modelId: crack, channel: 4, coefficient: 0.01 },
      { modelId: crack, channel: 5, coefficient: 'abc' },
    ]);
    expectRefused(bad, '第2条');
    const reference = expectOk(await postParams<Row[]>(ctx.demo, `${X}/temperaturecoefficient/selectReferenceData`, { modelId: crack }));
    expect(reference.map((r) => [r.channel, r.coefficient])).toEqual([[1, 0.013], [2, 0.011], [3, 0.009]]);
    expectRefused(await ctx.demo.post(`${X}/temperaturecoefficient/batchSave`, []), '请提交温度系数列表');
  });
});
