import { z } from 'zod';
import { defineResource, type Resource } from '../define';
import { datetime, id, int, required, text } from '../fields';
import { deviceModel, deviceType } from './catalogue';
import { REFERENCE_IDS } from './examples';
import { monitorFactorsItem } from './monitoring';
import { code, coordinates, coordinatesWithElevation, pointKey, project } from './project';

/** A JSON object of values by point key, stored as text (`{"tilt_x": 0.012}`). */
const valuesJson = () =>
  z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .transform((value, ctx) => {
      if (typeof value !== 'string') return JSON.stringify(value);
      if (value.trim() === '') return null;
      try {
        const parsed: unknown = JSON.parse(value);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return value;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: '初始值应为 JSON 对象' });
      return z.NEVER;
    });

const online = () => int().min(0).max(1);

/**
 * A gateway (网关): a DTU, GNSS base station or collector that publishes for several devices. Its code is its MQTT
 * client id; gateways may hang below another gateway (parentId).
 */
export const gateway = defineResource({
  service: 'wit-xinde',
  name: 'gateway',
  menu: 'gateway',
  table: 'wit_gateway',
  tenancy: 'tenant',
  fields: z.object({
    code: code('请输入网关编号'),
    name: required('请输入网关名称', 64),
    parentId: id().optional(),
    modelId: id().nullish(),
    projectId: id().nullish(),
    installPosition: text().nullish(),
    ...coordinates(),
    ip: text(64).nullish(),
    firmware: text(64).nullish(),
    online: online().optional(),
    lastSeen: datetime().nullish(),
    remark: text().nullish(),
  }),
  parentField: 'parentId',
  projectField: 'projectId',
  // One broker serves every tenant and a client id can be connected once: codes are unique on the platform.
  unique: [{ fields: ['code'], message: '网关编号已存在', acrossTenants: true }],
  references: {
    modelId: { to: () => deviceModel, missing: '网关型号不存在', as: 'modelName' },
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
    parentId: { to: (): Resource => gateway, missing: '上级网关不存在' },
  },
  example: { code: 'EX-GW-01', name: '示例网关', installPosition: '机房', ip: '10.0.0.8', firmware: '2.1.0' },
});

/** Online/offline transitions of gateways (网关状态), written by the broker on connect, disconnect and last will. */
export const gatewayState = defineResource({
  service: 'wit-xinde',
  name: 'gatewaystate',
  menu: 'gateway_state',
  table: 'wit_gateway_state',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    gatewayId: id(),
    gatewayCode: text(64),
    projectId: id().nullish(),
    online: online(),
    reason: text(32).nullish(),
    clientIp: text(64).nullish(),
    stateTime: datetime(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'stateTime', desc: true }],
  references: { gatewayId: { to: () => gateway, missing: '网关不存在', as: 'gatewayName' } },
});

/** Groups of a project's devices (设备分组, spec §3 "Device group"): a tree whose depth is `level` (1 = top). */
export const deviceGroup = defineResource({
  service: 'wit-xinde',
  name: 'devicegroup',
  menu: 'device_list',
  table: 'wit_device_group',
  tenancy: 'tenant',
  ownRoutes: true,
  fields: z.object({
    projectId: id('请选择项目'),
    parentId: id().optional(),
    name: required('请输入分组名称', 64),
    level: int().min(1, '分组层级从1开始').max(10, '分组最多10级').optional(),
    sort: int().nullish(),
  }),
  parentField: 'parentId',
  projectField: 'projectId',
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['projectId', 'parentId', 'name'], message: '同级分组名称已存在' }],
  references: { projectId: { to: () => project, missing: '项目不存在或无权操作' } },
});

/**
 * A device (设备): a sensor on the structure. Its code is its MQTT client id (direct devices) or the id its gateway
 * reports it under. Values are keyed by point key; `initialValues` are the zero readings changes are measured from.
 */
export const device = defineResource({
  service: 'wit-xinde',
  name: 'device',
  menu: 'device_list',
  table: 'wit_device',
  tenancy: 'tenant',
  fields: z.object({
    code: code('请输入设备编号'),
    name: required('请输入设备名称', 64),
    modelId: id().nullish(),
    deviceTypeId: id().nullish(),
    projectId: id().nullish(),
    gatewayId: id().nullish(),
    groupId: id().nullish(),
    /** Address of the device behind its gateway or collector (Modbus slave id, channel). */
    address: text(32).nullish(),
    installPosition: text().nullish(),
    ...coordinatesWithElevation(),
    installTime: datetime().nullish(),
    samplingInterval: int().min(1, '采样间隔至少1秒').nullish(),
    initialValues: valuesJson().nullish(),
    online: online().optional(),
    lastSeen: datetime().nullish(),
    lastValues: valuesJson().nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['select', 'selectList'],
  projectField: 'projectId',
  unique: [{ fields: ['code'], message: '设备编号已存在', acrossTenants: true }],
  references: {
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
    modelId: { to: () => deviceModel, missing: '设备型号不存在', as: 'modelName' },
    deviceTypeId: { to: () => deviceType, missing: '设备类型不存在', as: 'deviceTypeName' },
    gatewayId: { to: () => gateway, missing: '网关不存在', as: 'gatewayName' },
    groupId: { to: () => deviceGroup, missing: '设备分组不存在', as: 'groupName' },
  },
  example: { code: 'EX-DEV-01', name: '示例倾角计', installPosition: '1#墩顶', samplingInterval: 600, initialValues: { tilt_x: 0.01, tilt_y: -0.02 } },
});

/** A device's channel (设备点位): the key its values arrive under, what quantity it is, how it is shown. */
export const devicePoint = defineResource({
  service: 'wit-xinde',
  name: 'devicepoint',
  menu: 'device_point',
  table: 'wit_device_point',
  tenancy: 'tenant',
  fields: z.object({
    deviceId: id('请选择设备'),
    pointKey: pointKey(),
    name: required('请输入点位名称', 64),
    unit: text(32).nullish(),
    factorsItemId: id().nullish(),
    precision: int().min(0, '精度应在 0 到 6 之间').max(6, '精度应在 0 到 6 之间').nullish(),
    channel: int().min(0, '通道号不能为负').nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['select', 'selectList'],
  projectField: 'deviceId',
  projectThrough: ['wit_device.project_id'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['deviceId', 'pointKey'], message: '该设备的点位标识已存在' }],
  references: {
    deviceId: { to: () => device, missing: '设备不存在', as: 'deviceName' },
    factorsItemId: { to: () => monitorFactorsItem, missing: '因素项不存在', as: 'factorsItemName' },
  },
  example: { deviceId: REFERENCE_IDS.device, pointKey: 'temp', name: '温度', unit: '℃', precision: 1, channel: 9 },
});

/** Extra settings of a device point (点位属性): calibration constants such as gauge factor or initial frequency. */
export const devicePointAtt = defineResource({
  service: 'wit-xinde',
  name: 'devicepointatt',
  menu: 'device_point',
  table: 'wit_device_point_att',
  tenancy: 'tenant',
  fields: z.object({
    pointId: id('请选择设备点位'),
    attrKey: pointKey(),
    attrValue: required('请输入属性值', 255),
    unit: text(32).nullish(),
    remark: text().nullish(),
  }),
  projectField: 'pointId',
  projectThrough: ['wit_device_point.device_id', 'wit_device.project_id'],
  unique: [{ fields: ['pointId', 'attrKey'], message: '该点位的属性已存在' }],
  references: { pointId: { to: () => devicePoint, missing: '设备点位不存在', as: 'pointName' } },
  example: { pointId: REFERENCE_IDS.devicePoint, attrKey: 'gauge_factor', attrValue: '3.52', remark: '出厂标定系数' },
});

/** Devices with the names of their project, model, type, gateway and group (设备视图), read-only. */
export const viewDevice = defineResource({
  ...device,
  name: 'viewdevice',
  readOnly: true,
  variants: ['page'],
  unique: undefined,
  example: undefined,
});
