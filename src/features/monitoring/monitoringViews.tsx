import { msg } from '@lingui/core/macro';
import { device } from '../../../resources/iot/device';
import { monitorFactors, monitorFactorsItem, monitorItem, monitorPoint, monitorType, pointRelationDevice } from '../../../resources/iot/monitoring';
import type { Row } from '../../crud/api';
import { type ChildTable, childOf } from '../../crud/ChildTablePage';
import { pickerOf } from '../../crud/references';
import type { CrudView } from '../../crud/types';
import { options } from '../../crud/viewHelpers';

/** Screens of the monitoring model (docs/data-model.md "Monitoring"). */


/** 监测类型 */
export const monitorTypeView: CrudView<typeof monitorType> = {
  resource: monitorType,
  fields: [
    { name: 'name', label: msg`类型名称`, search: true, required: msg`请输入类型名称`, width: 160 },
    { name: 'code', label: msg`类型编号`, search: true, required: msg`请输入类型编号`, width: 160 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, width: 240 },
  ],
};

/** 监测因素 */
export const monitorFactorsView: CrudView<typeof monitorFactors> = {
  resource: monitorFactors,
  fields: [
    { name: 'name', label: msg`因素名称`, search: true, required: msg`请输入因素名称`, width: 140 },
    { name: 'code', label: msg`因素编号`, search: true, required: msg`请输入因素编号`, width: 140 },
    { name: 'monitorTypeId', label: msg`监测类型`, search: true, span: 12, width: 120 },
    { name: 'unit', label: msg`单位`, width: 70 },
    { name: 'precision', label: msg`精度`, widget: { type: 'number', min: 0, max: 6 }, width: 60 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 60 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

/** 因素项, a factor's child table. */
const factorsItemView: CrudView<typeof monitorFactorsItem> = {
  resource: monitorFactorsItem,
  fields: [
    { name: 'factorsId', label: msg`监测因素`, required: msg`请选择监测因素` },
    { name: 'name', label: msg`因素项名称`, search: true, required: msg`请输入因素项名称`, width: 140 },
    { name: 'code', label: msg`因素项编号`, search: true, required: msg`请输入因素项编号`, width: 160 },
    { name: 'itemKind', label: msg`因素项类别`, widget: options(['1', msg`原始值`], ['2', msg`累计变化`], ['3', msg`单次变化`], ['4', msg`变化速率`]), initial: '1', width: 100 },
    { name: 'unit', label: msg`单位`, width: 70 },
    { name: 'precision', label: msg`精度`, widget: { type: 'number', min: 0, max: 6 }, width: 60 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 60 },
  ],
};

export const factorsItems = (title: (row: Row) => string): ChildTable<typeof monitorFactorsItem> => ({
  action: { key: 'items', label: msg`因素项`, icon: 'list' },
  title,
  view: (parent) => childOf(factorsItemView, 'factorsId', parent),
});

/** 监测点 */
export const monitorPointView: CrudView<typeof monitorPoint> = {
  resource: monitorPoint,
  dialogWidth: 760,
  fields: [
    { name: 'name', label: msg`监测点名称`, search: true, required: msg`请输入监测点名称`, width: 140 },
    { name: 'code', label: msg`监测点编号`, search: true, required: msg`请输入监测点编号`, width: 130 },
    { name: 'projectId', label: msg`所属项目`, required: msg`请选择项目`, search: true, span: 12, width: 160 },
    { name: 'factorsId', label: msg`监测因素`, span: 12, width: 100 },
    { name: 'position', label: msg`位置`, width: 120 },
    { name: 'longitude', label: msg`经度`, widget: { type: 'number' }, hideInTable: true },
    { name: 'latitude', label: msg`纬度`, widget: { type: 'number' }, hideInTable: true },
    { name: 'elevation', label: msg`高程(m)`, widget: { type: 'number' }, hideInTable: true },
    { name: 'initialValue', label: msg`初始值`, widget: { type: 'number' }, width: 80 },
    { name: 'initialTime', label: msg`初始时间`, widget: { type: 'datetime' }, width: 160 },
    {
      name: 'deviceIds',
      label: msg`绑定设备数`,
      derived: true,
      hideInForm: true,
      width: 90,
      sortable: false,
      cell: (row) => (Array.isArray(row.deviceIds) ? row.deviceIds.length : 0),
    },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 60 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

/** 绑定设备: the monitor point's bindings (a device, or one channel of it) — reached only through the bind button. */
const bindingView: CrudView<typeof pointRelationDevice> = {
  resource: pointRelationDevice,
  actions: { view: false, add: 'always', edit: 'always', delete: 'always' },
  fields: [
    { name: 'monitorPointId', label: msg`监测点`, required: msg`请选择监测点` },
    { name: 'deviceId', label: msg`设备`, required: msg`请选择设备`, span: 12, width: 200 },
    { name: 'pointKey', label: msg`点位标识(空为整台设备)`, width: 180 },
    { name: 'remark', label: msg`备注`, span: 24, width: 200 },
  ],
};

export const bindings = (title: (row: Row) => string): ChildTable<typeof pointRelationDevice> => ({
  action: { key: 'bind', label: msg`绑定设备`, icon: 'link', permission: 'bind' },
  title,
  width: 900,
  view: (parent) => {
    const view = childOf(bindingView, 'monitorPointId', parent);
    // Only devices of the monitor point's project can be bound.
    const devices = pickerOf(device, { query: () => ({ projectId: String(parent.projectId) }) });
    return { ...view, fields: view.fields.map((f) => (f.name === 'deviceId' ? { ...f, widget: devices } : f)) };
  },
});

/** 监测项 */
export const monitorItemView: CrudView<typeof monitorItem> = {
  resource: monitorItem,
  fields: [
    { name: 'name', label: msg`监测项名称`, search: true, required: msg`请输入监测项名称`, width: 150 },
    { name: 'code', label: msg`监测项编号`, search: true, required: msg`请输入监测项编号`, width: 140 },
    { name: 'monitorTypeId', label: msg`监测类型`, hideInTable: true },
    { name: 'factorsId', label: msg`监测因素`, hideInTable: true },
    { name: 'factorsItemId', label: msg`因素项`, hideInTable: true },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 60 },
    { name: 'remark', label: msg`备注`, span: 24, width: 200 },
  ],
};
