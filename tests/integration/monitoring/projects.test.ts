import { expect, it } from 'vitest';
import { nextId } from '../../../server/ids';
// Helpers below name their tables at run time (introspection, lists): they use the untyped view.
import { loose } from '../../../server/db/tables';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { seedId } from '../../../server/db/seed/ids';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, staffUser, submit, X } from './support';
import { expectEvery } from '../../support/lists';

onEveryStore('projects, customers, categories and user projects', { signIn: ['admin', 'demo'] }, (ctx) => {
  const bridge = demoId('project:bridge');

  it('lists the seeded bridge with its names, in every list variant', async () => {
    const page = expectOk(await ctx.demo.get<PageData>(`${X}/project/page`, { name: '钱塘江' }));
    expect(page.total).toBe(1);
    expect(page.records[0]).toMatchObject({ id: bridge, code: 'QJ-BRIDGE', structureTypeName: '桥梁', categoryName: '斜拉桥', customerName: '省交通投资集团', deviceCount: 9 });
    for (const variant of ['nopageList', 'SelectList', 'select']) {
      const rows = expectOk(await ctx.demo.get<Row[]>(`${X}/project/${variant}`));
      expect(rows.map((r) => r.id), variant).toEqual([bridge]);
    }
    const types = expectOk(await postParams<Row[]>(ctx.demo, `${X}/project/selectDeviceTypeByPid`, { projectId: bridge }));
    expect(types.map((t) => t.code).sort()).toEqual(['crack_meter', 'gnss', 'inclinometer', 'rain_gauge', 'settlement_gauge', 'thermo_hygrometer']);
    expect(types.find((t) => t.code === 'inclinometer')?.deviceCount).toBe(2);
  });

  it('counts what removing projects takes out of sight with them (project/belongings)', async () => {
    const counts = expectOk(await ctx.demo.get<Row>(`${X}/project/belongings`, { ids: bridge }));
    expect(counts).toMatchObject({ projects: 1, devices: 9 });
    for (const kind of ['devicePoints', 'monitorPoints', 'gateways']) expect(Number(counts[kind]), kind).toBeGreaterThan(0);
    expectRefused(await ctx.demo.get(`${X}/project/belongings`, { ids: demoId('nothing') }), '数据不存在或无权操作');
    expectRefused(await ctx.demo.get(`${X}/project/belongings`), '缺少必要的请求参数: ids');
  });

  it('validates projects: required name, coordinates, dates, references of the own tenant', async () => {
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { code: 'NO-NAME' }), '请输入项目名称');
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { name: '无编号' }), '请输入项目编号');
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { name: '坐标错误', code: 'P-LNG', longitude: 200 }), '经度应在 -180 到 180 之间');
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { name: '日期颠倒', code: 'P-DATE', startDate: '2026-05-01', endDate: '2026-01-01' }), '结束日期不能早于开始日期');
    const foreignCategory = await submit(ctx.admin, 'projectcategory', { name: '平台分类' });
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { name: '别人的分类', code: 'P-CAT', categoryId: foreignCategory.id }), '项目分类不存在');
    expectRefused(await ctx.demo.post(`${X}/project/submit`, { name: '重复编号', code: 'QJ-BRIDGE' }), '项目编号已存在');
  });

  it('keeps categories as a tree and customers with their projects', async () => {
    const tree = expectOk(await ctx.demo.get<Array<Row & { children?: Row[] }>>(`${X}/projectcategory/tree`));
    const bridgeNode = tree.find((n) => n.title === '桥梁');
    expect(bridgeNode?.children?.map((c) => c.title)).toEqual(['斜拉桥']);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/projectcategory/selectlist`)).length).toBe(3);
    expectRefused(await ctx.demo.request('POST', `${X}/projectcategory/remove`, { query: { ids: demoId('category:bridge') } }) as never, '请先删除子节点');

    const customer = await submit(ctx.demo, 'projectcustomer', { name: '市城投集团', linkman: '赵工' });
    const second = await submit(ctx.demo, 'project', { name: '城东立交', code: 'CD-01', structureType: 1 });
    expectOk(await postParams(ctx.demo, `${X}/projectcustomer/setProject`, { customerId: customer.id, projectIds: `${bridge},${second.id}` }));
    let tree2 = expectOk(await ctx.demo.get<Array<Row & { children?: Row[] }>>(`${X}/projectcustomer/httpTreeList`));
    expect(tree2.find((n) => n.id === customer.id)?.children?.map((c) => c.id).sort()).toEqual([bridge, second.id].sort());
    expectOk(await postParams(ctx.demo, `${X}/projectcustomer/setProject`, { customerId: customer.id, projectIds: second.id }));
    tree2 = expectOk(await ctx.demo.get<Array<Row & { children?: Row[] }>>(`${X}/projectcustomer/httpTreeList`));
    expect(tree2.find((n) => n.id === customer.id)?.children?.map((c) => c.id)).toEqual([second.id]);
    // The platform administrator may look at another tenant's customers; a tenant only at its own.
    const seen = expectOk(await ctx.admin.get<Row[]>(`${X}/projectcustomer/httpTreeList`, { tenantId: DEMO }));
    expect(seen.map((n) => n.id)).toContain(customer.id);
    expect(expectOk(await ctx.demo.get<Row[]>(`${X}/projectcustomer/httpTreeList`, { tenantId: '000000' })).map((n) => n.id)).toContain(customer.id);
    expectRefused(await postParams(ctx.demo, `${X}/projectcustomer/setProject`, { customerId: customer.id, projectIds: demoId('nothing') }), '项目不存在或无权操作');
  });

  it('limits a user assigned to projects to those projects and what belongs to them', async () => {
    const other = await submit(ctx.demo, 'project', { name: '北岸边坡', code: 'SLOPE-B', structureType: 3 });
    const slopeDevice = await submit(ctx.demo, 'device', { code: 'SLOPE-B-01', name: '边坡倾角计', projectId: other.id });
    // A device of no project: an administrator's only.
    const unplaced = await submit(ctx.demo, 'device', { code: 'UNPLACED-01', name: '未分配设备' });
    const staff = await staffUser(ctx.server, DEMO, 'bridge_watcher');

    // Without assignments a user sees every project of the tenant.
    expect(expectOk(await staff.client.get<PageData>(`${X}/project/list`)).total).toBeGreaterThanOrEqual(2);
    // Counted now, the lists' totals must not outlive the assignment below (a count is cached a while).
    const total = async (resource: string) => expectOk(await staff.client.get<PageData>(`${X}/${resource}/list`, { size: 100 })).total;
    expect(await total('device')).toBe(10);
    expect(await total('devicepoint')).toBe(16); // the other project's device has none

    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: bridge }));
    const assigned = expectOk(await ctx.demo.get<{ projectIds: string[] }>(`${X}/userproject/selectUserProject`, { userId: staff.userId }));
    expect(assigned.projectIds).toEqual([bridge]);

    const projects = expectOk(await staff.client.get<PageData>(`${X}/project/list`));
    expect(projects.records.map((p) => p.id)).toEqual([bridge]);
    const devices = expectOk(await staff.client.get<PageData>(`${X}/device/list`, { size: 100 }));
    expect(devices.total).toBe(9);
    expectEvery(devices.records, (d) => d.projectId === bridge);
    expect(expectOk(await staff.client.get(`${X}/device/detail`, { id: slopeDevice.id }))).toBeNull();
    expect(expectOk(await staff.client.get(`${X}/device/detail`, { id: unplaced.id }))).toBeNull();
    const points = expectOk(await staff.client.get<PageData>(`${X}/devicepoint/list`, { size: 100 }));
    expect(points.total).toBe(16);
    // A device moved to the other project takes its points out of sight at once (the points' scope reads the devices).
    const moved = demoId('device:QJ-CRACK-02');
    const { groupId } = expectOk(await ctx.demo.get<Row>(`${X}/device/detail`, { id: moved }));
    expectOk(await ctx.demo.post(`${X}/device/submit`, { id: moved, projectId: other.id, groupId: null }));
    expect([await total('device'), await total('devicepoint')]).toEqual([8, 14]);
    expectOk(await ctx.demo.post(`${X}/device/submit`, { id: moved, projectId: bridge, groupId }));
    expect([await total('device'), await total('devicepoint')]).toEqual([9, 16]);
    expectEvery(expectOk(await staff.client.get<PageData>(`${X}/monitorpoint/list`, { size: 100 })).records, (p) => p.projectId === bridge);
    expect(expectOk(await staff.client.get<PageData>(`${X}/gateway/list`)).total).toBe(1);
    // Nor can the user write into the other project, or widen the own assignment.
    expectRefused(await staff.client.post(`${X}/device/submit`, { code: 'SNEAK-01', name: '越权设备', projectId: other.id }), '项目不存在或无权操作');
    expectRefused(await staff.client.post(`${X}/device/submit`, { id: slopeDevice.id, name: '改名' }), '数据不存在或无权操作');
    expectRefused(await postParams(staff.client, `${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: '' }), '无权分配项目', 403);

    // The tenant administrator still sees everything, even when assigned to a project itself.
    const demoAdmin = seedId(`user:${DEMO}:admin`);
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: demoAdmin, projectIds: bridge }));
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { projectId: other.id })).total).toBe(1);
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: demoAdmin, projectIds: '' }));

    // Emptying the assignment gives the user the whole tenant again.
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: '' }));
    expect(expectOk(await staff.client.get<PageData>(`${X}/device/detail`, { id: slopeDevice.id }))).not.toBeNull();
    // Rows of no project stay the administrators' (docs/data-model.md).
    expect(expectOk(await staff.client.get<PageData>(`${X}/device/detail`, { id: unplaced.id }))).toBeNull();
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/device/detail`, { id: unplaced.id }))).not.toBeNull();

    // userproject rows name users and projects of the own tenant only.
    expectRefused(await ctx.demo.post(`${X}/userproject/submit`, { userId: '383477459231075293', projectId: bridge }), '用户不存在');
    const link = await submit(ctx.demo, 'userproject', { userId: staff.userId, projectId: other.id });
    const listed = expectOk(await ctx.demo.get<PageData>(`${X}/userproject/list`, { userId: staff.userId }));
    expect(listed.records).toEqual([expect.objectContaining({ id: link.id, projectName: '北岸边坡', account: 'bridge_watcher' })]);
  });

  it('lets a user limited to projects set a customer\'s projects only among those it sees', async () => {
    const customer = await submit(ctx.demo, 'projectcustomer', { name: '限定客户' });
    const hidden = await submit(ctx.demo, 'project', { name: '看不见的项目', code: 'HIDDEN-C', structureType: 1 });
    const mine = await submit(ctx.demo, 'project', { name: '自己的项目', code: 'MINE-C', structureType: 1 });
    expectOk(await postParams(ctx.demo, `${X}/projectcustomer/setProject`, { customerId: customer.id, projectIds: `${hidden.id},${mine.id}` }));
    const keeper = await staffUser(ctx.server, DEMO, 'customer_keeper');
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: keeper.userId, projectIds: mine.id }));
    // "Exactly these projects" from a user who sees only its own: the project it cannot see keeps its customer.
    expectOk(await postParams(keeper.client, `${X}/projectcustomer/setProject`, { customerId: customer.id, projectIds: '' }));
    expect(expectOk(await ctx.demo.get<Row>(`${X}/project/detail`, { id: hidden.id })).customerId).toBe(customer.id);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/project/detail`, { id: mine.id })).customerId).toBeNull();
    expectRefused(await postParams(keeper.client, `${X}/projectcustomer/setProject`, { customerId: customer.id, projectIds: hidden.id }), '项目不存在或无权操作');
  });

  it('moves a removed project to the recycle bin, recovers it, and purges it with what it owns', async () => {
    const project = await submit(ctx.demo, 'project', { name: '待删除基坑', code: 'PIT-1', structureType: 4 });
    const gw = await submit(ctx.demo, 'gateway', { code: 'PIT-GW', name: '基坑网关', projectId: project.id });
    const dev = await submit(ctx.demo, 'device', { code: 'PIT-01', name: '基坑测斜仪', projectId: project.id, gatewayId: gw.id });
    await submit(ctx.demo, 'devicepoint', { deviceId: dev.id, pointKey: 'depth_1', name: '1m 位移', unit: 'mm' });
    const mp = await submit(ctx.demo, 'monitorpoint', { projectId: project.id, name: '测斜孔1', code: 'CX-1' });
    await submit(ctx.demo, 'pointrelationdevice', { monitorPointId: mp.id, deviceId: dev.id, pointKey: 'depth_1' });
    await submit(ctx.demo, 'mqttuser', { username: 'pit-01', password: 'Device#Secret01', clientType: 1, clientId: 'PIT-01' });

    // Counted before the removal: the count must not outlive it.
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { code: 'PIT-01' })).total).toBe(1);
    expectOk(await ctx.demo.request('POST', `${X}/project/remove`, { query: { ids: project.id } }) as never);
    expect(expectOk(await ctx.demo.get(`${X}/project/detail`, { id: project.id }))).toBeNull();
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { code: 'PIT-01' })).total).toBe(0);
    const bin = expectOk(await ctx.demo.get<PageData>(`${X}/project/recycle`));
    expect(bin.records.map((r) => r.id)).toEqual([project.id]);
    expect(expectOk(await ctx.admin.get<PageData>(`${X}/project/recycle`)).records.map((r) => r.id)).toContain(project.id);

    // A user limited to the bridge sees nothing of this project, in the bin either.
    const watcher = await staffUser(ctx.server, DEMO, 'bin_watcher');
    expectOk(await postParams(ctx.demo, `${X}/userproject/setUserProject`, { userId: watcher.userId, projectIds: bridge }));
    expect(expectOk(await watcher.client.get<PageData>(`${X}/project/recycle`)).total).toBe(0);
    expectRefused(await watcher.client.get(`${X}/project/recovery`, { projectId: project.id }), '回收站中没有该项目');
    expectRefused(await ctx.demo.get(`${X}/project/recovery`, { projectId: bridge }), '回收站中没有该项目');
    expectOk(await ctx.demo.get(`${X}/project/recovery`, { projectId: project.id }));
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { code: 'PIT-01' })).total).toBe(1);
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/project/recycle`)).total).toBe(0);

    expectRefused(await ctx.demo.get(`${X}/project/deleteProjectById`, { id: project.id }), '回收站中没有该项目');
    expectOk(await ctx.demo.request('POST', `${X}/project/remove`, { query: { ids: project.id } }) as never);
    expectOk(await ctx.demo.get(`${X}/project/deleteProjectById`, { id: project.id }));
    const db = ctx.server.app.platform.db;
    const left = async (table: string, column: string, value: string) => (await loose(db).selectFrom(table).select('id').where(column, '=', value).execute()).length;
    expect(await left('wit_project', 'id', project.id)).toBe(0);
    expect(await left('wit_device', 'id', dev.id)).toBe(0);
    expect(await left('wit_gateway', 'id', gw.id)).toBe(0);
    expect(await left('wit_device_point', 'deviceId', dev.id)).toBe(0);
    expect(await left('wit_monitor_point', 'id', mp.id)).toBe(0);
    expect(await left('wit_point_relation_device', 'deviceId', dev.id)).toBe(0);
    expect(await left('wit_mqtt_user', 'clientId', 'PIT-01')).toBe(0);
    expect(await left('wit_device', 'id', demoId('device:QJ-TILT-01'))).toBe(1);
  });

  it('lets only the platform administrator move projects to another tenant', async () => {
    const project = await submit(ctx.demo, 'project', { name: '迁移隧道', code: 'TUN-1', structureType: 2, categoryId: demoId('category:slope') });
    const dev = await submit(ctx.demo, 'device', { code: 'TUN-01', name: '隧道收敛计', projectId: project.id });
    expectRefused(await postParams(ctx.demo, `${X}/project/adjustTenant`, { ids: project.id, tenantId: '000000' }), '请求被拒绝', 403);
    expectRefused(await postParams(ctx.admin, `${X}/project/adjustTenant`, { ids: project.id, tenantId: '999999' }), '租户信息错误');
    await submit(ctx.admin, 'project', { name: '同编号', code: 'QJ-BRIDGE' });
    expectRefused(await postParams(ctx.admin, `${X}/project/adjustTenant`, { ids: demoId('project:bridge'), tenantId: '000000' }), '目标租户已存在编号为 QJ-BRIDGE 的项目');
    expect(expectOk(await ctx.demo.get<Row>(`${X}/project/detail`, { id: demoId('project:bridge') })).tenantId).toBe(DEMO);
    expectOk(await postParams(ctx.admin, `${X}/project/adjustTenant`, { ids: project.id, tenantId: '000000' }));
    expect(expectOk(await ctx.demo.get(`${X}/project/detail`, { id: project.id }))).toBeNull();
    expect(expectOk(await ctx.demo.get(`${X}/device/detail`, { id: dev.id }))).toBeNull();
    const moved = expectOk(await ctx.admin.get<Row>(`${X}/device/detail`, { id: dev.id }));
    expect(moved.tenantId).toBe('000000');
    expect(expectOk(await ctx.admin.get<Row>(`${X}/project/detail`, { id: project.id }))).toMatchObject({ tenantId: '000000', categoryId: null });
  });

  it('shows a user whose data scope limits projects only those projects in the recycle bin too', async () => {
    const { db, events } = ctx.server.app.platform;
    const own = await staffUser(ctx.server, DEMO, 'own_projects');
    const scopeId = nextId();
    const base = { createTime: '2026-01-01 00:00:00', status: 1, isDeleted: 0 };
    await db.insertInto('blade_scope_data').values({ ...base, id: scopeId, menuId: seedId('menu:project_list'), resourceCode: 'wit-xinde/project', scopeName: '本人创建', scopeType: 2 }).execute();
    await db.insertInto('blade_role_scope').values({ id: nextId(), scopeCategory: 1, scopeId, roleId: own.roleId }).execute();
    events.emit('changed', 'blade_role_scope');
    const theirs = await submit(ctx.demo, 'project', { name: '别人建的项目', code: 'NOT-OWN', structureType: 1 });
    const mine = await submit(own.client, 'project', { name: '自己建的项目', code: 'OWN-1', structureType: 1 });
    expect(expectOk(await own.client.get<PageData>(`${X}/project/list`)).records.map((r) => r.id)).toEqual([mine.id]);
    for (const id of [theirs.id, mine.id]) expectOk(await ctx.demo.request('POST', `${X}/project/remove`, { query: { ids: id } }) as never);

    expect(expectOk(await own.client.get<PageData>(`${X}/project/recycle`)).records.map((r) => r.id)).toEqual([mine.id]);
    expectRefused(await own.client.get(`${X}/project/recovery`, { projectId: theirs.id }), '回收站中没有该项目');
    expectRefused(await own.client.get(`${X}/project/deleteProjectById`, { id: theirs.id }), '回收站中没有该项目');
    expectOk(await own.client.get(`${X}/project/recovery`, { projectId: mine.id }));
    expect(expectOk(await ctx.demo.get<PageData>(`${X}/project/recycle`)).records.map((r) => r.id)).toContain(theirs.id);
  });
});
