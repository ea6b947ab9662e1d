import { CONNECTION, MODEL_KIND, PROTOCOL_KIND } from '../../../resources/iot/catalogue';
import { REFERENCE_IDS } from '../../../resources/iot/examples';
import { ITEM_KIND } from '../../../resources/iot/monitoring';
import { MQTT_CLIENT_TYPE } from '../../../resources/iot/mqtt';
import { PROJECT_STATE } from '../../../resources/iot/project';
import { hashPassword } from '../../auth/passwords';
import type { Db, Row } from '../database';
import { seedId } from './ids';
import { insertRows } from './write';

/**
 * Seed step 0002_monitoring (docs/data-model.md "Seed data"): the platform tenant's reference catalogue and equipment
 * bench (the rows example bodies name), and the demo tenant's bridge with its gateway, devices, points, monitor points
 * and MQTT identities. It runs once, on an empty store (server/db/seed.ts).
 */

const PLATFORM = '000000';
const DEMO = '100001';

/** Demo MQTT passwords (also in docs/data-model.md, for the simulator). */
export const DEMO_DEVICE_PASSWORD = 'Vigil#Device2026';
export const DEMO_GATEWAY_PASSWORD = 'Vigil#Gateway2026';

/** The platform tenant: one of each catalogue row, and the bench project with a device under test. */
async function seedReference(db: Db): Promise<void> {
  const t = { tenantId: PLATFORM };
  const r = REFERENCE_IDS;
  await insertRows(db, 'wit_monitor_type', [{ ...t, id: r.monitorType, name: '变形监测', code: 'deformation', sort: 1 }]);
  await insertRows(db, 'wit_monitor_factors', [{ ...t, id: r.factors, monitorTypeId: r.monitorType, name: '倾斜', code: 'tilt', unit: '°', precision: 4, sort: 1 }]);
  await insertRows(db, 'wit_monitor_factors_item', [{ ...t, id: r.factorsItem, factorsId: r.factors, name: '原始值', code: 'tilt_raw', itemKind: ITEM_KIND.raw, unit: '°', precision: 4, sort: 1 }]);
  await insertRows(db, 'wit_device_type', [{ ...t, id: r.deviceType, name: '倾角计', code: 'inclinometer', monitorTypeId: r.monitorType, sort: 1 }]);
  await insertRows(db, 'wit_protocol', [{ ...t, id: r.protocol, name: 'Vigil JSON', code: 'vigil-json', protocolType: PROTOCOL_KIND.json, version: '1.0' }]);
  await insertRows(db, 'wit_device_model', [
    { ...t, id: r.model, name: '双轴倾角计', code: 'VG-TILT-2', deviceTypeId: r.deviceType, modelKind: MODEL_KIND.sensor, manufacturer: 'Vigil', protocolId: r.protocol, connectionType: CONNECTION.mqtt, channels: 2, samplingInterval: 600 },
  ]);
  await insertRows(db, 'wit_project', [
    { ...t, id: r.project, name: '设备测试台', code: 'BENCH', structureType: 7, address: '平台实验室', projectState: PROJECT_STATE.monitoring, remark: '出厂前联调设备' },
  ]);
  await insertRows(db, 'wit_device', [
    { ...t, id: r.device, code: 'BENCH-TILT-01', name: '测试倾角计', modelId: r.model, deviceTypeId: r.deviceType, projectId: r.project, installPosition: '测试台', samplingInterval: 60, online: 0 },
  ]);
  await insertRows(db, 'wit_device_point', [{ ...t, id: r.devicePoint, deviceId: r.device, pointKey: 'tilt_x', name: 'X向倾角', unit: '°', factorsItemId: r.factorsItem, precision: 4, channel: 1, sort: 1 }]);
  await insertRows(db, 'wit_monitor_point', [{ ...t, id: r.monitorPoint, projectId: r.project, factorsId: r.factors, name: '测试台测点', code: 'BENCH-MP-01', position: '测试台', initialValue: 0, sort: 1 }]);
}

type Catalogue = Record<string, string>;

/** The demo tenant's catalogue; returns ids by code. */
async function seedDemoCatalogue(db: Db): Promise<Catalogue> {
  const id = (key: string) => seedId(`monitoring:${DEMO}:${key}`);
  const t = { tenantId: DEMO };
  const ids: Catalogue = {};
  const types = [['deformation', '变形监测'], ['stress', '应力应变'], ['environment', '环境监测']] as const;
  await insertRows(db, 'wit_monitor_type', types.map(([code, name], i) => ({ ...t, id: (ids[`mt:${code}`] = id(`mt:${code}`)), name, code, sort: i + 1 })));
  const factors = [
    ['tilt', '倾斜', '°', 4, 'deformation'],
    ['crack', '裂缝宽度', 'mm', 2, 'deformation'],
    ['settlement', '沉降', 'mm', 2, 'deformation'],
    ['displacement', '位移', 'mm', 1, 'deformation'],
    ['strain', '应变', 'με', 1, 'stress'],
    ['rainfall', '雨量', 'mm', 1, 'environment'],
    ['temperature', '温度', '℃', 1, 'environment'],
    ['humidity', '湿度', '%RH', 1, 'environment'],
  ] as const;
  await insertRows(
    db,
    'wit_monitor_factors',
    factors.map(([code, name, unit, precision, type], i) => ({ ...t, id: (ids[`f:${code}`] = id(`f:${code}`)), monitorTypeId: ids[`mt:${type}`], name, code, unit, precision, sort: i + 1 })),
  );
  const kinds = [['raw', '原始值', ITEM_KIND.raw, ''], ['cumulative', '累计变化', ITEM_KIND.cumulative, ''], ['single', '单次变化', ITEM_KIND.single, ''], ['rate', '变化速率', ITEM_KIND.rate, '/d']] as const;
  await insertRows(
    db,
    'wit_monitor_factors_item',
    factors.flatMap(([factor, , unit, precision]) =>
      kinds.map(([kind, name, itemKind, per], i) => ({ ...t, id: (ids[`fi:${factor}_${kind}`] = id(`fi:${factor}_${kind}`)), factorsId: ids[`f:${factor}`], name, code: `${factor}_${kind}`, itemKind, unit: `${unit}${per}`, precision, sort: i + 1 })),
    ),
  );
  const deviceTypes = [
    ['inclinometer', '倾角计', 'deformation'],
    ['crack_meter', '裂缝计', 'deformation'],
    ['settlement_gauge', '静力水准仪', 'deformation'],
    ['gnss', 'GNSS接收机', 'deformation'],
    ['rain_gauge', '雨量计', 'environment'],
    ['thermo_hygrometer', '温湿度计', 'environment'],
    ['gateway', '网关', null],
  ] as const;
  await insertRows(db, 'wit_device_type', deviceTypes.map(([code, name, type], i) => ({ ...t, id: (ids[`dt:${code}`] = id(`dt:${code}`)), name, code, monitorTypeId: type ? ids[`mt:${type}`] : null, sort: i + 1 })));
  await insertRows(db, 'wit_protocol', [
    { ...t, id: (ids['p:json'] = id('p:json')), name: 'Vigil JSON', code: 'vigil-json', protocolType: PROTOCOL_KIND.json, version: '1.0', remark: 'MQTT 上报 {"ts":…, "values":{key: value}}' },
    { ...t, id: (ids['p:modbus'] = id('p:modbus')), name: '倾角计 Modbus', code: 'tilt-modbus', protocolType: PROTOCOL_KIND.modbusRtu, version: '1.0' },
  ]);
  const points = [
    ['tilt_x', 'X向倾角', '°'], ['tilt_y', 'Y向倾角', '°'], ['crack', '裂缝宽度', 'mm'], ['settlement', '沉降', 'mm'],
    ['dx', 'X向位移', 'mm'], ['dy', 'Y向位移', 'mm'], ['dz', '垂直位移', 'mm'], ['rainfall', '雨量', 'mm'],
    ['temperature', '温度', '℃'], ['humidity', '湿度', '%RH'], ['battery', '电池电压', 'V'],
  ] as const;
  await insertRows(db, 'wit_protocol_point', points.map(([key, name, unit], i) => ({ ...t, id: id(`pp:${key}`), protocolId: ids['p:json'], pointKey: key, name, unit, dataType: 'float', readWrite: 1, sort: i + 1 })));
  await insertRows(db, 'wit_protocol_modbus', [
    { ...t, id: id('pm:tilt_x'), protocolId: ids['p:modbus'], pointKey: 'tilt_x', name: 'X向倾角', slaveId: 1, functionCode: 3, register: 0, quantity: 2, dataType: 'float32', byteOrder: 'ABCD', scale: 1, offset: 0, unit: '°', readWrite: 1, sort: 1 },
    { ...t, id: id('pm:tilt_y'), protocolId: ids['p:modbus'], pointKey: 'tilt_y', name: 'Y向倾角', slaveId: 1, functionCode: 3, register: 2, quantity: 2, dataType: 'float32', byteOrder: 'ABCD', scale: 1, offset: 0, unit: '°', readWrite: 1, sort: 2 },
    { ...t, id: id('pm:interval'), protocolId: ids['p:modbus'], pointKey: 'interval', name: '采样间隔', slaveId: 1, functionCode: 6, register: 100, quantity: 1, dataType: 'uint16', byteOrder: 'ABCD', scale: 1, offset: 0, unit: 's', readWrite: 3, sort: 3 },
  ]);
  const models = [
    ['VG-TILT-2', '双轴倾角计', 'inclinometer', MODEL_KIND.sensor, CONNECTION.gateway, 2],
    ['VG-CRACK-1', '振弦式裂缝计', 'crack_meter', MODEL_KIND.sensor, CONNECTION.mqtt, 2],
    ['VG-HLS-1', '静力水准仪', 'settlement_gauge', MODEL_KIND.sensor, CONNECTION.gateway, 1],
    ['VG-GNSS-R', 'GNSS监测站', 'gnss', MODEL_KIND.sensor, CONNECTION.gateway, 3],
    ['VG-RAIN-1', '翻斗式雨量计', 'rain_gauge', MODEL_KIND.sensor, CONNECTION.mqtt, 1],
    ['VG-TH-1', '温湿度计', 'thermo_hygrometer', MODEL_KIND.sensor, CONNECTION.mqtt, 2],
    ['VG-GNSS-BASE', 'GNSS基准站网关', 'gateway', MODEL_KIND.gateway, CONNECTION.mqtt, 16],
  ] as const;
  await insertRows(
    db,
    'wit_device_model',
    models.map(([code, name, type, modelKind, connectionType, channels]) => ({
      ...t, id: (ids[`m:${code}`] = id(`m:${code}`)), name, code, deviceTypeId: ids[`dt:${type}`], modelKind, manufacturer: 'Vigil', protocolId: ids['p:json'], connectionType, channels, samplingInterval: 600,
    })),
  );
  await insertRows(db, 'wit_model_agreement', [{ ...t, id: id('ma:tilt-modbus'), modelId: ids['m:VG-TILT-2'], protocolId: ids['p:modbus'], isDefault: 0, remark: 'RS485 接入' }]);
  await insertRows(db, 'wit_temperature_coefficient', [
    { ...t, id: id('tc:crack:1'), modelId: ids['m:VG-CRACK-1'], channel: 1, coefficient: 0.0125, referenceTemperature: 20, unit: 'mm/℃' },
  ]);
  await insertRows(db, 'wit_device_attribute', [
    { ...t, id: id('da:crack:gauge'), deviceTypeId: ids['dt:crack_meter'], name: '标距', attrKey: 'gauge_length', unit: 'mm', dataType: 'float', sort: 1 },
    { ...t, id: id('da:hls:ref'), deviceTypeId: ids['dt:settlement_gauge'], projectType: 1, name: '基准点', attrKey: 'reference_point', dataType: 'string', sort: 1 },
  ]);
  return ids;
}

interface DemoDevice {
  code: string;
  name: string;
  model: string;
  type: string;
  group: string;
  viaGateway: boolean;
  position: string;
  points: ReadonlyArray<readonly [key: string, name: string, unit: string, factor: string]>;
  initial: Record<string, number>;
}

const DEMO_DEVICES: readonly DemoDevice[] = [
  { code: 'QJ-TILT-01', name: '1#塔顶倾角计', model: 'VG-TILT-2', type: 'inclinometer', group: 'tower1', viaGateway: true, position: '1#主塔塔顶', points: [['tilt_x', 'X向倾角', '°', 'tilt'], ['tilt_y', 'Y向倾角', '°', 'tilt']], initial: { tilt_x: 0.012, tilt_y: -0.008 } },
  { code: 'QJ-TILT-02', name: '2#塔顶倾角计', model: 'VG-TILT-2', type: 'inclinometer', group: 'tower2', viaGateway: true, position: '2#主塔塔顶', points: [['tilt_x', 'X向倾角', '°', 'tilt'], ['tilt_y', 'Y向倾角', '°', 'tilt']], initial: { tilt_x: -0.004, tilt_y: 0.006 } },
  { code: 'QJ-CRACK-01', name: '跨中底板裂缝计', model: 'VG-CRACK-1', type: 'crack_meter', group: 'midspan', viaGateway: false, position: '主跨跨中底板', points: [['crack', '裂缝宽度', 'mm', 'crack'], ['temperature', '温度', '℃', 'temperature']], initial: { crack: 0.21 } },
  { code: 'QJ-CRACK-02', name: '1/4跨腹板裂缝计', model: 'VG-CRACK-1', type: 'crack_meter', group: 'midspan', viaGateway: false, position: '主跨1/4跨腹板', points: [['crack', '裂缝宽度', 'mm', 'crack'], ['temperature', '温度', '℃', 'temperature']], initial: { crack: 0.15 } },
  { code: 'QJ-HLS-01', name: '跨中静力水准仪', model: 'VG-HLS-1', type: 'settlement_gauge', group: 'midspan', viaGateway: true, position: '主跨跨中', points: [['settlement', '沉降', 'mm', 'settlement']], initial: { settlement: 0 } },
  { code: 'QJ-HLS-02', name: '引桥墩静力水准仪', model: 'VG-HLS-1', type: 'settlement_gauge', group: 'approach', viaGateway: true, position: '引桥3#墩', points: [['settlement', '沉降', 'mm', 'settlement']], initial: { settlement: 0 } },
  { code: 'QJ-GNSS-01', name: '跨中GNSS监测站', model: 'VG-GNSS-R', type: 'gnss', group: 'midspan', viaGateway: true, position: '主跨跨中桥面', points: [['dx', 'X向位移', 'mm', 'displacement'], ['dy', 'Y向位移', 'mm', 'displacement'], ['dz', '垂直位移', 'mm', 'displacement']], initial: { dx: 0, dy: 0, dz: 0 } },
  { code: 'QJ-RAIN-01', name: '桥址雨量计', model: 'VG-RAIN-1', type: 'rain_gauge', group: 'approach', viaGateway: false, position: '南岸桥头', points: [['rainfall', '雨量', 'mm', 'rainfall']], initial: {} },
  { code: 'QJ-TH-01', name: '箱梁内温湿度计', model: 'VG-TH-1', type: 'thermo_hygrometer', group: 'midspan', viaGateway: false, position: '主跨箱梁内', points: [['temperature', '温度', '℃', 'temperature'], ['humidity', '湿度', '%RH', 'humidity']], initial: {} },
];

export const DEMO_GATEWAY_CODE = 'QJ-GW-01';
export const DEMO_DEVICE_CODES = DEMO_DEVICES.map((d) => d.code);

/** The demo bridge: project, groups, GNSS base-station gateway, devices with points, monitor points and bindings. */
async function seedDemoBridge(db: Db, ids: Catalogue): Promise<void> {
  const id = (key: string) => seedId(`monitoring:${DEMO}:${key}`);
  const t = { tenantId: DEMO };
  const categoryId = id('category:bridge');
  await insertRows(db, 'wit_project_category', [
    { ...t, id: categoryId, parentId: '0', name: '桥梁', code: 'bridge', sort: 1 },
    { ...t, id: id('category:cable'), parentId: categoryId, name: '斜拉桥', code: 'cable_stayed', sort: 1 },
    { ...t, id: id('category:slope'), parentId: '0', name: '边坡', code: 'slope', sort: 2 },
  ]);
  const customerId = id('customer:transport');
  await insertRows(db, 'wit_project_customer', [{ ...t, id: customerId, name: '省交通投资集团', linkman: '王工', phone: '13900139000', address: '杭州市钱江新城' }]);
  const projectId = id('project:bridge');
  await insertRows(db, 'wit_project', [
    {
      ...t, id: projectId, name: '钱塘江大桥健康监测', code: 'QJ-BRIDGE', categoryId: id('category:cable'), structureType: 1, regionCode: '330100', address: '浙江省杭州市钱塘江',
      longitude: 120.1436, latitude: 30.2103, customerId, projectState: PROJECT_STATE.monitoring, startDate: '2026-01-01 00:00:00', endDate: '2028-12-31 00:00:00', remark: '主跨 260 m 斜拉桥',
    },
  ]);
  const groups = [
    ['main', '0', '主桥', 1], ['tower1', 'main', '1#塔', 2], ['tower2', 'main', '2#塔', 2], ['midspan', 'main', '跨中', 2], ['approach', '0', '引桥', 1],
  ] as const;
  await insertRows(
    db,
    'wit_device_group',
    groups.map(([key, parent, name, level], i) => ({ ...t, id: id(`group:${key}`), projectId, parentId: parent === '0' ? '0' : id(`group:${parent}`), name, level, sort: i + 1 })),
  );
  const gatewayId = id('gateway:gnss-base');
  await insertRows(db, 'wit_gateway', [
    { ...t, id: gatewayId, code: DEMO_GATEWAY_CODE, name: 'GNSS基准站网关', parentId: '0', modelId: ids['m:VG-GNSS-BASE'], projectId, installPosition: '北岸基准站', longitude: 120.141, latitude: 30.2131, online: 0 },
  ]);
  await insertRows(
    db,
    'wit_device',
    DEMO_DEVICES.map((d, i) => ({
      ...t, id: id(`device:${d.code}`), code: d.code, name: d.name, modelId: ids[`m:${d.model}`], deviceTypeId: ids[`dt:${d.type}`], projectId,
      gatewayId: d.viaGateway ? gatewayId : null, groupId: id(`group:${d.group}`), address: d.viaGateway ? String(i + 1) : null, installPosition: d.position,
      samplingInterval: 600, initialValues: JSON.stringify(d.initial), online: 0, sort: i + 1,
    })),
  );
  await insertRows(
    db,
    'wit_device_point',
    DEMO_DEVICES.flatMap((d) =>
      d.points.map(([key, name, unit, factor], i) => ({
        ...t, id: id(`point:${d.code}:${key}`), deviceId: id(`device:${d.code}`), pointKey: key, name, unit, factorsItemId: ids[`fi:${factor}_raw`], precision: 2, channel: i + 1, sort: i + 1,
      })),
    ),
  );
  // One monitor point per measured channel, except the temperature channels that only compensate crack readings.
  const measured = DEMO_DEVICES.flatMap((d) => d.points.filter(([key]) => !(d.type === 'crack_meter' && key === 'temperature')).map((p) => [d, p] as const));
  await insertRows(
    db,
    'wit_monitor_point',
    measured.map(([d, [key, name, , factor]], i) => ({
      ...t, id: id(`mp:${d.code}:${key}`), projectId, factorsId: ids[`f:${factor}`], name: `${d.position}${name}`, code: `MP-${d.code.slice(3)}-${key}`.toUpperCase(),
      position: d.position, initialValue: d.initial[key] ?? 0, initialTime: '2026-01-01 00:00:00', sort: i + 1,
    })),
  );
  await insertRows(
    db,
    'wit_point_relation_device',
    measured.map(([d, [key]]) => ({ ...t, id: id(`bind:${d.code}:${key}`), monitorPointId: id(`mp:${d.code}:${key}`), deviceId: id(`device:${d.code}`), pointKey: key })),
  );
  await seedIdentities(db, [
    { id: id(`mqtt:${DEMO_GATEWAY_CODE}`), code: DEMO_GATEWAY_CODE, clientType: MQTT_CLIENT_TYPE.gateway, password: DEMO_GATEWAY_PASSWORD, remark: 'GNSS基准站网关' },
    ...DEMO_DEVICES.map((d) => ({ id: id(`mqtt:${d.code}`), code: d.code, clientType: MQTT_CLIENT_TYPE.device, password: DEMO_DEVICE_PASSWORD, remark: d.name })),
  ]);
}

/** Broker identities (username = client id = code), each with its own salted hash. */
async function seedIdentities(db: Db, identities: Array<{ id: string; code: string; clientType: number; password: string; remark: string }>): Promise<void> {
  const rows: Row[] = [];
  for (const i of identities) {
    rows.push({ id: i.id, tenantId: DEMO, username: i.code, password: await hashPassword(i.password), clientType: i.clientType, clientId: i.code, isSuperuser: 0, remark: i.remark });
  }
  await insertRows(db, 'wit_mqtt_user', rows);
}

export async function seedMonitoring(db: Db): Promise<void> {
  await seedReference(db);
  await seedDemoBridge(db, await seedDemoCatalogue(db));
}

/**
 * Seed step 0007_demo_point_precision: the demo bridge's device points were seeded with 2 decimals, which shows a tower's
 * tilt of 0.0004° as 0.00. Each takes its factor item's precision (tilt 4), unless an administrator changed it since.
 */
export async function seedDemoPointPrecision(db: Db): Promise<void> {
  const points = await db
    .selectFrom('wit_device_point')
    .innerJoin('wit_monitor_factors_item', 'wit_monitor_factors_item.id', 'wit_device_point.factorsItemId')
    .select(['wit_device_point.id', 'wit_monitor_factors_item.precision'])
    .where('wit_device_point.tenantId', '=', DEMO)
    .where('wit_device_point.precision', '=', 2)
    .execute();
  const seeded = new Set(DEMO_DEVICES.flatMap((d) => d.points.map(([key]) => seedId(`monitoring:${DEMO}:point:${d.code}:${key}`))));
  for (const point of points) {
    if (seeded.has(point.id) && point.precision !== null && point.precision !== 2) {
      await db.updateTable('wit_device_point').set({ precision: point.precision }).where('id', '=', point.id).execute();
    }
  }
}
