import { expect, it } from 'vitest';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, submit, X } from './support';
import { expectEvery } from '../../support/lists';

type Node = Row & { title: string; nodeType: string; hasChildren: boolean; parentId: string; children?: Node[] };

onEveryStore('gateways and devices', { signIn: ['demo', 'admin'] }, (ctx) => {
  const bridge = demoId('project:bridge');
  const gatewayId = demoId('gateway:gnss-base');

  it('keeps gateways as a tree with their devices, one level at a time', async () => {
    const collector = expectOk(await ctx.demo.post<Row>(`${X}/gateway/save`, { code: 'QJ-CJQ-01', name: '跨中采集仪', parentId: gatewayId, projectId: bridge }));
    expectRefused(await ctx.demo.post(`${X}/gateway/save`, { code: 'QJ-CJQ-01', name: '重复' }), '网关编号已存在');
    expectRefused(await ctx.admin.post(`${X}/gateway/save`, { code: 'QJ-CJQ-01', name: '别的租户也不行' }), '网关编号已存在');
    expectRefused(await ctx.demo.post(`${X}/gateway/save`, { code: 'bad code', name: '坏编号' }), '编号只能包含字母、数字和 _ . : -');

    const tree = expectOk(await ctx.demo.get<Node[]>(`${X}/gateway/tree`, { projectId: bridge }));
    expect(tree.map((g) => g.id)).toEqual([gatewayId]);
    expect(tree[0].children?.map((c) => c.id)).toEqual([collector.id]);
    const top = expectOk(await ctx.demo.get<Row[]>(`${X}/gateway/lazy-list`));
    expect(top.map((g) => [g.code, g.hasChildren, g.modelName, g.projectName])).toEqual([['QJ-GW-01', true, 'GNSS基准站网关', '钱塘江大桥健康监测']]);
    const below = expectOk(await ctx.demo.get<Row[]>(`${X}/gateway/lazy-list`, { parentId: gatewayId }));
    expect(below.map((g) => [g.code, g.hasChildren])).toEqual([['QJ-CJQ-01', false]]);

    const withDevices = expectOk(await ctx.demo.get<Node[]>(`${X}/gateway/treeGatewayDevice`, { projectId: bridge }));
    const devices = withDevices[0].children?.filter((c) => c.nodeType === 'device').map((d) => d.code);
    expect(devices?.sort()).toEqual(['QJ-GNSS-01', 'QJ-HLS-01', 'QJ-HLS-02', 'QJ-TILT-01', 'QJ-TILT-02']);
    expectRefused(await ctx.demo.request('POST', `${X}/gateway/remove`, { query: { ids: gatewayId } }) as never, '网关下还有设备,不能删除');
    expectOk(await ctx.demo.request('POST', `${X}/gateway/remove`, { query: { ids: collector.id } }) as never);
  });

  it('lists gateway state history read-only, with the gateway name', async () => {
    const db = ctx.server.app.platform.db;
    await db
      .insertInto('wit_gateway_state')
      .values({ id: '9000000000000000001', tenantId: DEMO, gatewayId, gatewayCode: 'QJ-GW-01', projectId: bridge, online: 1, reason: 'connect', stateTime: '2026-03-01 08:00:00', status: 1, isDeleted: 0 })
      .execute();
    const page = expectOk(await ctx.demo.get<PageData>(`${X}/gatewaystate/list`, { gatewayId }));
    expect(page.records).toEqual([expect.objectContaining({ gatewayName: 'GNSS基准站网关', online: 1, reason: 'connect' })]);
    expect((await ctx.demo.post(`${X}/gatewaystate/submit`, { gatewayId })).status).toBe(404);
  });

  it('walks the project tree lazily: projects, group levels, devices', async () => {
    const projects = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list`, { isLoadDev: 1 }));
    expect(projects.map((p) => [p.nodeType, p.id, p.hasChildren])).toEqual([['project', bridge, true]]);
    const top = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list`, { parentId: bridge, isLoadDev: 1 }));
    expect(top.map((n) => [n.nodeType, n.title, n.hasChildren])).toEqual([['group', '主桥', true], ['group', '引桥', true]]);
    const main = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list`, { parentId: demoId('group:main'), isLoadDev: 1 }));
    expect(main.map((n) => n.title)).toEqual(['1#塔', '2#塔', '跨中']);
    const midspan = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list`, { parentId: demoId('group:midspan'), isLoadDev: 1 }));
    expectEvery(midspan, (n) => n.nodeType === 'device');
    expect(midspan.map((n) => n.code).sort()).toEqual(['QJ-CRACK-01', 'QJ-CRACK-02', 'QJ-GNSS-01', 'QJ-HLS-01', 'QJ-TH-01']);
    // level 1 stops the groups at the first level; without isLoadDev no devices come.
    const shallow = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list`, { projectId: bridge, level: 1 }));
    expect(shallow.map((n) => [n.title, n.hasChildren])).toEqual([['主桥', false], ['引桥', false]]);
    expect(expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list`, { parentId: demoId('group:main'), level: 1, isLoadDev: 1 }))).toEqual([]);
  });

  it('keeps device groups: tree, levels, save and remove', async () => {
    const tree = expectOk(await postParams<Node[]>(ctx.demo, `${X}/device/getDeviceGroup`, { projectId: bridge }));
    expect(tree.map((g) => g.title)).toEqual(['主桥', '引桥']);
    const below = expectOk(await ctx.demo.post<Node[]>(`${X}/device/getDeviceGroup`, { projectId: bridge, parentId: demoId('group:main') }));
    expect(below.map((g) => g.title)).toEqual(['1#塔', '2#塔', '跨中']);
    expect(expectOk(await postParams(ctx.demo, `${X}/device/getDeviceGroupLevel`, { projectId: bridge }))).toEqual([{ level: 1, count: 2 }, { level: 2, count: 3 }]);

    const added = expectOk(await ctx.demo.post<Row>(`${X}/device/updateDeviceGroup`, { projectId: bridge, parentId: demoId('group:tower1'), name: '上横梁' }));
    expect(added.level).toBe(3);
    const renamed = expectOk(await ctx.demo.post<Row>(`${X}/device/updateDeviceGroup`, { id: added.id, name: '上横梁测区' }));
    expect(renamed.name).toBe('上横梁测区');
    expectRefused(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { projectId: bridge, parentId: demoId('group:nothing'), name: '孤儿' }), '上级分组不存在');
    expectRefused(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: demoId('group:midspan'), isDeleted: 1 }), '分组下还有设备');
    expectRefused(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: demoId('group:main'), isDeleted: 1 }), '请先删除子节点');
    expect(expectOk(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: added.id, isDeleted: 1 }))).toBe(true);
    expect(expectOk(await postParams(ctx.demo, `${X}/device/getDeviceGroupLevel`, { projectId: bridge }))).toEqual([{ level: 1, count: 2 }, { level: 2, count: 3 }]);
  });

  it('saves devices with checked references, one or a batch (all or nothing)', async () => {
    const saved = expectOk(await ctx.demo.post<Row>(`${X}/device/save`, { code: 'QJ-STRAIN-01', name: '应变计', modelId: demoId('m:VG-CRACK-1'), projectId: bridge, groupId: demoId('group:midspan'), initialValues: '{"crack": 0.1}' }));
    expect(saved.deviceTypeId).toBe(demoId('dt:crack_meter'));
    expectRefused(await ctx.demo.post(`${X}/device/save`, { code: 'X-1', name: '坏初始值', initialValues: '[1,2]' }), '初始值应为 JSON 对象');
    expectRefused(await ctx.demo.post(`${X}/device/save`, { code: 'X-2', name: '分组错项目', groupId: demoId('group:midspan') }), '设备分组不属于该项目');
    expectRefused(await ctx.demo.post(`${X}/device/save`, { code: 'X-3', name: '别人的型号', modelId: REFERENCE_IDS.model }), '设备型号不存在');
    expectRefused(await ctx.demo.post(`${X}/device/save`, { code: 'BENCH-TILT-01', name: '编号全平台唯一' }), '设备编号已存在');

    // Counted before the batch: a list's count is cached until a write to its table commits (one transaction here).
    const batchCount = async () => expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { code_likeright: 'QJ-B-0' })).total;
    expect(await batchCount()).toBe(0);
    const batch = expectOk(await ctx.demo.post<Row[]>(`${X}/device/saveBatch`, [
      { code: 'QJ-B-01', name: '批量一', projectId: bridge, modelId: demoId('m:VG-TILT-2') },
      { code: 'QJ-B-02', name: '批量二', projectId: bridge, modelId: demoId('m:VG-TILT-2'), gatewayId },
    ]));
    expect(batch.map((d) => d.code)).toEqual(['QJ-B-01', 'QJ-B-02']);
    const bad = await ctx.demo.post(`${X}/device/saveBatch`, [
      { code: 'QJ-B-03', name: '好的' },
      { code: 'QJ-B-04', name: '坏的', projectId: demoId('project:nothing') },
    ]);
    expectRefused(bad, '第2台设备: 项目不存在或无权操作');
    expectRefused(await ctx.demo.post(`${X}/device/saveBatch`, [{ code: 'QJ-B-05', name: 'a' }, { code: 'QJ-B-05', name: 'b' }]), '设备编号重复');
    expectRefused(await ctx.demo.post(`${X}/device/saveBatch`, [{ code: 'QJ-B-01', name: '已存在' }]), '设备编号已存在: QJ-B-01');
    expect(await batchCount()).toBe(2);
    // The same query with other values is counted on its own.
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { code_likeright: 'QJ-STRAIN-' })).total).toBe(1);

    expect(expectOk(await ctx.demo.get(`${X}/device/countModelCode`, { modelId: demoId('m:VG-TILT-2') }))).toBe(4);
    expect(expectOk(await ctx.demo.get(`${X}/device/countModelCode`, { modelCode: 'VG-HLS-1' }))).toBe(2);
    expect(expectOk(await ctx.demo.get(`${X}/devicepoint/countModelCode`, { modelCode: 'VG-TILT-2' }))).toBe(4);
  });

  it('changes settings of many devices at once, checked like a save', async () => {
    const ids = [demoId('device:QJ-RAIN-01'), demoId('device:QJ-TH-01')];
    expect(expectOk(await postParams(ctx.demo, `${X}/device/setting`, { ids: ids.join(','), samplingInterval: '300', groupId: demoId('group:approach') }))).toBe(2);
    const rows = expectOk(await postParams<Row[]>(ctx.demo, `${X}/device/selectDeviceByIds`, { ids: ids.join(',') }));
    expect(rows.map((r) => [r.samplingInterval, r.groupName])).toEqual([[300, '引桥'], [300, '引桥']]);
    expectRefused(await postParams(ctx.demo, `${X}/device/setting`, { ids: ids.join(','), samplingInterval: '0' }), '采样间隔至少1秒');
    expectRefused(await postParams(ctx.demo, `${X}/device/setting`, { ids: ids.join(',') }), '请选择要设置的内容');
    expectRefused(await postParams(ctx.demo, `${X}/device/setting`, { ids: REFERENCE_IDS.device, samplingInterval: '60' }), '数据不存在或无权操作');
  });

  it('answers device trees, selections, points and protocol checks', async () => {
    const tree = expectOk(await ctx.demo.get<Node[]>(`${X}/device/treeList`, { projectId: bridge }));
    expect(tree[0].children?.length).toBeGreaterThanOrEqual(9);
    const byTenant = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list-tenantid`));
    expect(byTenant.map((t) => t.id)).toEqual([DEMO]);
    const tenantProjects = expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list-tenantid`, { parentId: DEMO }));
    expect(tenantProjects.map((p) => p.id)).toEqual([bridge]);
    expect(expectOk(await ctx.demo.get<Node[]>(`${X}/device/lazy-list-tenantid`, { parentId: '000000' }))).toEqual([]);
    const all = expectOk(await ctx.admin.get<Node[]>(`${X}/device/lazy-list-tenantid`));
    expect(all.map((t) => t.id)).toEqual(expect.arrayContaining(['000000', DEMO]));
    const devicesOfProject = expectOk(await ctx.admin.get<Node[]>(`${X}/device/lazy-list-tenantid`, { parentId: bridge }));
    expect(devicesOfProject.length).toBeGreaterThanOrEqual(9);

    const selected = expectOk(await ctx.demo.get<Row[]>(`${X}/device/select`, { projectId: bridge, modelId: demoId('m:VG-CRACK-1') }));
    expect(selected.map((d) => d.code).sort()).toEqual(['QJ-CRACK-01', 'QJ-CRACK-02', 'QJ-STRAIN-01']);
    expect(selected[0].modelName).toBe('振弦式裂缝计');
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/device/selectList`, { code: 'QJ-TH' })).map((d) => d.code)).toEqual(['QJ-TH-01']);

    await ctx.server.app.platform.db.updateTable('wit_device').set({ lastValues: '{"tilt_x": 0.015, "tilt_y": -0.01}', lastSeen: '2026-03-01 08:00:00' }).where('id', '=', demoId('device:QJ-TILT-01')).execute();
    const points = expectOk(await postParams<Row[]>(ctx.demo, `${X}/device/getDevicePoint`, { deviceId: demoId('device:QJ-TILT-01') }));
    expect(points.map((p) => [p.pointKey, p.value, p.initialValue, p.factorsItemName])).toEqual([['tilt_x', 0.015, 0.012, '原始值'], ['tilt_y', -0.01, -0.008, '原始值']]);
    expectRefused(await postParams(ctx.demo, `${X}/device/getDevicePoint`, { deviceId: REFERENCE_IDS.device }), '设备不存在');

    const check = expectOk(await postParams<{ devices: Array<Row & { missing: string[]; extra: string[] }>; consistent: boolean }>(ctx.demo, `${X}/device/checkProtocolProint`, { protocolId: demoId('p:modbus') }));
    // The Modbus protocol is linked to VG-TILT-2 through a model agreement; its `interval` variable is no protocol point.
    expect(check.devices.map((d) => d.code).sort()).toEqual(['QJ-B-01', 'QJ-B-02', 'QJ-TILT-01', 'QJ-TILT-02']);
    const json = expectOk(await postParams<{ devices: Array<Row & { missing: string[]; extra: string[] }> }>(ctx.demo, `${X}/device/checkProtocolProint`, { protocolId: demoId('p:json') }));
    const tilt = json.devices.find((d) => d.code === 'QJ-TILT-01');
    expect(tilt?.missing).toContain('battery');
    expect(tilt?.extra).toEqual([]);
    expect(check.consistent).toBe(false);
  });

  it('keeps device points and their attributes, and the device view with names', async () => {
    const device = demoId('device:QJ-HLS-01');
    const point = await submit(ctx.demo, 'devicepoint', { deviceId: device, pointKey: 'temperature', name: '温度', unit: '℃', precision: 1, factorsItemId: demoId('fi:temperature_raw') });
    expectRefused(await ctx.demo.post(`${X}/devicepoint/submit`, { deviceId: device, pointKey: 'temperature', name: '重复' }), '该设备的点位标识已存在');
    expectRefused(await ctx.demo.post(`${X}/devicepoint/submit`, { deviceId: device, pointKey: 'p2', name: '精度太大', precision: 9 }), '精度应在 0 到 6 之间');
    const selected = expectOk(await ctx.demo.get<Row[]>(`${X}/devicepoint/select`, { deviceId: device }));
    expect(selected.map((p) => [p.pointKey, p.deviceCode]).sort()).toEqual([['settlement', 'QJ-HLS-01'], ['temperature', 'QJ-HLS-01']]);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/devicepoint/selectList`, { deviceId: device, pointKey: 'temp' })).length).toBe(1);

    const att = await submit(ctx.demo, 'devicepointatt', { pointId: point.id, attrKey: 'offset', attrValue: '0.3', unit: '℃' });
    const atts = expectOk(await ctx.demo.get<PageData>(`${X}/devicepointatt/list`, { pointId: point.id }));
    expect(atts.records).toEqual([expect.objectContaining({ id: att.id, pointName: '温度' })]);
    expectRefused(await ctx.demo.post(`${X}/devicepointatt/submit`, { pointId: REFERENCE_IDS.devicePoint, attrKey: 'x', attrValue: '1' }), '设备点位不存在');

    const view = expectOk(await ctx.demo.get<PageData>(`${X}/viewdevice/page`, { projectId: bridge, code: 'QJ-TILT-01' }));
    expect(view.records).toEqual([expect.objectContaining({ projectName: '钱塘江大桥健康监测', modelName: '双轴倾角计', deviceTypeName: '倾角计', gatewayName: 'GNSS基准站网关', groupName: '1#塔' })]);
    expect((await ctx.demo.post(`${X}/viewdevice/submit`, { code: 'V', name: 'v' })).status).toBe(404);
    expectEvery(expectOk(await ctx.admin.get<PageData>(`${X}/viewdevice/page`, { tenantId_equal: '000000' })).records, (r) => r.tenantId === '000000');
  });

  it('moves group subtrees with their levels and refuses cycles', async () => {
    const tower1 = demoId('group:tower1');
    const deck = expectOk(await ctx.demo.post<Row>(`${X}/device/updateDeviceGroup`, { projectId: bridge, parentId: tower1, name: '塔顶平台' }));
    expect(deck.level).toBe(3);
    expectOk(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: tower1, parentId: demoId('group:midspan') }));
    const levels = expectOk(await postParams<Array<{ level: number; count: number }>>(ctx.demo, `${X}/device/getDeviceGroupLevel`, { projectId: bridge }));
    expect(levels).toEqual([{ level: 1, count: 2 }, { level: 2, count: 2 }, { level: 3, count: 1 }, { level: 4, count: 1 }]);
    expectRefused(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: demoId('group:main'), parentId: deck.id }), '上级分组不能是自身或其下级');
    expectOk(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: tower1, parentId: demoId('group:main') }));
    expectOk(await ctx.demo.post(`${X}/device/updateDeviceGroup`, { id: deck.id, isDeleted: 1 }));
    expect(expectOk(await postParams(ctx.demo, `${X}/device/getDeviceGroupLevel`, { projectId: bridge }))).toEqual([{ level: 1, count: 2 }, { level: 2, count: 3 }]);
  });

  it('keeps a device coherent with its project, and its points go with it', async () => {
    const other = await submit(ctx.demo, 'project', { name: '另一座桥', code: 'BR-2' });
    expectRefused(await ctx.demo.post(`${X}/device/submit`, { id: demoId('device:QJ-TILT-01'), projectId: other.id }), '设备分组不属于该项目');
    const dev = await submit(ctx.demo, 'device', { code: 'BR2-01', name: '临时设备', projectId: other.id });
    await submit(ctx.demo, 'devicepoint', { deviceId: dev.id, pointKey: 'v', name: '值' });
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/devicepoint/list`, { deviceId: dev.id })).total).toBe(1);
    expectOk(await ctx.demo.request('POST', `${X}/device/remove`, { query: { ids: dev.id } }) as never);
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/devicepoint/list`, { deviceId: dev.id })).total).toBe(0);
  });

  it('refuses to remove catalogue rows and gateways still in use, and gateway cycles', async () => {
    expectRefused(await ctx.demo.request('POST', `${X}/devicetype/remove`, { query: { ids: demoId('dt:inclinometer') } }) as never, '设备类型已被使用');
    expectRefused(await ctx.demo.request('POST', `${X}/devicemodel/remove`, { query: { ids: demoId('m:VG-TILT-2') } }) as never, '设备型号已被使用');
    const unused = await submit(ctx.demo, 'devicemodel', { name: '闲置型号', code: 'IDLE-1' });
    expectOk(await ctx.demo.request('POST', `${X}/devicemodel/remove`, { query: { ids: unused.id } }) as never);
    const child = expectOk(await ctx.demo.post<Row>(`${X}/gateway/save`, { code: 'QJ-CJQ-02', name: '子采集仪', parentId: gatewayId, projectId: bridge }));
    expectRefused(await ctx.demo.post(`${X}/gateway/submit`, { id: gatewayId, parentId: child.id }), '上级网关不能是自身或其下级');
    expectRefused(await ctx.demo.post(`${X}/gateway/submit`, { id: gatewayId, parentId: gatewayId }), '上级网关不能是自身或其下级');
  });

  it('refuses to remove a device that is bound to a monitor point', async () => {
    expectRefused(await ctx.demo.request('POST', `${X}/device/remove`, { query: { ids: demoId('device:QJ-TILT-01') } }) as never, '设备已绑定监测点');
  });

  it('renames a device or gateway only once the MQTT identity bound to its code has been renamed', async () => {
    const deviceId = demoId('device:QJ-RAIN-01');
    expectRefused(await ctx.demo.post(`${X}/device/submit`, { id: deviceId, code: 'QJ-RAIN-09' }), '设备编号 QJ-RAIN-01 绑定了MQTT用户 QJ-RAIN-01,请先将该MQTT用户的客户端编号改为新编号');
    expectRefused(await ctx.demo.post(`${X}/gateway/submit`, { id: gatewayId, code: 'QJ-GW-09' }), '网关编号 QJ-GW-01 绑定了MQTT用户');
    const identity = await ctx.server.app.platform.db.selectFrom('wit_mqtt_user').select('id').where('clientId', '=', 'QJ-RAIN-01').executeTakeFirstOrThrow();
    expectOk(await ctx.demo.post(`${X}/mqttuser/submit`, { id: identity.id, clientId: 'QJ-RAIN-09' }));
    expect(expectOk(await ctx.demo.post<Row>(`${X}/device/submit`, { id: deviceId, code: 'QJ-RAIN-09' })).code).toBe('QJ-RAIN-09');
    // Other fields of a bound device change freely.
    expectOk(await ctx.demo.post(`${X}/gateway/submit`, { id: gatewayId, installPosition: '北岸机房' }));
  });

  // Last: it adds a thousand devices to the suite's tenant.
  it('saves the largest batch the route takes, a thousand devices, in one go', async () => {
    const codes = Array.from({ length: 1000 }, (_, i) => `BULK-${String(i).padStart(4, '0')}`);
    const saved = expectOk(await ctx.demo.post<Row[]>(`${X}/device/saveBatch`, codes.map((code) => ({ code, name: `批量${code}` }))));
    expect(saved.map((d) => d.code)).toEqual(codes);
    // Each stored once, in the batch's order.
    const stored = await ctx.server.app.platform.db.selectFrom('wit_device').select('code').where('code', 'like', 'BULK-%').orderBy('code').execute();
    expect(stored.map((d) => d.code)).toEqual(codes);
  });
});
