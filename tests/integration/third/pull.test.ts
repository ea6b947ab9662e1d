import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PULL_STATE } from '../../../resources/iot/third';
import type { StoredReading } from '../../../server/ingest/types';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import { until } from '../../support/wait';
import { deviceOf, type FakeDevice, connectAs } from '../data/support';
import { staffUser, X } from '../monitoring/support';
import { connection, expectNoSecrets, fetchOk, type Pair, postOk, REMOTE_BRIDGE, remoteDevice, startPair } from './support';
import { expectEvery } from '../../support/lists';

/**
 * A remote platform bound end to end over real HTTP: its projects listed live, a local project created and bound,
 * its devices and monitor points copied (again: nothing changes), readings a device published to it over real MQTT
 * pulled into our series, latest values and alarms, and pulled again by the periodic puller.
 */
describe.each(await storeKinds())('third-party platform on %s', (store) => {
  let pair: Pair;
  let param: Row;
  let project: Row;
  let binding: Row;
  let crack: FakeDevice;
  const minute = 60_000;
  const t0 = Math.floor((Date.now() - 30 * minute) / 1000) * 1000;

  beforeAll(async () => {
    pair = await startPair(store);
    crack = await connectAs(pair.remote, 'device', 'QJ-CRACK-01');
  });
  afterAll(async () => {
    await crack?.close();
    await pair?.stop();
  });

  const localDevices = async () => (await fetchOk<PageData>(pair.demo, 'device/list', { projectId: String(project.id), size: 100 })).records;
  const localDevice = async (code: string) => (await localDevices()).find((d) => d.code === code) as Row;
  const series = async (deviceId: string, pointKey = 'crack') =>
    (await fetchOk<PageData>(pair.demo, 'devicelog/list', { deviceId, pointKey, size: 100 })).records.map((r) => [r.ts, r.value, r.raw]).reverse();
  /** The remote's own series of a device (its engineering values: formula and temperature compensation applied). */
  const remoteSeries = async (code: string, pointKey = 'crack') =>
    expectOk(await pair.remoteAdmin.get<PageData>(`${X}/devicelog/list`, { deviceId: remoteDevice(code), pointKey, size: 100 })).records.map((r) => [r.ts, r.value, r.raw]).reverse();

  it('stores a connection whose secrets never come back, and lists the remote projects live', async () => {
    const saved = await pair.demo.post<Row>(`${X}/thirdmonitorparam/submit`, connection(pair.remote));
    expectNoSecrets(saved);
    param = expectOk(saved);
    // The trailing slash of the address is dropped.
    expect(param).toMatchObject({ baseUrl: pair.remote.url, thirdTenantId: '100001' });
    const detail = await fetchOk<Row>(pair.demo, 'thirdmonitorparam/detail', { id: String(param.id) });
    expect(detail).toMatchObject({ name: '远程监测平台', platformType: 'bladex', intervalSeconds: 0, enabled: 0, lastPullState: PULL_STATE.never, running: 0 });
    expect(detail).not.toHaveProperty('password');
    expect(detail).not.toHaveProperty('clientSecret');
    await fetchOk(pair.demo, 'thirdmonitorparam/list');

    // An edit that leaves the secrets blank keeps them: the connection still signs in.
    await postOk(pair.demo, 'thirdmonitorparam/submit', { id: param.id, remark: '省平台', password: '', clientSecret: null });
    const projects = await fetchOk<Row[]>(pair.demo, 'thirdmonitorparam/getThirdProject', { thirdParamId: String(param.id) });
    expect(projects.find((p) => p.id === REMOTE_BRIDGE)).toMatchObject({ name: '钱塘江大桥健康监测', code: 'QJ-BRIDGE', structureType: expect.any(Number), bound: 0, projectId: null });
    // Only what the remote sign-in sees: the remote's tenant 100001.
    expectEvery(projects, (p) => p.code !== 'BENCH');
  });

  it('creates a local project for a remote one and binds it (syncProject); refuses a second binding', async () => {
    const synced = await fetchOk<{ project: Row; binding: Row; created: boolean }>(pair.demo, 'projectcustomer/syncProject', { thirdParamId: String(param.id), ptProjectId: REMOTE_BRIDGE });
    expect(synced.created).toBe(true);
    project = synced.project;
    binding = synced.binding;
    // Our own demo tenant has QJ-BRIDGE already: the connection's prefix keeps codes apart.
    expect(project).toMatchObject({ name: '钱塘江大桥健康监测', code: 'R-QJ-BRIDGE', ptProjectId: REMOTE_BRIDGE, structureType: expect.any(Number) });
    expect(project.id).not.toBe(REMOTE_BRIDGE);
    expect(binding).toMatchObject({ thirdParamId: param.id, projectId: project.id, thirdProjectId: REMOTE_BRIDGE, thirdProjectName: '钱塘江大桥健康监测', thirdProjectCode: 'QJ-BRIDGE' });

    const again = await fetchOk<{ project: Row; created: boolean }>(pair.demo, 'projectcustomer/syncProject', { projectId: String(project.id), ptProjectId: REMOTE_BRIDGE, projectName: '钱塘江大桥(省平台)' });
    expect(again).toMatchObject({ created: false, project: { id: project.id, name: '钱塘江大桥(省平台)', code: 'R-QJ-BRIDGE' } });

    const projects = await fetchOk<Row[]>(pair.demo, 'thirdmonitorparam/getThirdProject', { thirdParamId: String(param.id) });
    expect(projects.find((p) => p.id === REMOTE_BRIDGE)).toMatchObject({ bound: 1, projectId: project.id, projectName: '钱塘江大桥(省平台)', bindingId: binding.id });
    const tree = await fetchOk<Row[]>(pair.demo, 'thirdmonitorparam/treeList');
    const node = tree.find((n) => n.id === param.id) as Row & { children: Row[] };
    expect(node).toMatchObject({ nodeType: 'param', title: '远程监测平台', hasChildren: true });
    expect(node.children).toEqual([expect.objectContaining({ id: binding.id, nodeType: 'project', projectId: project.id, thirdProjectId: REMOTE_BRIDGE, title: '钱塘江大桥(省平台)' })]);
    const bindings = await fetchOk<PageData>(pair.demo, 'thirdmonitorproject/list');
    expect(bindings.records).toEqual([expect.objectContaining({ id: binding.id, thirdParamName: '远程监测平台', projectName: '钱塘江大桥(省平台)', projectCode: 'R-QJ-BRIDGE', deviceCount: 0 })]);

    const other = expectOk(await pair.demo.post<Row>(`${X}/project/submit`, { name: '另一座桥', code: 'OTHER-BRIDGE' }));
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: param.id, projectId: other.id, thirdProjectId: REMOTE_BRIDGE }), '第三方项目已绑定本地项目「钱塘江大桥(省平台)」');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: param.id, projectId: project.id, thirdProjectId: '42' }), '该项目已绑定第三方项目');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: param.id, projectId: other.id, thirdProjectId: '42' }), '第三方项目不存在: 42');
    // Binding the same pair again is fine (it refreshes the remote name).
    expect(await postOk<Row>(pair.demo, 'thirdmonitorparam/bingProject', { thirdParamId: param.id, projectId: project.id, thirdProjectId: REMOTE_BRIDGE })).toMatchObject({ id: binding.id });
  });

  it('copies the remote devices with their points, and a second run changes nothing', async () => {
    const first = await fetchOk<Row>(pair.demo, 'devicecustomer/syncDeviceInfo', { projectId: String(project.id), ptProjectId: REMOTE_BRIDGE });
    expect(first).toEqual({ total: 9, created: 9, updated: 0, unchanged: 0, points: { total: 16, created: 16, updated: 0, unchanged: 0 } });
    const second = await fetchOk<Row>(pair.demo, 'devicecustomer/syncDeviceInfo', { projectId: String(project.id) });
    expect(second).toEqual({ total: 9, created: 0, updated: 0, unchanged: 9, points: { total: 16, created: 0, updated: 0, unchanged: 16 } });

    const devices = await localDevices();
    expect(devices.map((d) => d.code).sort()).toEqual(
      ['QJ-CRACK-01', 'QJ-CRACK-02', 'QJ-GNSS-01', 'QJ-HLS-01', 'QJ-HLS-02', 'QJ-RAIN-01', 'QJ-TH-01', 'QJ-TILT-01', 'QJ-TILT-02'].map((c) => `R-${c}`),
    );
    const tilt = devices.find((d) => d.code === 'R-QJ-TILT-01') as Row;
    // Type and model matched by code in our own catalogue of tenant 100001.
    expect(tilt).toMatchObject({ name: '1#塔顶倾角计', deviceTypeName: '倾角计', modelName: expect.any(String), installPosition: '1#主塔塔顶', gatewayId: null });
    const points = (await fetchOk<PageData>(pair.demo, 'devicepoint/list', { deviceId: String(tilt.id) })).records;
    expect(points.map((p) => p.pointKey).sort()).toEqual(['tilt_x', 'tilt_y']);
    expect(points[0]).toMatchObject({ unit: '°', factorsItemId: expect.any(String) });

    // A change on the remote is copied on the next run, and only that.
    expectOk(await pair.remoteAdmin.post(`${X}/device/submit`, { id: remoteDevice('QJ-TILT-01'), name: '1#塔顶倾角计(更换)' }));
    const third = await fetchOk<Row>(pair.demo, 'devicecustomer/syncDeviceInfo', { projectId: String(project.id) });
    expect(third).toMatchObject({ created: 0, updated: 1, unchanged: 8 });
    expect((await localDevice('R-QJ-TILT-01')).name).toBe('1#塔顶倾角计(更换)');

    const remoteDevices = await fetchOk<Row[]>(pair.demo, 'thirdmonitorproject/getThirdDevice', { projectId: String(project.id) });
    expect(remoteDevices).toHaveLength(9);
    expectEvery(remoteDevices, (d) => d.bound === 1 && String(d.deviceCode) === `R-${String(d.code)}`);
    expect(remoteDevices.find((d) => d.code === 'QJ-TILT-01')).toMatchObject({ deviceTypeCode: 'inclinometer', modelCode: 'VG-TILT-2', installPosition: '1#主塔塔顶' });
    const tree = await fetchOk<Array<Row & { children: Row[] }>>(pair.demo, 'thirdmonitorparam/deviceTreeList', { projectId: String(project.id) });
    expect(tree[0]).toMatchObject({ id: project.id, nodeType: 'project', thirdProjectId: REMOTE_BRIDGE });
    expect(tree[0].children.find((c) => c.code === 'R-QJ-CRACK-01')).toMatchObject({ nodeType: 'device', bound: 1, thirdDeviceId: remoteDevice('QJ-CRACK-01'), thirdDeviceCode: 'QJ-CRACK-01' });
    const rows = await fetchOk<PageData>(pair.demo, 'devicecustomer/list', { projectId: String(project.id), size: 20 });
    expect(rows.total).toBe(9);
    expect(rows.records.find((r) => r.thirdDeviceCode === 'QJ-CRACK-01')).toMatchObject({ deviceCode: 'R-QJ-CRACK-01', projectName: '钱塘江大桥(省平台)', thirdParamName: '远程监测平台' });
  });

  it('copies the remote monitor points with their device bindings, idempotently', async () => {
    const first = await fetchOk<Row>(pair.demo, 'pointcustomer/syncPointInfo', { projectId: String(project.id), ptProjectId: REMOTE_BRIDGE });
    expect(first).toMatchObject({ total: 14, created: 14, updated: 0, unchanged: 0 });
    expect(first.relations).toBeGreaterThanOrEqual(9);
    const second = await fetchOk<Row>(pair.demo, 'pointcustomer/syncPointInfo', { projectId: String(project.id) });
    expect(second).toEqual({ total: 14, created: 0, updated: 0, unchanged: 14, relations: 0 });

    const points = (await fetchOk<PageData>(pair.demo, 'monitorpoint/list', { projectId: String(project.id), size: 50 })).records;
    expect(points).toHaveLength(14);
    const withDevices = points.filter((p) => (p.deviceIds as string[]).length > 0);
    expect(withDevices.length).toBe(14);
    const ours = new Set((await localDevices()).map((d) => d.id));
    expectEvery(withDevices, (p) => (p.deviceIds as string[]).every((id) => ours.has(id)));
    expectEvery(points, (p) => p.factorsId);
    expect((await fetchOk<PageData>(pair.demo, 'pointcustomer/list', { projectId: String(project.id) })).total).toBe(14);
    expect((await fetchOk<PageData>(pair.demo, 'thirdmonitorproject/list')).records[0]).toMatchObject({ deviceCount: 9, pointCount: 14 });
  });

  it('pulls what a device published to the remote over MQTT into our history, latest values and alarms', async () => {
    const localCrack = await localDevice('R-QJ-CRACK-01');
    const stored: StoredReading[] = [];
    pair.ours.app.platform.events.on('readings', (batch) => stored.push(...batch));
    expectOk(await pair.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: localCrack.id, pointKey: 'crack', level4Upper: 0.3, level3Upper: 0.5, hysteresis: 0.01 }));
    await crack.publish(Array.from({ length: 5 }, (_, i) => ({ ts: t0 + i * minute, values: { crack: [0.21, 0.22, 0.23, 0.35, 0.24][i], temperature: 18 + i } })));

    const pulled = await postOk<Row>(pair.demo, 'thirdmonitorparam/getThirdData', { bindingId: binding.id });
    expect(pulled).toMatchObject({ thirdParamId: param.id, projectId: project.id, devices: 9, readings: 10, unchanged: 0, failures: [] });
    // The remote's engineering values and raw values, as they are there.
    const theirs = await remoteSeries('QJ-CRACK-01');
    expect(theirs.map(([ts, , raw]) => [ts, raw])).toEqual([0, 1, 2, 3, 4].map((i) => [t0 + i * minute, [0.21, 0.22, 0.23, 0.35, 0.24][i]]));
    expect(await series(String(localCrack.id))).toEqual(theirs);
    expect(await series(String(localCrack.id), 'temperature')).toEqual(await remoteSeries('QJ-CRACK-01', 'temperature'));
    // Our own demo device has the remote device's id (both servers ran the same seed): nothing went there.
    expect(deviceOf('QJ-CRACK-01')).toBe(remoteDevice('QJ-CRACK-01'));
    expect(await series(deviceOf('QJ-CRACK-01'))).toEqual([]);
    // The readings went through the pipeline's event, in time order, as our local device.
    expect(stored.filter((r) => r.pointKey === 'crack').map((r) => [r.deviceId, r.ts])).toEqual([0, 1, 2, 3, 4].map((i) => [localCrack.id, t0 + i * minute]));
    const latest = await until(async () => {
      const d = await fetchOk<Row>(pair.demo, 'device/detail', { id: String(localCrack.id) });
      return d.lastValues ? (JSON.parse(String(d.lastValues)) as Record<string, number>) : undefined;
    });
    expect(latest).toEqual({ crack: theirs[4][1], temperature: 22 });
    const alarm = await until(async () => (await fetchOk<PageData>(pair.demo, 'alarm/list', { deviceId: String(localCrack.id) })).records[0]);
    expect(alarm).toMatchObject({ pointKey: 'crack', alarmLevel: 4 });

    // The next pull goes on from where this one stopped: the readings half an hour back are not read again.
    stored.length = 0;
    expect(await postOk<Row>(pair.demo, 'thirdmonitorparam/getThirdData', { projectId: project.id, deviceIds: String(localCrack.id) })).toMatchObject({ devices: 1, readings: 0, unchanged: 0 });
    // A period pulled again stores and announces only what changed on the remote (a corrected value).
    expectOk(await pair.remoteAdmin.post(`${X}/devicelog/submit`, { deviceId: remoteDevice('QJ-CRACK-01'), pointKey: 'crack', ts: t0 + minute, value: 0.225, reason: '人工复核' }));
    expect(await postOk<Row>(pair.demo, 'thirdmonitorparam/getThirdData', { projectId: project.id, startTime: t0, endTime: t0 + 10 * minute })).toMatchObject({ devices: 9, readings: 1, unchanged: 9 });
    expect((await series(String(localCrack.id)))[1]).toEqual([t0 + minute, 0.225, 0.22]);
    expect(stored.map((r) => [r.pointKey, r.ts, r.value])).toEqual([['crack', t0 + minute, 0.225]]);

    // An explicit range pulls that period only.
    const ranged = await postOk<Row>(pair.demo, 'thirdmonitorparam/getThirdData', { thirdParamId: param.id, startTime: t0 + 2 * minute, endTime: t0 + 3 * minute });
    expect(ranged).toMatchObject({ readings: 0, unchanged: 4 });
    const recorded = await fetchOk<Row>(pair.demo, 'thirdmonitorparam/detail', { id: String(param.id) });
    expect(recorded).toMatchObject({ lastPullState: PULL_STATE.ok, lastPullMessage: expect.stringContaining('拉取 9 台设备') });
    expect((await fetchOk<PageData>(pair.demo, 'thirdmonitorproject/list')).records[0]).toMatchObject({ lastPullTime: expect.any(String) });
    expect((await fetchOk<PageData>(pair.demo, 'devicecustomer/list', { deviceId: String(localCrack.id) })).records[0]).toMatchObject({ pulledTime: expect.any(String) });
  });

  it('pulls by itself every interval from where it stopped', async () => {
    const { clock } = pair;
    const remoteHas = (at: number) => until(async () => (await remoteSeries('QJ-CRACK-01')).find(([t]) => t === at), 5000, `the remote reading at ${at}`);
    expect(clock.pending()).toEqual([]);
    await postOk(pair.demo, 'thirdmonitorparam/submit', { id: param.id, intervalSeconds: 5, enabled: 1 });
    expect((await fetchOk<Row>(pair.demo, 'thirdmonitorparam/detail', { id: String(param.id) })).running).toBe(1);
    expect(clock.pending()).toEqual([5000]);
    const localCrack = await localDevice('R-QJ-CRACK-01');
    const ts = Date.now() - 1000;
    await crack.publish({ ts, values: { crack: 0.26 } });
    await remoteHas(ts);
    // Nothing is pulled before the interval has elapsed; then the periodic pull brings the new reading.
    expect((await series(String(localCrack.id))).find(([t]) => t === ts)).toBeUndefined();
    await clock.elapse();
    expect((await series(String(localCrack.id))).at(-1)).toEqual((await remoteSeries('QJ-CRACK-01')).at(-1));
    expect((await series(String(localCrack.id))).at(-1)).toEqual([ts, expect.any(Number), 0.26]);
    // The next pull is armed when this one is done.
    expect(clock.pending()).toEqual([5000]);

    await postOk(pair.demo, 'thirdmonitorparam/submit', { id: param.id, enabled: 0 });
    expect((await fetchOk<Row>(pair.demo, 'thirdmonitorparam/detail', { id: String(param.id) })).running).toBe(0);
    expect(clock.pending()).toEqual([]);
    await crack.publish({ ts: ts + 1000, values: { crack: 0.27 } });
    await remoteHas(ts + 1000);
    // The interval elapses again: a stopped connection does not pull.
    await clock.elapse();
    expect((await series(String(localCrack.id))).find(([t]) => t === ts + 1000)).toBeUndefined();
  });

  it('lets a user limited to other projects neither see the bindings nor pull them', async () => {
    const elsewhere = expectOk(await pair.demo.post<Row>(`${X}/project/submit`, { name: '别的项目', code: 'ELSEWHERE' }));
    const staff = await staffUser(pair.ours, '100001', 'third_watcher');
    expectOk(await postParams(pair.demo, `${X}/userproject/setUserProject`, { userId: staff.userId, projectIds: String(elsewhere.id) }));
    expect((await fetchOk<PageData>(staff.client, 'thirdmonitorproject/list')).total).toBe(0);
    expect((await fetchOk<PageData>(staff.client, 'devicecustomer/list')).total).toBe(0);
    expect(await postOk<Row>(staff.client, 'thirdmonitorparam/getThirdData', { thirdParamId: param.id })).toMatchObject({ devices: 0, readings: 0 });
    expectRefused(await staff.client.post(`${X}/thirdmonitorparam/getThirdData`, { bindingId: binding.id }), '第三方项目绑定不存在或无权操作');
    expectRefused(await staff.client.get(`${X}/devicecustomer/syncDeviceInfo`, { projectId: String(project.id) }), '项目未绑定第三方项目');
  });

  it('binds remote devices one by one: to a local device, to a new one, or not at all', async () => {
    const other = expectOk(await pair.demo.post<Row>(`${X}/project/submit`, { name: '第二座桥', code: 'SECOND-BRIDGE' }));
    // A second connection to the same remote: the devices stay bound to the first one.
    const second = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '远程平台二', codePrefix: 'S-' }));
    await postOk(pair.demo, 'thirdmonitorparam/bingProject', { thirdParamId: second.id, projectId: other.id, thirdProjectId: REMOTE_BRIDGE });
    const mine = expectOk(await pair.demo.post<Row>(`${X}/device/submit`, { code: 'SECOND-RAIN', name: '雨量计', projectId: other.id }));
    const result = await postOk<Row>(pair.demo, 'thirdmonitorproject/bingDevice', {
      projectId: other.id,
      devices: [
        { thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: mine.id },
        { thirdDeviceId: remoteDevice('QJ-TH-01'), deviceId: 'new' },
      ],
    });
    expect(result).toEqual({ bound: 2, created: 1, unbound: 0 });
    const listed = await fetchOk<Row[]>(pair.demo, 'thirdmonitorproject/getThirdDevice', { projectId: String(other.id), thirdParamId: String(second.id), thirdProjectId: REMOTE_BRIDGE });
    expect(listed.filter((d) => d.bound === 1).map((d) => [d.code, d.deviceCode]).sort()).toEqual([['QJ-RAIN-01', 'SECOND-RAIN'], ['QJ-TH-01', 'S-QJ-TH-01']]);
    const created = (await fetchOk<PageData>(pair.demo, 'device/list', { code_equal: 'S-QJ-TH-01' })).records[0];
    expect((await fetchOk<PageData>(pair.demo, 'devicepoint/list', { deviceId: String(created.id) })).records.map((p) => p.pointKey).sort()).toEqual(['humidity', 'temperature']);

    // One local device serves one remote device.
    expectRefused(
      await pair.demo.post(`${X}/thirdmonitorproject/bingDevice`, { projectId: other.id, devices: [{ thirdDeviceId: remoteDevice('QJ-TILT-01'), deviceId: mine.id }] }),
      '一台本地设备只能绑定一台第三方设备',
    );
    // Swapping in one request is fine; unbinding leaves the local device.
    expect(
      await postOk<Row>(pair.demo, 'thirdmonitorproject/bingDevice', {
        projectId: other.id,
        devices: [
          { thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: '' },
          { thirdDeviceId: remoteDevice('QJ-TILT-01'), deviceId: mine.id },
        ],
      }),
    ).toEqual({ bound: 1, created: 0, unbound: 1 });
    const after = await fetchOk<PageData>(pair.demo, 'devicecustomer/list', { projectId: String(other.id) });
    expect(after.records.map((r) => r.thirdDeviceCode).sort()).toEqual(['QJ-TH-01', 'QJ-TILT-01']);

    // Unbinding the project takes its device bindings with it; the local rows stay.
    const projectBinding = (await fetchOk<PageData>(pair.demo, 'thirdmonitorproject/list', { projectId: String(other.id) })).records[0];
    expectOk(await pair.demo.request('POST', `${X}/thirdmonitorproject/remove`, { query: { ids: String(projectBinding.id) } }));
    expect((await fetchOk<PageData>(pair.demo, 'devicecustomer/list', { projectId: String(other.id) })).total).toBe(0);
    expect((await fetchOk<Row>(pair.demo, 'project/detail', { id: String(other.id) })).ptProjectId).toBeNull();
    expect((await fetchOk<PageData>(pair.demo, 'device/list', { projectId: String(other.id) })).total).toBe(2);
    expectOk(await pair.demo.request('POST', `${X}/thirdmonitorparam/remove`, { query: { ids: String(second.id) } }));
    // The first connection still has its bindings: it cannot go.
    expectRefused(await pair.demo.request('POST', `${X}/thirdmonitorparam/remove`, { query: { ids: String(param.id) } }), '请先解除该平台的项目绑定');
  });
});
