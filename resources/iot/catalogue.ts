import { z } from 'zod';
import { defineResource } from '../define';
import { decimal, id, int, required, text } from '../fields';
import { REFERENCE_IDS } from './examples';
import { monitorType } from './monitoring';
import { code, pointKey } from './project';

/** How a model's devices reach the platform. */
export const CONNECTION = { mqtt: 1, gateway: 2, collector: 3 } as const;
/** What a model is: a sensor, a gateway (DTU, GNSS base station) or a collector (采集器, reads sensors by wire). */
export const MODEL_KIND = { sensor: 1, gateway: 2, collector: 3 } as const;
export const PROTOCOL_KIND = { json: 1, modbusRtu: 2, modbusTcp: 3, custom: 4 } as const;
/** Point access: 1 read, 2 write, 3 read and write. */
export const READ_WRITE = { read: 1, write: 2, both: 3 } as const;
export const DATA_TYPES = ['int', 'float', 'bool', 'string'] as const;
export const MODBUS_TYPES = ['int16', 'uint16', 'int32', 'uint32', 'float32', 'float64', 'bool'] as const;
export const BYTE_ORDERS = ['ABCD', 'DCBA', 'BADC', 'CDAB'] as const;
export const MODBUS_FUNCTIONS = [1, 2, 3, 4, 5, 6, 15, 16] as const;

const readWrite = () => z.coerce.number<unknown>().int().min(1, '读写类型应为 1 读、2 写、3 读写').max(3, '读写类型应为 1 读、2 写、3 读写');

/** What a device measures (设备类型): inclinometer, crack meter, GNSS, rain gauge… */
export const deviceType = defineResource({
  service: 'wit-xinde',
  name: 'devicetype',
  menu: 'device_type',
  table: 'wit_device_type',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入类型名称', 64),
    code: code('请输入类型编号'),
    monitorTypeId: id().nullish(),
    icon: text().nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectList', 'selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['code'], message: '类型编号已存在' }],
  references: { monitorTypeId: { to: () => monitorType, missing: '监测类型不存在', as: 'monitorTypeName' } },
  inUse: '设备类型已被使用,不能删除',
  example: { name: '加速度计', code: 'accelerometer', sort: 9, remark: '振动监测' },
});

/** Attributes a device of a type carries (设备属性), optionally only on one structure type. */
export const deviceAttribute = defineResource({
  service: 'wit-xinde',
  name: 'deviceattribute',
  menu: 'device_type',
  table: 'wit_device_attribute',
  tenancy: 'tenant',
  fields: z.object({
    deviceTypeId: id('请选择设备类型'),
    projectType: int().nullish(),
    name: required('请输入属性名称', 64),
    attrKey: pointKey(),
    unit: text(32).nullish(),
    dataType: z.enum(DATA_TYPES, { error: '数据类型应为 int、float、bool 或 string' }).optional(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['deviceTypeId', 'attrKey', 'projectType'], message: '属性标识已存在' }],
  references: { deviceTypeId: { to: () => deviceType, missing: '设备类型不存在' } },
  example: { deviceTypeId: REFERENCE_IDS.deviceType, name: '安装深度', attrKey: 'depth', unit: 'm', dataType: 'float' },
});

/** A maker's model (设备型号): what it is, how it connects, which protocol it speaks, how raw values convert. */
export const deviceModel = defineResource({
  service: 'wit-xinde',
  name: 'devicemodel',
  menu: 'device_model',
  table: 'wit_device_model',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入型号名称', 64),
    code: code('请输入型号编号'),
    deviceTypeId: id().nullish(),
    modelKind: int().min(1).max(3, '型号类别应为 1 传感器、2 网关、3 采集器').optional(),
    manufacturer: text(128).nullish(),
    protocolId: id().nullish(),
    connectionType: int().min(1).max(3, '接入方式应为 1 直连MQTT、2 网关、3 采集器').optional(),
    channels: int().min(0, '通道数不能为负').max(1024).optional(),
    samplingInterval: int().min(1, '采样间隔至少1秒').nullish(),
    formula: text(500).nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  unique: [{ fields: ['code'], message: '型号编号已存在' }],
  references: {
    deviceTypeId: { to: () => deviceType, missing: '设备类型不存在', as: 'deviceTypeName' },
    protocolId: { to: () => protocol, missing: '协议不存在', as: 'protocolName' },
  },
  inUse: '设备型号已被使用,不能删除',
  example: { name: '示例振弦采集模块', code: 'EX-VW-08', modelKind: 3, manufacturer: '示例传感', connectionType: 1, channels: 8, samplingInterval: 600 },
});

/** A message format (通讯协议): its points, and for Modbus its register variables. */
export const protocol = defineResource({
  service: 'wit-xinde',
  name: 'protocol',
  menu: 'protocol_list',
  table: 'wit_protocol',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入协议名称', 64),
    code: code('请输入协议编号'),
    protocolType: int().min(1).max(4, '协议类型应为 1 JSON、2 Modbus RTU、3 Modbus TCP、4 自定义').optional(),
    version: text(32).nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  unique: [{ fields: ['code'], message: '协议编号已存在' }],
  inUse: '协议已被设备型号使用,不能删除',
  example: { name: '示例 Modbus 协议', code: 'EX-MODBUS', protocolType: 2, version: '1.0' },
});

/** The protocols a model may speak (型号协议); one may be its default. */
export const modelAgreement = defineResource({
  service: 'wit-xinde',
  name: 'modelagreement',
  menu: 'model_agreement',
  table: 'wit_model_agreement',
  tenancy: 'tenant',
  fields: z.object({
    modelId: id('请选择设备型号'),
    protocolId: id('请选择协议'),
    isDefault: int().min(0).max(1).optional(),
    remark: text().nullish(),
  }),
  unique: [{ fields: ['modelId', 'protocolId'], message: '该型号已关联此协议' }],
  references: {
    // A model's agreements do not keep the model (its devices and gateways do); they keep the protocol.
    modelId: { to: () => deviceModel, missing: '设备型号不存在', as: 'modelName', holds: false },
    protocolId: { to: () => protocol, missing: '协议不存在', as: 'protocolName' },
  },
  example: { modelId: REFERENCE_IDS.model, protocolId: REFERENCE_IDS.protocol, isDefault: 0, remark: '备用协议' },
});

/** A value a protocol carries (协议点位). */
export const protocolPoint = defineResource({
  service: 'wit-xinde',
  name: 'protocolpoint',
  menu: 'protocol_list',
  table: 'wit_protocol_point',
  tenancy: 'tenant',
  fields: z.object({
    protocolId: id('请选择协议'),
    pointKey: pointKey(),
    name: required('请输入点位名称', 64),
    unit: text(32).nullish(),
    dataType: z.enum(DATA_TYPES, { error: '数据类型应为 int、float、bool 或 string' }).optional(),
    readWrite: readWrite().optional(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['protocolId', 'pointKey'], message: '点位标识已存在' }],
  // A protocol's own points and variables do not keep it from removal; models using it do.
  references: { protocolId: { to: () => protocol, missing: '协议不存在', holds: false } },
  example: { protocolId: REFERENCE_IDS.protocol, pointKey: 'battery', name: '电池电压', unit: 'V', dataType: 'float', readWrite: 1 },
});

/** A Modbus variable of a protocol (Modbus 变量): where to read it and how to turn registers into a value. */
export const protocolModbus = defineResource({
  service: 'wit-xinde',
  name: 'protocolmodbus',
  menu: 'protocol_modbus',
  table: 'wit_protocol_modbus',
  tenancy: 'tenant',
  fields: z.object({
    protocolId: id('请选择协议'),
    pointKey: pointKey(),
    name: required('请输入变量名称', 64),
    slaveId: int().min(0).max(247, '从站地址应在 0 到 247 之间').optional(),
    functionCode: z.coerce.number<unknown>().refine((v) => (MODBUS_FUNCTIONS as readonly number[]).includes(v), '功能码应为 1、2、3、4、5、6、15 或 16'),
    register: int().min(0, '寄存器地址应在 0 到 65535 之间').max(65535, '寄存器地址应在 0 到 65535 之间'),
    quantity: int().min(1).max(125, '寄存器数量应在 1 到 125 之间').optional(),
    dataType: z.enum(MODBUS_TYPES, { error: '数据类型应为 int16、uint16、int32、uint32、float32、float64 或 bool' }),
    byteOrder: z.enum(BYTE_ORDERS, { error: '字节序应为 ABCD、DCBA、BADC 或 CDAB' }).optional(),
    scale: decimal().optional(),
    offset: decimal().optional(),
    unit: text(32).nullish(),
    readWrite: readWrite().optional(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['protocolId', 'pointKey'], message: '变量标识已存在' }],
  references: { protocolId: { to: () => protocol, missing: '协议不存在', holds: false } },
  example: { protocolId: REFERENCE_IDS.protocol, pointKey: 'freq_1', name: '通道1频率', slaveId: 1, functionCode: 3, register: 100, quantity: 2, dataType: 'float32', byteOrder: 'ABCD', scale: 1, offset: 0, unit: 'Hz' },
});

/**
 * Temperature compensation of a model's channel (温度系数): value += k × (T − T0), with k in the channel's unit
 * per °C and T0 the reference temperature in °C.
 */
export const temperatureCoefficient = defineResource({
  service: 'wit-xinde',
  name: 'temperaturecoefficient',
  menu: 'temperature_coefficient',
  table: 'wit_temperature_coefficient',
  tenancy: 'tenant',
  fields: z.object({
    modelId: id('请选择设备型号'),
    channel: int().min(0, '通道号不能为负'),
    coefficient: decimal(),
    referenceTemperature: decimal().optional(),
    unit: text(32).nullish(),
    remark: text().nullish(),
  }),
  orderBy: [{ field: 'channel' }],
  unique: [{ fields: ['modelId', 'channel'], message: '该型号通道的温度系数已存在' }],
  references: { modelId: { to: () => deviceModel, missing: '设备型号不存在', as: 'modelName', holds: false } },
  example: { modelId: REFERENCE_IDS.model, channel: 7, coefficient: 0.0121, referenceTemperature: 20, unit: 'mm/℃' },
});
