import { type Intent, Tag } from '@blueprintjs/core';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { alarm, alarmNoticeStrategy, alarmRecipient, alarmSendLog, deviceThreshold } from '../../../resources/iot/alarm';
import { type Envelope, http } from '../../api/client';
import { project } from '../../../resources/iot/project';
import type { Row } from '../../crud/api';
import { pickerOf } from '../../crud/references';
import type { CrudView, FieldView, RowAction, TreeOption } from '../../crud/types';
import { derived, options, READ_ONLY } from '../../crud/viewHelpers';
import { logKeys } from '../device/api';
import { Link } from 'wouter';
import { LEVEL_COLOURS } from './levels';

/** Screens of the alarm menu (docs/alarms.md): thresholds, alarms, recipients, notice strategies, the send log. */

const LEVELS = { type: 'select', dict: 'alarm_level' } as const;

/** The tenant's users for a select (the user list has no tree call). */
async function users(): Promise<TreeOption[]> {
  const page = await http.get<Envelope<{ records: Row[] }>>('api/blade-user/list', { searchParams: { current: 1, size: 1000 } });
  return (page.data?.records ?? []).map((u) => ({ id: String(u.id), title: String(u.realName || u.name || u.account) }));
}

/** The four channels (names from docs/alarms.md) and the four levels, as select nodes. */
const channelNames = (): TreeOption[] => [
  { id: 'notice', title: i18n._(msg`站内通知`) },
  { id: 'email', title: i18n._(msg`邮件`) },
  { id: 'sms', title: i18n._(msg`短信`) },
  { id: 'webhook', title: 'Webhook' },
];
const levelNames = (): TreeOption[] => [
  { id: '1', title: i18n._(msg`红色`) },
  { id: '2', title: i18n._(msg`橙色`) },
  { id: '3', title: i18n._(msg`黄色`) },
  { id: '4', title: i18n._(msg`蓝色`) },
];
const channelSource = async () => channelNames();
const levelSource = async () => levelNames();

/** A comma-joined list of keys as their names. */
const namesOf = (value: unknown, names: TreeOption[]) =>
  String(value ?? '')
    .split(',')
    .filter(Boolean)
    .map((key) => names.find((n) => n.id === key)?.title ?? key)
    .join('、');

const DISPOSAL_STATES: Record<number, { label: MessageDescriptor; intent: Intent }> = {
  1: { label: msg`处置中`, intent: 'warning' },
  2: { label: msg`已挂起`, intent: 'none' },
  3: { label: msg`已完成`, intent: 'success' },
  4: { label: msg`已终止`, intent: 'danger' },
};

/**
 * An alarm's disposal process (docs/alarms.md "Disposal"): its state and the tasks open now, leading to its detail
 * (history and diagram) at the alarm route of the dictionary `flow`.
 */
function disposalCell(row: Row) {
  const state = DISPOSAL_STATES[Number(row.processState)];
  if (!state || !row.processInstanceId) return null;
  return (
    <Link className="vg-alarm-disposal" href={`/work/process/alarm/detail/${String(row.processInstanceId)}/${row.id}`}>
      <Tag minimal intent={state.intent}>
        {i18n._(state.label)}
      </Tag>{' '}
      {row.processTasks ? String(row.processTasks) : ''}
    </Link>
  );
}

/**
 * 告警列表: one row per alarm; handling (处理) asks for a result and calls batchHandle. Alarms come from thresholds,
 * so the list offers no 新增: what a row says about its alarm is read-only, only the remark is edited.
 */
export function alarmView(handle: RowAction['run']): CrudView<typeof alarm> {
  return {
    resource: alarm,
    actions: { add: false },
    dialogWidth: 880,
    fields: [
      { name: 'alarmLevel', label: msg`告警等级`, widget: LEVELS, search: true, width: 90, required: msg`请选择告警等级` },
      { name: 'title', label: msg`告警标题`, width: 240, disabled: true, span: 24 },
      { name: 'projectId', label: msg`所属项目`, search: true, width: 140, disabled: true },
      { name: 'deviceId', label: msg`设备`, width: 140, required: msg`请选择设备`, disabled: true },
      { name: 'deviceCode', label: msg`设备编号`, search: true, width: 130, hideInTable: true, hideInForm: true },
      { name: 'pointKey', label: msg`点位`, width: 90, disabled: true },
      { name: 'value', label: msg`当前值`, width: 90, hideInForm: true },
      { name: 'limitValue', label: msg`阈值`, width: 90, hideInForm: true },
      { name: 'alarmState', label: msg`告警状态`, widget: options(['1', msg`告警中`], ['2', msg`已恢复`]), search: true, width: 90, hideInForm: true },
      { name: 'handleState', label: msg`处理状态`, widget: options(['0', msg`未处理`], ['1', msg`已处理`]), search: true, width: 90, hideInForm: true },
      { ...derived('processState', msg`处置流程`, 150), cell: disposalCell },
      { name: 'firstTime', label: msg`首次告警时间`, width: 160, hideInForm: true },
      { name: 'levelTime', label: msg`最近变化时间`, width: 160, hideInForm: true },
      { name: 'handleUserName', label: msg`处理人`, width: 100, hideInForm: true },
      { name: 'handleResult', label: msg`处理结果`, width: 160, hideInForm: true },
      { name: 'content', label: msg`告警内容`, widget: { type: 'textarea', rows: 3 }, hideInTable: true, disabled: true },
      { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
    ],
    rowActions: [{ key: 'handle', label: msg`处理`, icon: 'tick-circle', permission: 'handle', visible: (row) => Number(row.handleState) !== 1, run: handle }],
  };
}

type ThresholdField = FieldView<keyof (typeof deviceThreshold)['fields']['shape'] & string>;

/** Upper bound, lower bound and largest rate of each level, 1 (red) to 4 (blue). */
const LIMIT_LABELS = [
  [msg`一级(红色)上限`, msg`一级(红色)下限`, msg`一级(红色)速率`],
  [msg`二级(橙色)上限`, msg`二级(橙色)下限`, msg`二级(橙色)速率`],
  [msg`三级(黄色)上限`, msg`三级(黄色)下限`, msg`三级(黄色)速率`],
  [msg`四级(蓝色)上限`, msg`四级(蓝色)下限`, msg`四级(蓝色)速率`],
] as const;

const limits: ThresholdField[] = ([1, 2, 3, 4] as const).flatMap((level) => {
  const [upper, lower, rate] = LIMIT_LABELS[level - 1];
  return [
    { name: `level${level}Upper` as const, label: upper, widget: { type: 'number' as const }, hideInTable: true },
    { name: `level${level}Lower` as const, label: lower, widget: { type: 'number' as const }, hideInTable: true },
    { name: `level${level}Rate` as const, label: rate, widget: { type: 'number' as const }, hideInTable: true },
  ];
});

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** What a rule governs: a device channel, a monitor point or a factor item (names joined by the server). */
function targetOf(row: Row): string {
  if (present(row.deviceName)) return `${String(row.deviceName)} · ${String(row.pointKey ?? '')}`;
  return String(row.monitorPointName ?? row.factorsItemName ?? '');
}

/** The limits of each level in one cell: ↑ upper, ↓ lower, Δ rate, in the level's colour. */
function limitsOf(row: Row) {
  return (
    <span className="vg-threshold-limits">
      {([1, 2, 3, 4] as const).map((level) => {
        const parts = [['↑', row[`level${level}Upper`]], ['↓', row[`level${level}Lower`]], ['Δ', row[`level${level}Rate`]]].filter(([, v]) => present(v));
        return parts.length === 0 ? null : (
          <span key={level} style={{ color: LEVEL_COLOURS[level], marginRight: 10 }}>
            {parts.map(([sign, v]) => `${String(sign)}${String(v)}`).join(' ')}
          </span>
        );
      })}
    </span>
  );
}

/** The form shows only the fields of the chosen target type (TARGET_TYPE: 1 device point, 2 monitor point, 3 factor item). */
const whenTarget = (type: string) => (values: Record<string, unknown>) => String(values.targetType ?? '') === type;

/**
 * The keys of the chosen device (GET devicelog/getDeviceLogDict, as the history selector lists them): its points
 * by name, then keys it has reported without a point.
 */
async function deviceKeys(_editing?: Row, query?: Readonly<Record<string, string>>): Promise<TreeOption[]> {
  if (!query?.deviceId) return [];
  const keys = await logKeys(query.deviceId);
  return keys.map((k) => ({ id: k.pointKey, title: k.name && k.name !== k.pointKey ? `${k.name} (${k.pointKey})` : k.pointKey }));
}

/** 阈值设置: a rule for a device channel, a monitor point or a factor item, four levels of bounds and rates. */
export const thresholdView: CrudView<typeof deviceThreshold> = {
  resource: deviceThreshold,
  dialogWidth: 960,
  fields: [
    { name: 'name', label: msg`阈值名称`, search: true, width: 140 },
    { name: 'targetType', label: msg`阈值对象`, widget: options(['1', msg`设备点位`], ['2', msg`监测点`], ['3', msg`因素项`]), initial: '1', required: msg`请选择阈值对象`, width: 100, search: true },
    { ...derived('target', msg`对象`, 220), cell: targetOf },
    { name: 'deviceId', label: msg`设备`, hideInTable: true, visibleWhen: whenTarget('1'), required: msg`请选择设备`, refusals: [msg`设备不存在或无权操作`], clears: ['pointKey'] },
    {
      name: 'pointKey',
      label: msg`点位`,
      hideInTable: true,
      visibleWhen: whenTarget('1'),
      required: msg`请选择点位`,
      refusals: [msg`设备没有该点位`],
      widget: { type: 'tree', source: deviceKeys, query: (values) => ({ deviceId: String(values.deviceId ?? '') }) },
    },
    { name: 'monitorPointId', label: msg`监测点`, hideInTable: true, visibleWhen: whenTarget('2'), required: msg`请选择监测点`, refusals: [msg`监测点不存在或无权操作`] },
    { name: 'factorsItemId', label: msg`因素项`, hideInTable: true, visibleWhen: whenTarget('3'), required: msg`请选择因素项`, refusals: [msg`因素项不存在`] },
    // A device point's or monitor point's project is theirs (the server takes it from them): chosen only for a factor item.
    { name: 'projectId', label: msg`所属项目`, width: 140, visibleWhen: whenTarget('3'), required: msg`请选择项目`, refusals: [msg`项目不存在或无权操作`] },
    { ...derived('limits', msg`各级阈值`, 320), cell: limitsOf },
    ...limits,
    { name: 'ratePeriod', label: msg`速率周期`, widget: options(['1', msg`每小时`], ['2', msg`每天`]), initial: '2', width: 90 },
    { name: 'hysteresis', label: msg`回差`, widget: { type: 'number' }, width: 80 },
    { name: 'rateHysteresis', label: msg`速率回差`, widget: { type: 'number' }, width: 90 },
    { name: 'status', label: msg`启用`, widget: { type: 'switch' }, initial: 1, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

/** 告警接收人: a user and/or addresses, the channels they accept, the console sound. */
export const recipientView: CrudView<typeof alarmRecipient> = {
  resource: alarmRecipient,
  dialogWidth: 760,
  fields: [
    { name: 'name', label: msg`接收人姓名`, search: true, required: msg`请输入接收人姓名`, width: 120 },
    { name: 'userId', label: msg`平台用户`, widget: { type: 'tree', source: users }, width: 120 },
    { name: 'phone', label: msg`手机号码`, search: true, width: 130 },
    { name: 'email', label: msg`邮箱`, width: 180 },
    { name: 'webhookUrl', label: msg`Webhook 地址`, width: 220, span: 24 },
    { name: 'channels', label: msg`接收方式`, widget: { type: 'tree', source: channelSource, multiple: true }, width: 180, cell: (row) => namesOf(row.channels, channelNames()) },
    { name: 'sound', label: msg`提示音`, widget: { type: 'switch' }, initial: 1, width: 80 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};


/** 通知策略: which levels of which projects reach whom over which channels, silence windows, reminders. */
export const strategyView: CrudView<typeof alarmNoticeStrategy> = {
  resource: alarmNoticeStrategy,
  dialogWidth: 760,
  fields: [
    { name: 'name', label: msg`策略名称`, search: true, required: msg`请输入策略名称`, width: 160 },
    { name: 'projectIds', label: msg`项目(空为全部)`, widget: pickerOf(project, { multiple: true }), hideInTable: true },
    { name: 'levels', label: msg`告警等级(空为全部)`, widget: { type: 'tree', source: levelSource, multiple: true }, width: 160, cell: (row) => namesOf(row.levels, levelNames()) },
    { name: 'recipientIds', label: msg`告警接收人`, widget: pickerOf(alarmRecipient, { multiple: true }), hideInTable: true },
    { name: 'userIds', label: msg`平台用户`, widget: { type: 'tree', source: users, multiple: true }, hideInTable: true },
    { name: 'channels', label: msg`通知方式`, widget: { type: 'tree', source: channelSource, multiple: true }, required: msg`请选择通知方式`, width: 200, cell: (row) => namesOf(row.channels, channelNames()) },
    { ...derived('silence', msg`静默时段`, 120), cell: (row) => (present(row.silenceStart) ? `${String(row.silenceStart)} - ${String(row.silenceEnd ?? '')}` : '') },
    { name: 'silenceStart', label: msg`静默开始(HH:mm)`, hideInTable: true },
    { name: 'silenceEnd', label: msg`静默结束(HH:mm)`, hideInTable: true },
    { name: 'silenceExceptLevels', label: msg`静默期仍通知的等级`, widget: { type: 'tree', source: levelSource, multiple: true }, hideInTable: true },
    { name: 'repeatInterval', label: msg`重复提醒间隔(分钟)`, widget: { type: 'number', min: 0, max: 10080 }, width: 120 },
    { name: 'status', label: msg`启用`, widget: { type: 'switch' }, initial: 1, width: 70 },
    { name: 'remark', label: msg`备注`, span: 24, hideInTable: true },
  ],
};

/** 告警发送日志: every send attempt, read-only. */
export const sendLogView: CrudView<typeof alarmSendLog> = {
  resource: alarmSendLog,
  actions: READ_ONLY,
  dialogWidth: 760,
  fields: [
    { name: 'sendTime', label: msg`发送时间`, width: 160 },
    { name: 'alarmId', label: msg`告警编号`, search: true, width: 170 },
    { name: 'recipientName', label: msg`接收人`, search: true, width: 110 },
    { name: 'channel', label: msg`通知方式`, widget: options(['notice', msg`站内通知`], ['email', msg`邮件`], ['sms', msg`短信`], ['webhook', msg`Webhook`]), search: true, width: 100 },
    { name: 'target', label: msg`发送目标`, width: 200 },
    { name: 'round', label: msg`提醒轮次`, width: 80 },
    { name: 'attempt', label: msg`尝试次数`, width: 80 },
    { name: 'success', label: msg`是否成功`, widget: options(['1', msg`成功`], ['0', msg`失败`]), search: true, width: 90 },
    { name: 'detail', label: msg`详情`, widget: { type: 'textarea', rows: 4 }, width: 260 },
  ],
};
