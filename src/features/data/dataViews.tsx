import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import { defineResource } from '../../../resources/define';
import { dataComparison } from '../../../resources/iot/comparison';
import { collectCalculationLog, collectStrategy, deviceLogUpdateLog, viewCollect } from '../../../resources/iot/data';
import { device } from '../../../resources/iot/device';
import { decimal, id, text } from '../../../resources/fields';
import { formatDateTime } from '../../../resources/datetime';
import { formatReading, formatValue } from '../../../resources/readings';
import type { Row } from '../../crud/api';
import { pickerOf } from '../../crud/references';
import type { CrudView, TreeOption } from '../../crud/types';
import { type Envelope, http } from '../../api/client';
import { derived, options, READ_ONLY } from '../../crud/viewHelpers';

/** Screens of the device data (docs/data-model.md "Device data"). */

const X = 'api/wit-xinde';

const timeOf = (ms: unknown) => (ms === undefined || ms === null || ms === '' ? '' : formatDateTime(new Date(Number(ms))));
/** An epoch-ms column shown as a date. */
const epochCell = (name: string) => (row: Row) => timeOf(row[name]);

/**
 * The series as the console sees it (wit_device_log is no declared resource: its rows are keyed by device, channel
 * and instant). The list's filters (startTime/endTime) and the correction's reason ride along as fields; the server
 * (server/modules/wit-xinde/devicelog.ts) checks everything.
 */
export const deviceLog = defineResource({
  service: 'wit-xinde',
  name: 'devicelog',
  menu: 'device_log',
  table: 'wit_device_log',
  tenancy: 'tenant',
  fields: z.object({
    deviceId: id('请选择设备'),
    deviceName: text().nullish(),
    deviceCode: text().nullish(),
    pointKey: text(64),
    time: text().nullish(),
    value: decimal(),
    raw: decimal().nullish(),
    reason: text().nullish(),
    startTime: text().nullish(),
    endTime: text().nullish(),
  }),
});

/** 监测数据: the stored values, newest first; 数据修正 corrects one (audited). */
export const deviceLogView: CrudView<typeof deviceLog> = {
  resource: deviceLog,
  actions: { add: false, edit: false },
  fields: [
    { name: 'deviceId', label: msg`设备`, widget: pickerOf(device), search: true, hideInTable: true, hideInForm: true },
    { name: 'deviceCode', label: msg`设备编号`, width: 130, disabled: true, sortable: false },
    { name: 'deviceName', label: msg`设备名称`, width: 140, disabled: true, sortable: false },
    { name: 'pointKey', label: msg`点位`, search: true, width: 100, disabled: true, sortable: false },
    { name: 'startTime', label: msg`开始时间`, widget: { type: 'datetime' }, search: true, hideInTable: true, hideInForm: true },
    { name: 'endTime', label: msg`结束时间`, widget: { type: 'datetime' }, search: true, hideInTable: true, hideInForm: true },
    { name: 'time', label: msg`采集时间`, width: 160, disabled: true, sortable: false },
    { name: 'raw', label: msg`原始值`, width: 110, disabled: true, sortable: false, cell: (row) => formatValue(row.raw as number | null) },
    {
      name: 'value', label: msg`数值`, widget: { type: 'number' }, required: msg`请输入数值`, width: 120, sortable: false,
      cell: (row) => formatReading(row.value as number | null, row.precision as number | null, row.unit as string | null),
    },
    { name: 'reason', label: msg`修正原因`, widget: { type: 'textarea', rows: 2 }, hideInTable: true, hideInForm: (mode) => mode === 'view' },
  ],
};

const ACTIONS = options(['1', msg`新增`], ['2', msg`修正`], ['3', msg`删除`], ['4', msg`区间删除`]);

/** 数据修正记录: the audit of manual changes, read-only. */
export const updateLogView: CrudView<typeof deviceLogUpdateLog> = {
  resource: deviceLogUpdateLog,
  actions: READ_ONLY,
  fields: [
    { name: 'createTime', label: msg`修正时间`, width: 160 },
    { name: 'deviceId', label: msg`设备`, widget: pickerOf(device), search: true, width: 170, cell: (row) => String(row.deviceId) },
    { name: 'pointKey', label: msg`点位`, search: true, width: 90 },
    { name: 'ts', label: msg`数据时间`, width: 160, cell: epochCell('ts') },
    { name: 'action', label: msg`操作`, widget: ACTIONS, search: true, width: 80 },
    { name: 'oldValue', label: msg`原值`, width: 100 },
    { name: 'newValue', label: msg`新值`, width: 100 },
    { name: 'affected', label: msg`影响条数`, width: 80 },
    { name: 'reason', label: msg`修正原因`, width: 200 },
    { name: 'remark', label: msg`备注`, width: 160 },
  ],
};

/** Raw messages with the list's own filter `hasError` (1 with an error, 0 without). */
const collectList = defineResource({ ...viewCollect, fields: viewCollect.fields.extend({ hasError: text().nullish() }) });

/** 采集数据: every message as received, read-only; the payload in the detail view. */
export const collectDataView: CrudView<typeof collectList> = {
  resource: collectList,
  actions: READ_ONLY,
  dialogWidth: 860,
  fields: [
    { name: 'receivedAt', label: msg`接收时间`, width: 160, cell: epochCell('receivedAt') },
    { name: 'deviceCode', label: msg`设备编号`, search: true, width: 130 },
    { name: 'deviceName', label: msg`设备名称`, width: 130 },
    { name: 'gatewayName', label: msg`网关`, width: 120 },
    { name: 'projectName', label: msg`所属项目`, width: 150 },
    { name: 'topic', label: msg`主题`, search: true, width: 260 },
    { name: 'readings', label: msg`存储数值数`, width: 90 },
    { name: 'error', label: msg`错误`, width: 200 },
    { name: 'hasError', label: msg`是否有错误`, widget: options(['1', msg`有错误`], ['0', msg`无错误`]), search: true, hideInTable: true, hideInForm: true },
    { name: 'payload', label: msg`报文内容`, widget: { type: 'pre' }, hideInTable: true, span: 24 },
  ],
};

/** 采集策略: what to send to whom and when; 启动/停止 switch it with collectstrategy/update. */
export const collectStrategyView: CrudView<typeof collectStrategy> = {
  resource: collectStrategy,
  dialogWidth: 760,
  fields: [
    { name: 'name', label: msg`策略名称`, search: true, required: msg`请输入策略名称`, width: 150 },
    { name: 'projectId', label: msg`所属项目`, required: msg`请选择项目`, search: true, span: 12, width: 150 },
    // Gateways hang below gateways: picked in their tree, not in a flat select.
    { name: 'gatewayId', label: msg`网关`, widget: { type: 'tree', source: `${X}/gateway/tree` }, span: 12, width: 110 },
    { name: 'deviceIds', label: msg`设备`, widget: pickerOf(device, { multiple: true }), hideInTable: true },
    derived('deviceCount', msg`设备数`, 70),
    { name: 'intervalSeconds', label: msg`采集间隔(秒)`, widget: { type: 'number', min: 5 }, width: 100 },
    { name: 'times', label: msg`采集时刻`, help: msg`每天的时刻 HH:mm,多个用逗号分隔,如 08:00,20:00`, width: 130 },
    { name: 'command', label: msg`指令(JSON)`, widget: { type: 'textarea', rows: 3 }, help: msg`JSON 对象:command 为指令名,params 为可选参数;留空为采集指令 collect`, hideInTable: true },
    { name: 'enabled', label: msg`启用`, widget: { type: 'switch', dict: 'yes_no' }, initial: 0, width: 70, hideInForm: true },
    {
      name: 'running',
      label: msg`运行状态`,
      derived: true,
      hideInForm: true,
      width: 90,
      sortable: false,
      widget: options(['1', msg`运行中`], ['0', msg`已停止`]),
    },
    { name: 'lastRunTime', label: msg`最近执行`, width: 160, hideInForm: true },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

const RUN_STATES = options(['0', msg`计算中`], ['1', msg`完成`], ['2', msg`失败`]);

/** 计算日志: recalculation runs, read-only. */
export const calculationLogView: CrudView<typeof collectCalculationLog> = {
  resource: collectCalculationLog,
  actions: READ_ONLY,
  dialogWidth: 760,
  fields: [
    { name: 'createTime', label: msg`计算时间`, width: 160 },
    { name: 'deviceCode', label: msg`设备编号`, search: true, width: 130 },
    { name: 'pointKey', label: msg`点位(空为全部)`, width: 110 },
    { name: 'startTs', label: msg`开始`, width: 160, cell: epochCell('startTs') },
    { name: 'endTs', label: msg`结束`, width: 160, cell: epochCell('endTs') },
    { name: 'state', label: msg`状态`, widget: RUN_STATES, search: true, width: 80 },
    { name: 'total', label: msg`总数`, width: 80 },
    { name: 'changed', label: msg`变更数`, width: 80 },
    { name: 'failed', label: msg`失败数`, width: 80 },
    { name: 'elapsedMs', label: msg`耗时(ms)`, width: 90 },
    { name: 'formula', label: msg`公式`, widget: { type: 'pre' }, hideInTable: true },
    { name: 'initialValues', label: msg`初始值`, widget: { type: 'pre' }, hideInTable: true },
    { name: 'error', label: msg`错误`, widget: { type: 'pre' }, width: 200 },
  ],
};

/** The compared channels as text: each item's name, or `device code.point key`. */
const itemsCell = (row: Row) => itemsOf(row.items).map((i) => String(i.name || `${String(i.deviceCode ?? i.deviceId)}.${String(i.pointKey)}`)).join('、');

type Item = Record<string, unknown>;

/** A comparison's items: the decorated list, or its stored JSON text. */
function itemsOf(value: unknown): Item[] {
  if (Array.isArray(value)) return value as Item[];
  if (typeof value !== 'string' || !value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? (parsed as Item[]) : [];
  } catch {
    return [];
  }
}

/** A channel as a node id of the picker: `<deviceId>:<pointKey>` (keys never hold a colon). */
const channelKey = (deviceId: unknown, pointKey: unknown) => `${String(deviceId)}:${String(pointKey)}`;

/** Devices with their points below them, points being the choices. */
async function channelTree(): Promise<TreeOption[]> {
  const [devices, points] = await Promise.all([
    http.get<Envelope<Row[]>>(`${X}/device/selectList`).then((r) => r.data ?? []),
    http.get<Envelope<Row[]>>(`${X}/devicepoint/selectList`).then((r) => r.data ?? []),
  ]);
  return devices.map((d) => ({
    id: `device-${d.id}`,
    title: `${String(d.name)} (${String(d.code)})`,
    children: points.filter((p) => p.deviceId === d.id).map((p) => ({ id: channelKey(d.id, p.pointKey), title: `${String(p.name)} (${String(p.pointKey)})` })),
  }));
}

/** The comparison as the form edits it: its items as picked channels (`itemKeys`). */
export const comparisonForm = defineResource({
  ...dataComparison,
  fields: dataComparison.fields.extend({ itemKeys: z.union([z.string(), z.array(z.string())]).optional() }),
});

/** 数据对比: CRUD; the chart is the page's own row action. */
export const comparisonView: CrudView<typeof comparisonForm> = {
  resource: comparisonForm,
  dialogWidth: 760,
  fields: [
    { name: 'name', label: msg`对比名称`, search: true, required: msg`请输入对比名称`, width: 150 },
    { name: 'batchNumber', label: msg`批次号`, search: true, required: msg`请输入批次号`, width: 110 },
    { name: 'projectId', label: msg`所属项目`, required: msg`请选择项目`, search: true, span: 12, width: 150 },
    { name: 'startTime', label: msg`开始时间`, widget: { type: 'datetime' }, width: 160 },
    { name: 'endTime', label: msg`结束时间`, widget: { type: 'datetime' }, width: 160 },
    { name: 'itemKeys', label: msg`对比的设备点位`, widget: { type: 'tree', source: channelTree, multiple: true }, required: msg`请选择对比的设备点位`, hideInTable: true },
    { name: 'items', label: msg`对比项`, hideInForm: true, width: 240, sortable: false, cell: itemsCell },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 60 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
  toForm: (row) => ({ ...row, itemKeys: itemsOf(row.items).map((i) => channelKey(i.deviceId, i.pointKey)) }),
  // Picked channels back into items; a channel kept from before keeps its name. Device nodes are no channels.
  toBody: ({ itemKeys, ...body }) => {
    const before = new Map(itemsOf(body.items).map((i) => [channelKey(i.deviceId, i.pointKey), i.name]));
    const keys = (Array.isArray(itemKeys) ? itemKeys : String(itemKeys ?? '').split(',')).filter((k) => k.includes(':'));
    const items = keys.map((k) => {
      const [deviceId, pointKey] = k.split(':');
      return { deviceId, pointKey, ...(before.get(k) ? { name: before.get(k) } : {}) };
    });
    return { ...body, items };
  },
};
