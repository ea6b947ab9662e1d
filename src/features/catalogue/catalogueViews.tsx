import { msg } from '@lingui/core/macro';
import {
  deviceAttribute,
  deviceModel,
  deviceType,
  modelAgreement,
  protocol,
  protocolModbus,
  protocolPoint,
  temperatureCoefficient,
} from '../../../resources/iot/catalogue';
import { devicePoint } from '../../../resources/iot/device';
import type { Row } from '../../crud/api';
import { type ChildTable, childOf } from '../../crud/ChildTablePage';
import type { CrudView } from '../../crud/types';
import { derived, options } from '../../crud/viewHelpers';

/** Screens of the device catalogue (docs/data-model.md "Device catalogue") and the devices' points. */

const DATA_TYPE = options(['int', msg`整数`], ['float', msg`浮点数`], ['bool', msg`布尔`], ['string', msg`字符串`]);
const READ_WRITE = options(['1', msg`只读`], ['2', msg`只写`], ['3', msg`读写`]);

/** 设备类型 */
export const deviceTypeView: CrudView<typeof deviceType> = {
  resource: deviceType,
  fields: [
    { name: 'name', label: msg`类型名称`, search: true, required: msg`请输入类型名称`, width: 160 },
    { name: 'code', label: msg`类型编号`, search: true, required: msg`请输入类型编号`, width: 160 },
    { name: 'monitorTypeId', label: msg`监测类型`, width: 140 },
    { name: 'icon', label: msg`图标`, width: 100 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, width: 200 },
  ],
};

/** 设备属性, a device type's child table. */
const deviceAttributeView: CrudView<typeof deviceAttribute> = {
  resource: deviceAttribute,
  fields: [
    { name: 'deviceTypeId', label: msg`设备类型`, required: msg`请选择设备类型` },
    { name: 'name', label: msg`属性名称`, search: true, required: msg`请输入属性名称`, width: 140 },
    { name: 'attrKey', label: msg`属性标识`, required: msg`请输入点位标识`, width: 130 },
    { name: 'projectType', label: msg`适用结构类型`, widget: { type: 'select', dict: 'structure_type' }, width: 120 },
    { name: 'unit', label: msg`单位`, width: 70 },
    { name: 'dataType', label: msg`数据类型`, widget: DATA_TYPE, width: 90 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

export const deviceAttributes = (title: (row: Row) => string): ChildTable<typeof deviceAttribute> => ({
  action: { key: 'attributes', label: msg`设备属性`, icon: 'properties' },
  title,
  view: (parent) => childOf(deviceAttributeView, 'deviceTypeId', parent),
});

/** The formula language of docs/ingest.md, told next to the field. */
const FORMULA_HELP = msg`留空为原值。可用数字、x(原始值)、x0(初始值)、T(温度)、+ - * / ^、括号和函数 abs sqrt exp ln log10 sin cos tan asin acos atan atan2 min max pow round floor ceil,例如 (x - x0) * 1000;各点位不同时填写以点位标识为键的 JSON 对象。`;

/** 设备型号 */
export const deviceModelView: CrudView<typeof deviceModel> = {
  resource: deviceModel,
  dialogWidth: 760,
  fields: [
    { name: 'name', label: msg`型号名称`, search: true, required: msg`请输入型号名称`, width: 160 },
    { name: 'code', label: msg`型号编号`, search: true, required: msg`请输入型号编号`, width: 140 },
    { name: 'deviceTypeId', label: msg`设备类型`, span: 12, width: 110 },
    { name: 'modelKind', label: msg`型号类别`, widget: options(['1', msg`传感器`], ['2', msg`网关`], ['3', msg`采集器`]), initial: '1', search: true, width: 90 },
    { name: 'connectionType', label: msg`接入方式`, widget: options(['1', msg`直连MQTT`], ['2', msg`网关`], ['3', msg`采集器`]), initial: '1', width: 100 },
    { name: 'protocolId', label: msg`默认协议`, span: 12, width: 130 },
    { name: 'manufacturer', label: msg`生产厂家`, width: 120 },
    { name: 'channels', label: msg`通道数`, widget: { type: 'number', min: 0, max: 1024 }, width: 70 },
    { name: 'samplingInterval', label: msg`采样间隔(秒)`, widget: { type: 'number', min: 1 }, width: 100 },
    { name: 'formula', label: msg`换算公式`, widget: { type: 'textarea', rows: 3 }, help: FORMULA_HELP, width: 200 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

const PROTOCOL_TYPE = options(['1', msg`JSON(MQTT)`], ['2', msg`Modbus RTU`], ['3', msg`Modbus TCP`], ['4', msg`自定义`]);

/** 协议列表 */
export const protocolView: CrudView<typeof protocol> = {
  resource: protocol,
  fields: [
    { name: 'name', label: msg`协议名称`, search: true, required: msg`请输入协议名称`, width: 160 },
    { name: 'code', label: msg`协议编号`, search: true, required: msg`请输入协议编号`, width: 140 },
    { name: 'protocolType', label: msg`协议类型`, widget: PROTOCOL_TYPE, initial: '1', search: true, width: 120 },
    { name: 'version', label: msg`版本`, width: 80 },
    { name: 'remark', label: msg`备注`, span: 24, width: 200 },
  ],
};

/** 协议点位, a protocol's child table. */
const protocolPointView: CrudView<typeof protocolPoint> = {
  resource: protocolPoint,
  fields: [
    { name: 'protocolId', label: msg`协议`, required: msg`请选择协议` },
    { name: 'pointKey', label: msg`点位标识`, search: true, required: msg`请输入点位标识`, width: 130 },
    { name: 'name', label: msg`点位名称`, search: true, required: msg`请输入点位名称`, width: 140 },
    { name: 'unit', label: msg`单位`, width: 70 },
    { name: 'dataType', label: msg`数据类型`, widget: DATA_TYPE, width: 90 },
    { name: 'readWrite', label: msg`读写类型`, widget: READ_WRITE, initial: '1', width: 80 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

export const protocolPoints = (title: (row: Row) => string): ChildTable<typeof protocolPoint> => ({
  action: { key: 'points', label: msg`协议点位`, icon: 'list' },
  title,
  view: (parent) => childOf(protocolPointView, 'protocolId', parent),
});

/** Modbus变量 */
export const protocolModbusView: CrudView<typeof protocolModbus> = {
  resource: protocolModbus,
  dialogWidth: 760,
  fields: [
    { name: 'protocolId', label: msg`协议`, required: msg`请选择协议`, search: true, hideInTable: true, span: 12 },
    { name: 'pointKey', label: msg`变量标识`, search: true, required: msg`请输入点位标识`, width: 120 },
    { name: 'name', label: msg`变量名称`, required: msg`请输入变量名称`, width: 130 },
    { name: 'slaveId', label: msg`从站地址`, widget: { type: 'number', min: 0, max: 247 }, initial: 1, width: 80 },
    { name: 'functionCode', label: msg`功能码`, widget: options(['1', msg`01 读线圈`], ['2', msg`02 读离散输入`], ['3', msg`03 读保持寄存器`], ['4', msg`04 读输入寄存器`], ['5', msg`05 写单个线圈`], ['6', msg`06 写单个寄存器`], ['15', msg`15 写多个线圈`], ['16', msg`16 写多个寄存器`]), initial: '3', required: msg`请选择功能码`, width: 130 },
    { name: 'register', label: msg`寄存器地址`, widget: { type: 'number', min: 0, max: 65535 }, required: msg`请输入寄存器地址`, width: 90 },
    { name: 'quantity', label: msg`寄存器数量`, widget: { type: 'number', min: 1, max: 125 }, width: 90 },
    { name: 'dataType', label: msg`数据类型`, widget: options(['int16', msg`int16`], ['uint16', msg`uint16`], ['int32', msg`int32`], ['uint32', msg`uint32`], ['float32', msg`float32`], ['float64', msg`float64`], ['bool', msg`bool`]), initial: 'uint16', required: msg`请选择数据类型`, width: 90 },
    { name: 'byteOrder', label: msg`字节序`, widget: options(['ABCD', msg`ABCD 大端`], ['DCBA', msg`DCBA 小端`], ['BADC', msg`BADC`], ['CDAB', msg`CDAB 字交换`]), initial: 'ABCD', width: 100 },
    { name: 'scale', label: msg`倍率`, widget: { type: 'number' }, initial: 1, width: 70 },
    { name: 'offset', label: msg`偏移`, widget: { type: 'number' }, initial: 0, width: 70 },
    { name: 'unit', label: msg`单位`, width: 70 },
    { name: 'readWrite', label: msg`读写类型`, widget: READ_WRITE, initial: '1', width: 80 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

/** 型号协议 */
export const modelAgreementView: CrudView<typeof modelAgreement> = {
  resource: modelAgreement,
  fields: [
    { name: 'modelId', label: msg`设备型号`, required: msg`请选择设备型号`, search: true, span: 12, width: 180 },
    { name: 'protocolId', label: msg`协议`, required: msg`请选择协议`, search: true, span: 12, width: 180 },
    { name: 'isDefault', label: msg`默认协议`, widget: { type: 'switch', dict: 'yes_no' }, initial: 0, width: 90 },
    { name: 'remark', label: msg`备注`, span: 24, width: 200 },
  ],
};

/** 温度系数 */
export const temperatureCoefficientView: CrudView<typeof temperatureCoefficient> = {
  resource: temperatureCoefficient,
  fields: [
    { name: 'modelId', label: msg`设备型号`, required: msg`请选择设备型号`, search: true, span: 12, width: 180 },
    { name: 'channel', label: msg`通道`, widget: { type: 'number', min: 0 }, required: msg`请输入通道`, width: 70 },
    { name: 'coefficient', label: msg`温度系数 k`, widget: { type: 'number' }, required: msg`请输入温度系数`, width: 110 },
    { name: 'referenceTemperature', label: msg`基准温度 T0(℃)`, widget: { type: 'number' }, initial: 20, width: 120 },
    { name: 'unit', label: msg`单位`, width: 90 },
    { name: 'remark', label: msg`备注`, span: 24, width: 200 },
  ],
};

/** 设备点位: filtered by device; 导入 uploads a point sheet. */
export const devicePointView: CrudView<typeof devicePoint> = {
  resource: devicePoint,
  fields: [
    // The device's code and name side by side, each in a column of its own.
    { name: 'deviceId', label: msg`设备`, required: msg`请选择设备`, search: true, hideInTable: true, span: 12 },
    derived('deviceCode', msg`设备编号`, 130),
    { name: 'deviceName', label: msg`设备名称`, width: 140 },
    { name: 'pointKey', label: msg`点位标识`, search: true, required: msg`请输入点位标识`, width: 120 },
    { name: 'name', label: msg`点位名称`, search: true, required: msg`请输入点位名称`, width: 130 },
    { name: 'unit', label: msg`单位`, width: 70 },
    { name: 'factorsItemId', label: msg`因素项`, span: 12, width: 120 },
    { name: 'precision', label: msg`精度`, widget: { type: 'number', min: 0, max: 6 }, width: 60 },
    { name: 'channel', label: msg`通道`, widget: { type: 'number', min: 0 }, width: 60 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 60 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};
