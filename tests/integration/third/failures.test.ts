import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PULL_STATE } from '../../../resources/iot/third';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { X } from '../monitoring/support';
import { connection, fetchOk, type Pair, postOk, REMOTE_ACCOUNT, REMOTE_BRIDGE, REMOTE_CLIENT_SECRET, REMOTE_PASSWORD, remoteDevice, SHORT_CLIENT, startPair } from './support';

/** What goes wrong with a remote platform, bad input, other tenants, and the secrets of a connection. */
describe.each(await storeKinds())('third-party failures and isolation on %s', (store) => {
  let pair: Pair;
  let silent: Server; // accepts connections and never answers
  const sockets: Socket[] = [];
  let silentUrl: string;
  let closedUrl: string; // nothing listens there

  beforeAll(async () => {
    pair = await startPair(store);
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(gone.address() as { port: number }).port}`;
    await new Promise((resolve) => gone.close(resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    await pair?.stop();
  });

  const detail = (id: unknown) => fetchOk<Row>(pair.demo, 'thirdmonitorparam/detail', { id: String(id) });
  const remoteFailures = async () => (await pair.remote.app.platform.signIn.state({ tenantId: '100001', account: REMOTE_ACCOUNT, address: '127.0.0.1' })).failures;

  it('says a wrong password clearly, records it, and pauses the periodic pull so the remote account is not locked', async () => {
    const { clock } = pair;
    const param = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '密码错误', password: 'Wrong#Pass-1', intervalSeconds: 5, enabled: 1 }));
    expect((await detail(param.id)).running).toBe(1);
    expect(clock.pending()).toEqual([5000]);
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(param.id) }), '第三方平台登录失败: 用户名或密码错误');
    const pulled = await pair.demo.post(`${X}/thirdmonitorparam/getThirdData`, { thirdParamId: param.id });
    expectRefused(pulled, '第三方平台登录失败: 用户名或密码错误');
    expect(JSON.stringify(pulled.body)).not.toContain('Wrong#Pass-1');
    expect(await detail(param.id)).toMatchObject({ lastPullState: PULL_STATE.refused, lastPullMessage: '第三方平台登录失败: 用户名或密码错误', lastPullTime: expect.any(String), running: 0 });
    await pair.ours.app.platform.logs.flush();
    const errors = expectOk(await pair.demo.get<PageData>('/api/blade-log/error/list', { exceptionName: 'ThirdPull:login' })).records;
    expect(errors[0]).toMatchObject({ tenantId: '100001', message: '第三方平台「密码错误」拉取失败: 第三方平台登录失败: 用户名或密码错误', requestUri: pair.remote.url });

    // Two refused sign-ins, and no more while the connection waits for a fix: its timer is gone, and the interval
    // elapsing pulls nothing.
    expect(await remoteFailures()).toBe(2);
    expect(clock.pending()).toEqual([]);
    await clock.elapse();
    expect(await remoteFailures()).toBe(2);

    // The fix resumes it: the next periodic pull succeeds (and the remote forgets the failures).
    await postOk(pair.demo, 'thirdmonitorparam/submit', { id: param.id, password: connection(pair.remote).password });
    expect(await detail(param.id)).toMatchObject({ lastPullState: PULL_STATE.never, running: 1 });
    expect(clock.pending()).toEqual([5000]);
    await clock.elapse();
    expect(await detail(param.id)).toMatchObject({ lastPullState: PULL_STATE.ok, running: 1 });
    expect(await remoteFailures()).toBe(0);
    await postOk(pair.demo, 'thirdmonitorparam/submit', { id: param.id, enabled: 0 });
    expect(clock.pending()).toEqual([]);
  });

  it('says an unreachable, silent or wrong address clearly; one failing connection does not stop the others', async () => {
    const closed = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '不可达', baseUrl: closedUrl, intervalSeconds: 5, enabled: 1 }));
    const good = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '正常', intervalSeconds: 5, enabled: 1 }));
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(closed.id) }), `第三方平台无法访问: ${closedUrl} (ECONNREFUSED)`);
    // The periodic pulls of both run: one fails and is recorded, the other goes on; both stay scheduled.
    expect(pair.clock.pending()).toEqual([5000, 5000]);
    await pair.clock.elapse();
    expect(await detail(closed.id)).toMatchObject({ lastPullState: PULL_STATE.failed, lastPullMessage: expect.stringContaining('第三方平台无法访问'), running: 1 });
    expect(await detail(good.id)).toMatchObject({ lastPullState: PULL_STATE.ok, running: 1 });
    expect(pair.clock.pending()).toEqual([5000, 5000]);
    for (const id of [closed.id, good.id]) await postOk(pair.demo, 'thirdmonitorparam/submit', { id, enabled: 0 });
    expect(pair.clock.pending()).toEqual([]);

    const hung = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '无响应', baseUrl: silentUrl, timeoutSeconds: 1 }));
    const started = Date.now();
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/getThirdData`, { thirdParamId: hung.id }), `第三方平台响应超时(1秒): ${silentUrl}`);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await detail(hung.id)).toMatchObject({ lastPullState: PULL_STATE.failed, lastPullMessage: expect.stringContaining('响应超时') });

    const elsewhere = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '路径错误', baseUrl: `${pair.remote.url}/nothing/here` }));
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(elsewhere.id) }), '第三方平台登录失败: 404 没找到请求');
    const badClient = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '客户端错误', clientSecret: 'nope' }));
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(badClient.id) }), '第三方平台登录失败: 客户端认证失败');
    const badTenant = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '租户错误', thirdTenantId: '999999' }));
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(badTenant.id) }), '第三方平台登录失败: 租户信息错误');
  });

  it('refreshes a token that expires instead of signing in again', async () => {
    const param = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', connection(pair.remote, { name: '短令牌', clientId: SHORT_CLIENT, clientSecret: 'Short#Secret-4' }));
    const signIns = async () => {
      await pair.remote.app.platform.logs.flush();
      const rows = await pair.remote.app.platform.db.selectFrom('blade_log_usual').select('id').where('logId', '=', 'login').where('createBy', '=', REMOTE_ACCOUNT).execute();
      return rows.length;
    };
    const before = await signIns();
    await fetchOk(pair.demo, 'thirdmonitorparam/getThirdProject', { thirdParamId: String(param.id) });
    expect(await signIns()).toBe(before + 1);
    // The clock, not the test, moves past the 4-second token's life: Date only, timers stay real. Both servers run in
    // this process, so the remote sees the token expired too.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 4500, shouldAdvanceTime: true });
    try {
      await fetchOk(pair.demo, 'thirdmonitorparam/getThirdProject', { thirdParamId: String(param.id) });
      await fetchOk(pair.demo, 'thirdmonitorparam/getThirdProject', { thirdParamId: String(param.id) });
    } finally {
      vi.useRealTimers();
    }
    expect(await signIns()).toBe(before + 1);
  });

  it('refuses bad input with a clear message and writes nothing half', async () => {
    const body = connection(pair.remote, { name: '校验' });
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, baseUrl: 'ftp://example.com' }), '平台地址应为 http(s)://主机[:端口][/路径]');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, baseUrl: 'http://user:pw@example.com' }), '平台地址应为');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, password: '' }), '请输入登录密码');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, clientSecret: undefined }), '请输入客户端密钥');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, intervalSeconds: 3 }), '拉取间隔至少5秒(0为手动拉取)');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, platformType: 'ftp' }), '不支持的平台类型');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, codePrefix: 'R 1' }), '编号前缀只能包含字母、数字和 _ . : -');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, name: undefined }), '请输入平台名称');
    // The pull's outcome is the server's to write.
    const param = await postOk<Row>(pair.demo, 'thirdmonitorparam/submit', { ...body, codePrefix: '', lastPullState: 1, lastPullMessage: '伪造' });
    expect(await detail(param.id)).toMatchObject({ lastPullState: PULL_STATE.never, lastPullMessage: null });
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/submit`, { ...body, codePrefix: '' }), '平台名称已存在');

    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`), '请选择第三方参数');
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: 'abc' }), '请求参数类型错误');
    expectRefused(await pair.demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: '12345' }), '第三方参数不存在或无权操作');
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: param.id, projectId: '12345', thirdProjectId: REMOTE_BRIDGE }), '项目不存在或无权操作');
    const local = expectOk(await pair.demo.post<Row>(`${X}/project/submit`, { name: '无前缀的桥', code: 'NO-PREFIX' }));
    expectRefused(await pair.demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: param.id, projectId: local.id }), '请选择第三方项目');
    expectRefused(await pair.demo.get(`${X}/devicecustomer/syncDeviceInfo`, { projectId: String(local.id) }), '项目未绑定第三方项目,请先绑定');
    expectRefused(await pair.demo.get(`${X}/pointcustomer/syncPointInfo`, { projectId: String(local.id) }), '项目未绑定第三方项目,请先绑定');
    expectRefused(await pair.demo.get(`${X}/devicecustomer/syncDeviceInfo`), '请选择项目');

    // Without a prefix the remote codes clash with our own demo rows: refused whole.
    expectRefused(await pair.demo.get(`${X}/projectcustomer/syncProject`, { thirdParamId: String(param.id), ptProjectId: REMOTE_BRIDGE }), '项目编号 QJ-BRIDGE 已存在,请在第三方参数中设置编号前缀');
    await fetchOk(pair.demo, 'projectcustomer/syncProject', { thirdParamId: String(param.id), projectId: String(local.id), ptProjectId: REMOTE_BRIDGE });
    expectRefused(await pair.demo.get(`${X}/devicecustomer/syncDeviceInfo`, { projectId: String(local.id), ptProjectId: '42' }), '项目未绑定该第三方项目');
    expectRefused(await pair.demo.get(`${X}/devicecustomer/syncDeviceInfo`, { projectId: String(local.id) }), '已被其他项目或租户的设备使用,请在第三方参数中设置编号前缀');
    expect((await fetchOk<PageData>(pair.demo, 'device/list', { projectId: String(local.id) })).total).toBe(0);
    expect((await fetchOk<PageData>(pair.demo, 'devicecustomer/list', { projectId: String(local.id) })).total).toBe(0);
    // Our demo device with that code keeps its own two points.
    expect((await fetchOk<PageData>(pair.demo, 'devicepoint/list', { deviceId: remoteDevice('QJ-TILT-01'), size: 100 })).total).toBe(2);

    const bing = (devices: unknown) => pair.demo.post(`${X}/thirdmonitorproject/bingDevice`, { projectId: local.id, devices });
    expectRefused(await bing([]), '请选择要绑定的设备');
    expectRefused(await bing([{ thirdDeviceId: '42', deviceId: 'new' }]), '第1条: 第三方设备不存在或不属于该第三方项目');
    expectRefused(await bing([{ deviceId: 'new' }]), '第1条: 请选择第三方设备');
    expectRefused(await bing([{ thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: 'x1' }]), '第1条: 设备编号不正确');
    // Our demo bridge's own device is not of this project.
    expectRefused(await bing([{ thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: remoteDevice('QJ-RAIN-01') }]), '第1条: 设备不存在或不属于该项目');
    expectRefused(await bing([{ thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: 'new' }]), '设备编号 QJ-RAIN-01 已被其他项目或租户的设备使用');
    expectRefused(await bing([{ thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: 'new' }, { thirdDeviceId: remoteDevice('QJ-RAIN-01'), deviceId: '' }]), '第三方设备重复');

    const pull = (args: Record<string, unknown>) => pair.demo.post(`${X}/thirdmonitorparam/getThirdData`, args);
    expectRefused(await pull({}), '请选择第三方参数或项目');
    expectRefused(await pull({ thirdParamId: param.id, startTime: '2026-01-01', endTime: '2026-02-15' }), '拉取时间范围不能超过31天');
    expectRefused(await pull({ thirdParamId: param.id, endTime: '2026-02-15' }), '请选择开始时间');
    expectRefused(await pull({ thirdParamId: param.id, startTime: 'yesterday' }), 'startTime 格式应为');
    expectRefused(await pull({ thirdParamId: param.id, startTime: '2026-02-15', endTime: '2026-02-01' }), '开始时间应早于结束时间');
    expectRefused(await pull({ bindingId: '12345' }), '第三方项目绑定不存在或无权操作');
    expectRefused(await pull({ projectId: '12345' }), '项目未绑定第三方项目,请先绑定');

    for (const path of ['thirdmonitorproject', 'devicecustomer', 'pointcustomer']) {
      expectRefused(await pair.demo.request('POST', `${X}/${path}/remove`, { query: { ids: '12345' } }), '数据不存在或无权操作');
      // Bindings are written by the calls only.
      expectRefused(await pair.demo.post(`${X}/${path}/submit`, { thirdParamId: param.id }), '404 没找到请求', 404);
    }
  });

  it('keeps connections and bindings in their tenant, and never answers a secret', async () => {
    // The platform administrator's own connection and bound project, in tenant 000000.
    const p0 = await postOk<Row>(pair.platformAdmin, 'thirdmonitorparam/submit', connection(pair.remote, { name: '平台自用', codePrefix: 'Z-' }));
    const synced = await fetchOk<{ project: Row; binding: Row }>(pair.platformAdmin, 'projectcustomer/syncProject', { thirdParamId: String(p0.id), ptProjectId: REMOTE_BRIDGE });
    await fetchOk(pair.platformAdmin, 'devicecustomer/syncDeviceInfo', { projectId: String(synced.project.id) });
    await fetchOk(pair.platformAdmin, 'pointcustomer/syncPointInfo', { projectId: String(synced.project.id) });
    const deviceBinding = (await fetchOk<PageData>(pair.platformAdmin, 'devicecustomer/list', { projectId: String(synced.project.id) })).records[0];
    const pointBinding = (await fetchOk<PageData>(pair.platformAdmin, 'pointcustomer/list', { projectId: String(synced.project.id) })).records[0];
    expect(synced.project).toMatchObject({ tenantId: '000000', code: 'Z-QJ-BRIDGE' });

    // Tenant 100001 sees none of it and can touch none of it.
    const demo = pair.demo;
    expect(await fetchOk(demo, 'thirdmonitorparam/detail', { id: String(p0.id) })).toBeNull();
    expect((await fetchOk<PageData>(demo, 'thirdmonitorparam/list', { size: 100 })).records.map((r) => r.id)).not.toContain(p0.id);
    expect((await fetchOk<Row[]>(demo, 'thirdmonitorparam/treeList', { tenantId: '000000' })).map((n) => n.id)).not.toContain(p0.id);
    for (const path of ['thirdmonitorproject', 'devicecustomer', 'pointcustomer']) {
      // The platform's rows are there (the administrator lists them), and none of them reaches the tenant's list.
      const platformIds = (await fetchOk<PageData>(pair.platformAdmin, `${path}/list`, { size: 100, tenantId_equal: '000000' })).records.map((r) => r.id);
      expect(platformIds.length, path).toBeGreaterThan(0);
      const theirs = (await fetchOk<PageData>(demo, `${path}/list`, { size: 100 })).records;
      expect(theirs.filter((r) => r.tenantId !== '100001' || platformIds.includes(r.id)), path).toEqual([]);
    }
    expect(await fetchOk(demo, 'devicecustomer/detail', { id: String(deviceBinding.id) })).toBeNull();
    const mine = expectOk(await demo.post<Row>(`${X}/project/submit`, { name: '租户项目', code: 'TENANT-P' }));
    expectRefused(await demo.get(`${X}/thirdmonitorparam/getThirdProject`, { thirdParamId: String(p0.id) }), '第三方参数不存在或无权操作');
    expectRefused(await demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: p0.id, projectId: mine.id, thirdProjectId: REMOTE_BRIDGE }), '第三方参数不存在或无权操作');
    expectRefused(await demo.post(`${X}/thirdmonitorparam/getThirdData`, { thirdParamId: p0.id }), '第三方参数不存在或无权操作');
    expectRefused(await demo.post(`${X}/thirdmonitorparam/getThirdData`, { bindingId: synced.binding.id }), '第三方项目绑定不存在或无权操作');
    expectRefused(await demo.get(`${X}/projectcustomer/syncProject`, { thirdParamId: String(p0.id), ptProjectId: REMOTE_BRIDGE }), '第三方参数不存在或无权操作');
    expectRefused(await demo.get(`${X}/devicecustomer/syncDeviceInfo`, { projectId: String(synced.project.id) }), '项目未绑定第三方项目');
    expectRefused(await demo.get(`${X}/thirdmonitorproject/getThirdDevice`, { thirdParamId: String(p0.id), thirdProjectId: REMOTE_BRIDGE }), '第三方参数不存在或无权操作');
    expectRefused(await demo.get(`${X}/thirdmonitorparam/deviceTreeList`, { projectId: String(synced.project.id) }), '项目不存在或无权操作');
    expectRefused(await demo.post(`${X}/thirdmonitorparam/submit`, { id: p0.id, name: '改名' }), '数据不存在或无权操作');
    for (const [path, id] of [['thirdmonitorparam', p0.id], ['thirdmonitorproject', synced.binding.id], ['devicecustomer', deviceBinding.id], ['pointcustomer', pointBinding.id]] as const) {
      expect((await demo.request('POST', `${X}/${path}/remove`, { query: { ids: String(id) } })).status, path).toBe(400);
    }
    expect((await fetchOk<PageData>(pair.platformAdmin, 'devicecustomer/list', { projectId: String(synced.project.id) })).total).toBe(9);
    expect((await fetchOk<Row>(pair.platformAdmin, 'thirdmonitorparam/detail', { id: String(p0.id) })).name).toBe('平台自用');

    // A connection binds projects of its own tenant only, even for the platform administrator.
    expectRefused(await pair.platformAdmin.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: p0.id, projectId: mine.id, thirdProjectId: REMOTE_BRIDGE }), '项目不存在或无权操作');

    // Secrets: not in any list, detail or tree (checked on every call above), nor in the API log.
    await pair.ours.app.platform.logs.flush();
    const logged = await pair.ours.app.platform.db.selectFrom('blade_log_api').select('params').where('requestUri', 'like', '%thirdmonitorparam/submit%').execute();
    expect(logged.length).toBeGreaterThan(0);
    for (const row of logged) {
      expect(String(row.params)).not.toContain(REMOTE_PASSWORD);
      expect(String(row.params)).not.toContain(REMOTE_CLIENT_SECRET);
    }
  });
});
