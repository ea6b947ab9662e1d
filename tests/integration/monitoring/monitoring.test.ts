import mqtt from 'mqtt';
import { expect, it } from 'vitest';
import { DEMO_DEVICE_PASSWORD, DEMO_GATEWAY_PASSWORD } from '../../../server/db/seed/monitoring';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { demoId, submit, X } from './support';
import { expectEvery } from '../../support/lists';

type Node = Row & { title: string; children?: Node[] };

onEveryStore('monitor types, factors, points and bindings', { signIn: ['demo'] }, (ctx) => {
  const bridge = demoId('project:bridge');

  it('lists monitor types, factors with their types, and the items of a factor', async () => {
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/monitortype/selectList`)).map((t) => t.code)).toEqual(['deformation', 'stress', 'environment']);
    const factors = expectOk(await ctx.demo.get<Row[]>(`${X}/monitorfactors/selectlist`));
    expect(factors.map((f) => f.code)).toHaveLength(8);
    expect(factors.find((f) => f.code === 'strain')).toMatchObject({ unit: 'με', monitorTypeName: '应力应变' });
    const items = expectOk(await ctx.demo.get<Row[]>(`${X}/monitorfactorsitem/selectlist`, { factorsId: demoId('f:settlement') }));
    expect(items.map((i) => [i.code, i.itemKind, i.unit])).toEqual([['settlement_raw', 1, 'mm'], ['settlement_cumulative', 2, 'mm'], ['settlement_single', 3, 'mm'], ['settlement_rate', 4, 'mm/d']]);
    expectRefused(await ctx.demo.post(`${X}/monitorfactorsitem/submit`, { factorsId: demoId('f:settlement'), name: '坏类别', code: 'bad_kind', itemKind: 7 }), '因素项类别应为');
    expectRefused(await ctx.demo.post(`${X}/monitorfactors/submit`, { name: '重复', code: 'tilt' }), '因素编号已存在');
  });

  it('answers the monitor types with factors, of all or of one project', async () => {
    const all = expectOk(await ctx.demo.post<Node[]>(`${X}/monitorfactors/selectMonitorType`, {}));
    expect(all.map((t) => t.title)).toEqual(['变形监测', '应力应变', '环境监测']);
    const used = expectOk(await postParams<Node[]>(ctx.demo, `${X}/monitorfactors/selectMonitorType`, { projectId: bridge }));
    expect(used.map((t) => t.title)).toEqual(['变形监测', '环境监测']);
    expect(used[0].children?.map((f) => f.code)).toEqual(['tilt', 'crack', 'settlement', 'displacement']);
    expect(used[1].children?.map((f) => f.code)).toEqual(['rainfall', 'temperature', 'humidity']);
  });

  it('keeps monitor points with their bound devices, and checks every binding', async () => {
    const points = expectOk(await ctx.demo.get<Row[]>(`${X}/monitorpoint/select`, { projectId: bridge }));
    expect(points).toHaveLength(14);
    const tilt = points.find((p) => p.code === 'MP-TILT-01-TILT_X');
    expect(tilt).toMatchObject({ factorsName: '倾斜', projectName: '钱塘江大桥健康监测', initialValue: 0.012, deviceIds: [demoId('device:QJ-TILT-01')] });

    const point = await submit(ctx.demo, 'monitorpoint', { projectId: bridge, factorsId: demoId('f:temperature'), name: '1#塔温度', code: 'MP-T1-TEMP', initialValue: 15.5 });
    expectRefused(await ctx.demo.post(`${X}/monitorpoint/submit`, { projectId: bridge, name: '重复', code: 'MP-T1-TEMP' }), '监测点编号已存在');
    expectRefused(await ctx.demo.post(`${X}/monitorpoint/submit`, { name: '无项目', code: 'MP-X' }), '请选择项目');

    const binding = await submit(ctx.demo, 'pointrelationdevice', { monitorPointId: point.id, deviceId: demoId('device:QJ-CRACK-01'), pointKey: 'temperature' });
    const listed = expectOk(await ctx.demo.get<PageData>(`${X}/pointrelationdevice/list`, { monitorPointId: point.id }));
    expect(listed.records).toEqual([expect.objectContaining({ id: binding.id, monitorPointName: '1#塔温度', deviceName: '跨中底板裂缝计' })]);
    expectRefused(await ctx.demo.post(`${X}/pointrelationdevice/submit`, { monitorPointId: point.id, deviceId: demoId('device:QJ-CRACK-01'), pointKey: 'temperature' }), '该设备已绑定此监测点');
    expectRefused(await ctx.demo.post(`${X}/pointrelationdevice/submit`, { monitorPointId: point.id, deviceId: demoId('device:QJ-CRACK-01'), pointKey: 'nothing' }), '设备没有该点位');
    const elsewhere = await submit(ctx.demo, 'project', { name: '另一项目', code: 'OTHER' });
    const stray = await submit(ctx.demo, 'device', { code: 'OTHER-01', name: '别处设备', projectId: elsewhere.id });
    expectRefused(await ctx.demo.post(`${X}/pointrelationdevice/submit`, { monitorPointId: point.id, deviceId: stray.id }), '设备与监测点不属于同一项目');
    expectRefused(await ctx.demo.request('POST', `${X}/monitorpoint/remove`, { query: { ids: point.id } }) as never, '监测点已绑定设备');
    expectOk(await ctx.demo.request('POST', `${X}/pointrelationdevice/remove`, { query: { ids: binding.id } }) as never);
    expectOk(await ctx.demo.request('POST', `${X}/monitorpoint/remove`, { query: { ids: point.id } }) as never);
  });

  it('refuses to remove monitor types, factors and items still in use', async () => {
    expectRefused(await ctx.demo.request('POST', `${X}/monitortype/remove`, { query: { ids: demoId('mt:deformation') } }) as never, '监测类型已被使用');
    expectRefused(await ctx.demo.request('POST', `${X}/monitorfactors/remove`, { query: { ids: demoId('f:tilt') } }) as never, '监测因素已被使用');
    expectRefused(await ctx.demo.request('POST', `${X}/monitorfactorsitem/remove`, { query: { ids: demoId('fi:tilt_raw') } }) as never, '因素项已被设备点位使用');
    expectOk(await ctx.demo.request('POST', `${X}/monitorfactorsitem/remove`, { query: { ids: demoId('fi:tilt_rate') } }) as never);
  });

  it('keeps report items', async () => {
    await submit(ctx.demo, 'monitoritem', { name: '主梁挠度', code: 'deflection', monitorTypeId: demoId('mt:deformation'), factorsId: demoId('f:settlement'), factorsItemId: demoId('fi:settlement_cumulative'), sort: 1 });
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/monitoritem/selectlist`)).map((i) => i.code)).toEqual(['deflection']);
    expectRefused(await ctx.demo.post(`${X}/monitoritem/submit`, { name: '坏引用', code: 'bad', factorsItemId: demoId('nothing') }), '因素项不存在');
  });

  it('seeds MQTT identities the demo devices and gateway connect with', async () => {
    const connect = (username: string, password: string) =>
      new Promise<boolean>((resolve) => {
        const client = mqtt.connect(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { username, password, clientId: username, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 });
        client.once('connect', () => client.end(true, () => resolve(true)));
        client.once('error', () => client.end(true, () => resolve(false)));
      });
    expect(await connect('QJ-TILT-01', DEMO_DEVICE_PASSWORD)).toBe(true);
    expect(await connect('QJ-GW-01', DEMO_GATEWAY_PASSWORD)).toBe(true);
    expect(await connect('QJ-TILT-01', 'wrong-password')).toBe(false);
    const identities = expectOk(await ctx.demo.get<PageData>(`${X}/mqttuser/list`, { clientType_equal: 1, size: 50 }));
    expect(identities.records.map((r) => r.clientId).sort()).toEqual(
      ['QJ-CRACK-01', 'QJ-CRACK-02', 'QJ-GNSS-01', 'QJ-HLS-01', 'QJ-HLS-02', 'QJ-RAIN-01', 'QJ-TH-01', 'QJ-TILT-01', 'QJ-TILT-02'],
    );
    expectEvery(identities.records, (r) => !('password' in r));
  });

  it('seeds idempotently: a second seed run adds nothing', async () => {
    const { seed } = await import('../../../server/db/seed');
    const count = async () => Number((await ctx.server.app.platform.db.selectFrom('wit_device').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await seed(ctx.server.app.platform.db);
    expect(await count()).toBe(before);
  });
});
