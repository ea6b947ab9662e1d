import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TARGET_TYPE } from '../../../resources/iot/alarm';
import { DEFAULT_INIT_PASSWORD } from '../../../server/db/seed';
import type { StoredReading } from '../../../server/ingest/types';
import { type ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk, expectRefused, type PageData, postParams, type Row } from '../../support/envelope';
import type { TestServer } from '../../support/server';
import { until } from '../../support/wait';
import { BRIDGE } from '../data/support';
import { startReceiver, type Receiver } from '../push/support';
import { connection, type Pair, REMOTE_BRIDGE, remoteDevice, startPair } from '../third/support';
import { DEMO, staffUser, submit, X } from './support';
import { expectEvery } from '../../support/lists';

/**
 * project/adjustTenant end to end (docs/data-model.md "Projects"): a project pushed to the old tenant's HTTP target
 * and bound to the old tenant's third-party connection moves to a new tenant. Its bindings go in the same
 * transaction, what it owns and its alarm configuration come along, nothing of the old tenant shows in the new one,
 * and the old tenant's forwarder sends nothing of the project's later readings.
 */

const CODE = 'MV-CRACK-01';
const MQTT_PASSWORD = 'Device#Move2026';

describe.each(await storeKinds())('moving a project to another tenant on %s', (store) => {
  let pair: Pair;
  let ours: TestServer;
  let demo: ApiClient;
  let receiver: Receiver;
  let device: MqttClient | undefined;
  const stored: StoredReading[] = [];
  const ids: Record<string, string> = {};
  let newTenant = '';
  let moved: ApiClient;

  /** Connects as the moved device's broker identity and publishes on its tenant's data topic. */
  const publish = async (tenantId: string, ts: number, crack: number) => {
    device ??= await mqtt.connectAsync(`mqtt://127.0.0.1:${ours.app.broker?.port}`, { clientId: CODE, username: 'mv-crack-01', password: MQTT_PASSWORD, reconnectPeriod: 0 });
    await device.publishAsync(`vigil/${tenantId}/device/${CODE}/data`, JSON.stringify({ ts, values: { crack } }), { qos: 1 });
    await until(() => stored.some((r) => r.deviceCode === CODE && r.ts === ts && r.tenantId === tenantId), 5000, `${CODE} stored at ${ts}`);
    await ours.app.alarms.engine.idle();
  };
  const pushedAt = (ts: number) => receiver.posted.filter((p) => p.body.readings?.some((r) => r.ts === ts));
  const total = async (api: ApiClient, resource: string, query: Record<string, string> = {}) =>
    expectOk(await api.get<PageData>(`${X}/${resource}/list`, { size: 200, ...query })).total;

  beforeAll(async () => {
    pair = await startPair(store);
    ours = pair.ours;
    demo = pair.demo;
    ours.app.platform.events.on('readings', (batch) => stored.push(...batch));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await receiver?.close();
    await pair?.stop();
  });

  it('sets up a project of the demo tenant with devices, alarms, a push target and a third-party binding', async () => {
    const project = await submit(demo, 'project', { name: '迁移边坡', code: 'MOVE-SLOPE', structureType: 3 });
    ids.project = project.id;
    ids.gateway = (await submit(demo, 'gateway', { code: 'MV-GW-01', name: '迁移网关', projectId: project.id })).id;
    ids.device = (await submit(demo, 'device', { code: CODE, name: '迁移裂缝计', projectId: project.id })).id;
    await submit(demo, 'devicepoint', { deviceId: ids.device, pointKey: 'crack', name: '裂缝', unit: 'mm' });
    const point = await submit(demo, 'monitorpoint', { projectId: project.id, name: '裂缝测点', code: 'MV-MP-1' });
    await submit(demo, 'pointrelationdevice', { monitorPointId: point.id, deviceId: ids.device, pointKey: 'crack' });
    await submit(demo, 'mqttuser', { username: 'mv-crack-01', password: MQTT_PASSWORD, clientType: 1, clientId: CODE });
    await submit(demo, 'mqttacl', { username: 'mv-crack-01', topic: 'vigil/%t/device/%c/debug', action: 2, allow: 1 });
    ids.threshold = (await submit(demo, 'devicethreshold', { targetType: TARGET_TYPE.devicePoint, deviceId: ids.device, pointKey: 'crack', level1Upper: 10, level2Upper: 5, level3Upper: 3, level4Upper: 2 })).id;
    ids.strategy = (await submit(demo, 'collectstrategy', { name: '迁移采集', projectId: project.id, deviceIds: ids.device, intervalSeconds: 600, command: { command: 'collect' }, enabled: 0 })).id;
    ids.comparison = (await submit(demo, 'datacomparison', { projectId: project.id, name: '迁移对比', batchNumber: '2026-第1期', items: [{ deviceId: ids.device, pointKey: 'crack' }] })).id;

    const target = await submit(demo, 'mqttparam', { name: '业主平台', pushType: 2, url: receiver.url, flushInterval: 200, timeout: 2000 });
    ids.target = target.id;
    const [binding] = expectOk(await demo.post<{ bindings: Row[] }>(`${X}/tenantproject/setTenantProject`, { mqttParamId: target.id, projectIds: [project.id] })).bindings;
    ids.binding = binding.id;
    await submit(demo, 'subtable', { mqttParamId: target.id, deviceId: ids.device, targetDevice: 'OWNER-CRACK' });

    const param = await submit(demo, 'thirdmonitorparam', connection(pair.remote));
    ids.param = param.id;
    expectOk(await demo.post(`${X}/thirdmonitorparam/bingProject`, { thirdParamId: param.id, projectId: project.id, thirdProjectId: REMOTE_BRIDGE }));
    expectOk(await demo.post(`${X}/thirdmonitorproject/bingDevice`, { projectId: project.id, devices: [{ thirdDeviceId: remoteDevice('QJ-CRACK-01'), deviceId: ids.device }] }));
    expect(expectOk(await demo.get<Row>(`${X}/pointcustomer/syncPointInfo`, { projectId: project.id }))).toMatchObject({ total: 14 });
    expect(expectOk(await demo.get<Row>(`${X}/project/detail`, { id: project.id })).ptProjectId).toBe(REMOTE_BRIDGE);

    // The binding pushes: a reading arrives at the owner's endpoint under the mapped code, and raises an alarm.
    const ts = Date.now() - 60_000;
    await publish(DEMO, ts, 2.5);
    const arrived = await until(() => pushedAt(ts)[0], 5000, 'the pushed reading');
    expect(arrived.body).toMatchObject({ tenantId: DEMO, project: { id: project.id, code: 'MOVE-SLOPE' }, readings: [{ device: 'OWNER-CRACK', ts, values: { crack: 2.5 } }] });
    const [alarm] = expectOk(await demo.get<PageData>(`${X}/alarm/list`, { deviceId: ids.device })).records;
    expect(alarm).toMatchObject({ alarmState: 1, alarmLevel: 4 });
    ids.alarm = alarm.id;

    // While bound, the old tenant's target and connection cannot be removed.
    expectRefused(await postParams(demo, `${X}/mqttparam/remove`, { ids: target.id }), '推送目标还绑定着项目或设有映射,请先解除');
    expectRefused(await postParams(demo, `${X}/thirdmonitorparam/remove`, { ids: param.id }), '请先解除该平台的项目绑定');
  });

  it('refuses, changing nothing, to leave a user limited to projects with none', async () => {
    const only = await staffUser(ours, DEMO, 'mv_only');
    const both = await staffUser(ours, DEMO, 'mv_both');
    ids.both = both.userId;
    expectOk(await postParams(demo, `${X}/userproject/setUserProject`, { userId: only.userId, projectIds: ids.project }));
    expectOk(await postParams(demo, `${X}/userproject/setUserProject`, { userId: both.userId, projectIds: `${ids.project},${BRIDGE}` }));
    const created = expectOk(await pair.platformAdmin.post<{ tenantId: string }>('/api/blade-system/tenant/submit', { tenantName: '迁入业主' }));
    newTenant = created.tenantId;

    const refused = await postParams(pair.platformAdmin, `${X}/project/adjustTenant`, { ids: ids.project, tenantId: newTenant });
    expectRefused(refused, '用户 mv_only 只分配了要迁移的项目,迁移后将能查看原租户的全部项目,请先调整其项目分配');
    expect(expectOk(await demo.get<Row>(`${X}/project/detail`, { id: ids.project })).tenantId).toBe(DEMO);
    expect(await total(demo, 'tenantproject', { projectId: ids.project })).toBe(1);
    expect(await total(demo, 'thirdmonitorproject')).toBe(1);
    expect(await total(demo, 'userproject', { projectId: ids.project })).toBe(2);

    // Once that user has another project, the move goes ahead.
    expectOk(await postParams(demo, `${X}/userproject/setUserProject`, { userId: only.userId, projectIds: BRIDGE }));
  });

  it('moves the project with what it owns and removes its bindings in the same call', async () => {
    const answer = expectOk(await postParams<Row>(pair.platformAdmin, `${X}/project/adjustTenant`, { ids: ids.project, tenantId: newTenant }));
    expect(answer).toEqual({ projects: 1, removed: { pushBindings: 1, pushMappings: 1, thirdProjects: 1, thirdDevices: 1, thirdPoints: 14, userProjects: 1 } });
    // Moving it again to the tenant it is in changes nothing.
    expect(expectOk(await postParams<Row>(pair.platformAdmin, `${X}/project/adjustTenant`, { ids: ids.project, tenantId: newTenant }))).toMatchObject({ projects: 0 });
    moved = await signedIn(ours.url, 'admin', DEFAULT_INIT_PASSWORD, newTenant);

    // The old tenant keeps nothing of the project, and its target and connection are free to go.
    expect(expectOk(await demo.get(`${X}/project/detail`, { id: ids.project }))).toBeNull();
    for (const [resource, query] of [
      ['tenantproject', { projectId: ids.project }],
      ['subtable', { deviceId: ids.device }],
      ['thirdmonitorproject', {}],
      ['devicecustomer', {}],
      ['pointcustomer', {}],
      ['devicethreshold', { deviceId: ids.device }],
      ['alarm', { deviceId: ids.device }],
      ['collectstrategy', { projectId: ids.project }],
      ['datacomparison', { projectId: ids.project }],
      ['mqttuser', { username: 'mv-crack-01' }],
      ['mqttacl', { username: 'mv-crack-01' }],
    ] as const) {
      expect(await total(demo, resource, query), resource).toBe(0);
    }
    // Removed like their own remove calls do: soft-deleted, in the old tenant.
    expect(await ours.app.platform.db.selectFrom('wit_tenant_project').select(['tenantId', 'isDeleted']).where('id', '=', ids.binding).executeTakeFirstOrThrow()).toEqual({ tenantId: DEMO, isDeleted: 1 });
    const watcher = expectOk(await demo.get<{ projectIds: string[] }>(`${X}/userproject/selectUserProject`, { userId: ids.both }));
    expect(watcher.projectIds).toEqual([BRIDGE]);

    // The new tenant sees the project with its devices, configuration and alarms, all of its own tenant.
    const project = expectOk(await moved.get<Row>(`${X}/project/detail`, { id: ids.project }));
    expect(project).toMatchObject({ tenantId: newTenant, code: 'MOVE-SLOPE', ptProjectId: null, categoryId: null, customerId: null });
    const seen: Array<[string, number]> = [
      ['project', 1],
      ['device', 1],
      ['gateway', 1],
      ['monitorpoint', 15],
      ['devicethreshold', 1],
      ['alarm', 1],
      ['collectstrategy', 1],
      ['datacomparison', 1],
      ['mqttuser', 1],
      ['mqttacl', 1],
    ];
    for (const [resource, count] of seen) {
      const { records, total: found } = expectOk(await moved.get<PageData>(`${X}/${resource}/list`, { size: 200 }));
      expect(found, resource).toBe(count);
      expectEvery(records, (r) => r.tenantId === newTenant, resource);
    }
    // Nothing of the old tenant: no push target, binding, mapping, log, connection or assignment.
    for (const resource of ['mqttparam', 'tenantproject', 'subtable', 'apisendlog', 'thirdmonitorparam', 'thirdmonitorproject', 'devicecustomer', 'pointcustomer', 'userproject']) {
      expect(await total(moved, resource), resource).toBe(0);
    }
    expect(expectOk(await moved.get<Row[]>(`${X}/tenantproject/mqttTreeList`))).toEqual([]);
    expect(expectOk(await moved.get<Row[]>(`${X}/thirdmonitorparam/treeList`))).toEqual([]);
  });

  it('sends nothing of the moved project to the old target, pulls nothing into it, and judges it in the new tenant', async () => {
    // What was sent before the move has been logged.
    await ours.app.push.forwarder.idle();
    const sentBefore = await total(demo, 'apisendlog', { mqttParamId: ids.target });
    // The identity moved with the device: it reconnects and publishes on the new tenant's topic.
    await device?.endAsync(true);
    device = undefined;
    const ts = Date.now() - 30_000;
    await publish(newTenant, ts, 3.5);
    // Drained: the reading has been routed, so one bound for the old target would wait in its lane (queued) for the
    // flush timer; none waits, so nothing can be sent later.
    await ours.app.push.forwarder.idle();
    expect(pushedAt(ts)).toEqual([]);
    expect(ours.app.push.forwarder.queued(ids.binding)).toBe(0);
    expect(await total(demo, 'apisendlog', { mqttParamId: ids.target })).toBe(sentBefore);

    // The alarm came along with its threshold: the new reading escalates it, in the new tenant.
    const alarm = expectOk(await moved.get<Row>(`${X}/alarm/detail`, { id: ids.alarm }));
    expect(alarm).toMatchObject({ tenantId: newTenant, alarmState: 1, alarmLevel: 3 });

    // The old connection has nothing bound any more: a pull reaches no device.
    expect(expectOk(await demo.post<Row>(`${X}/thirdmonitorparam/getThirdData`, { thirdParamId: ids.param }))).toMatchObject({ devices: 0, readings: 0 });
    expectOk(await postParams(demo, `${X}/mqttparam/remove`, { ids: ids.target }));
    expectOk(await postParams(demo, `${X}/thirdmonitorparam/remove`, { ids: ids.param }));
  });
});
