import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, decimal, id, int, required, text } from '../fields';
import { device } from './device';
import { REFERENCE_IDS } from './examples';
import { code, coordinatesWithElevation, pointKey, project } from './project';

/** A position on the wall-screen image: a fraction of its width or height. */
export const screenFraction = () => decimal().refine((v) => v >= 0 && v <= 1, '位置应在 0 到 1 之间');

/** How a factor item derives from the raw value: the ingestion pipeline computes each kind. */
export const ITEM_KIND = { raw: 1, cumulative: 2, single: 3, rate: 4 } as const;

/** A family of monitoring (监测类型): deformation, stress and strain, environment, vibration… */
export const monitorType = defineResource({
  service: 'wit-xinde',
  name: 'monitortype',
  menu: 'monitor_type',
  table: 'wit_monitor_type',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入类型名称', 64),
    code: code('请输入类型编号'),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectList'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['code'], message: '类型编号已存在' }],
  inUse: '监测类型已被使用,不能删除',
  example: { name: '振动监测', code: 'vibration', sort: 9 },
});

/** A physical quantity (监测因素) with its unit and display precision: settlement mm, tilt °, crack width mm… */
export const monitorFactors = defineResource({
  service: 'wit-xinde',
  name: 'monitorfactors',
  menu: 'monitor_factors',
  table: 'wit_monitor_factors',
  tenancy: 'tenant',
  fields: z.object({
    monitorTypeId: id().nullish(),
    name: required('请输入因素名称', 64),
    code: code('请输入因素编号'),
    unit: text(32).nullish(),
    precision: int().min(0, '精度应在 0 到 6 之间').max(6, '精度应在 0 到 6 之间').nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['code'], message: '因素编号已存在' }],
  references: { monitorTypeId: { to: () => monitorType, missing: '监测类型不存在', as: 'monitorTypeName' } },
  inUse: '监测因素已被使用,不能删除',
  example: { name: '加速度', code: 'acceleration', unit: 'm/s²', precision: 4 },
});

/** What is derived from a factor's value (因素项): the raw value, cumulative change, single change, rate. */
export const monitorFactorsItem = defineResource({
  service: 'wit-xinde',
  name: 'monitorfactorsitem',
  menu: 'monitor_factors',
  table: 'wit_monitor_factors_item',
  tenancy: 'tenant',
  fields: z.object({
    factorsId: id('请选择监测因素'),
    name: required('请输入因素项名称', 64),
    code: pointKey(),
    itemKind: int().min(1).max(4, '因素项类别应为 1 原始值、2 累计变化、3 单次变化、4 变化速率').optional(),
    unit: text(32).nullish(),
    precision: int().min(0).max(6, '精度应在 0 到 6 之间').nullish(),
    sort: int().nullish(),
  }),
  variants: ['selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['factorsId', 'code'], message: '因素项编号已存在' }],
  references: { factorsId: { to: () => monitorFactors, missing: '监测因素不存在', as: 'factorsName' } },
  inUse: '因素项已被设备点位使用,不能删除',
  example: { factorsId: REFERENCE_IDS.factors, name: '日变化速率', code: 'daily_rate', itemKind: 4, unit: 'mm/d', precision: 3 },
});

/** A place on the structure that is watched (监测点), with its factor and the initial value changes count from. */
export const monitorPoint = defineResource({
  service: 'wit-xinde',
  name: 'monitorpoint',
  menu: 'monitor_point',
  table: 'wit_monitor_point',
  tenancy: 'tenant',
  fields: z.object({
    projectId: id('请选择项目'),
    factorsId: id().nullish(),
    name: required('请输入监测点名称', 64),
    code: code('请输入监测点编号'),
    position: text().nullish(),
    ...coordinatesWithElevation(),
    initialValue: decimal().nullish(),
    initialTime: datetime().nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
    /** Where the point sits on its project's wall-screen image, as fractions of its width and height. */
    screenX: screenFraction().nullish(),
    screenY: screenFraction().nullish(),
  }),
  variants: ['select'],
  projectField: 'projectId',
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['projectId', 'code'], message: '监测点编号已存在' }],
  references: {
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
    factorsId: { to: () => monitorFactors, missing: '监测因素不存在', as: 'factorsName' },
  },
  example: { projectId: REFERENCE_IDS.project, factorsId: REFERENCE_IDS.factors, name: '示例测点', code: 'EX-MP-09', position: '跨中', initialValue: 0 },
});

/** Binds a device, or one of its channels, to a monitor point (测点绑定设备). */
export const pointRelationDevice = defineResource({
  service: 'wit-xinde',
  name: 'pointrelationdevice',
  menu: 'monitor_point',
  table: 'wit_point_relation_device',
  tenancy: 'tenant',
  fields: z.object({
    monitorPointId: id('请选择监测点'),
    deviceId: id('请选择设备'),
    /** The channel; empty binds the whole device. */
    pointKey: text(64).nullish(),
    remark: text().nullish(),
  }),
  projectField: 'monitorPointId',
  projectThrough: ['wit_monitor_point.project_id'],
  unique: [{ fields: ['monitorPointId', 'deviceId', 'pointKey'], message: '该设备已绑定此监测点' }],
  references: {
    monitorPointId: { to: () => monitorPoint, missing: '监测点不存在', as: 'monitorPointName' },
    deviceId: { to: () => device, missing: '设备不存在', as: 'deviceName' },
  },
  example: { monitorPointId: REFERENCE_IDS.monitorPoint, deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x' },
});

/** Items a report shows (监测项): a factor item of a monitor type under a report title. */
export const monitorItem = defineResource({
  service: 'wit-xinde',
  name: 'monitoritem',
  menu: 'monitor_item',
  table: 'wit_monitor_item',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入监测项名称', 64),
    code: code('请输入监测项编号'),
    monitorTypeId: id().nullish(),
    factorsId: id().nullish(),
    factorsItemId: id().nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['code'], message: '监测项编号已存在' }],
  // Report items name what they show; they do not keep it from removal.
  references: {
    monitorTypeId: { to: () => monitorType, missing: '监测类型不存在', holds: false },
    factorsId: { to: () => monitorFactors, missing: '监测因素不存在', holds: false },
    factorsItemId: { to: () => monitorFactorsItem, missing: '因素项不存在', holds: false },
  },
  example: { name: '示例监测项', code: 'ex_item', factorsId: REFERENCE_IDS.factors, sort: 9 },
});
