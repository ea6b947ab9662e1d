import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { apiSendLog, DEFAULT_TOPIC, mqttParam, PUSH_TYPE, subTable, TOPIC_PLACEHOLDERS, tenantProject } from '../../../resources/iot/push';
import { device } from '../../../resources/iot/device';
import type { Row } from '../../crud/api';
import { pickerOf } from '../../crud/references';
import type { CrudView, RowAction } from '../../crud/types';
import { derived, numericOptions, options, READ_ONLY } from '../../crud/viewHelpers';

/** Screens of onward data (docs/push.md): push targets with their mappings, project bindings, the push log. */

const PUSH_TYPES = numericOptions([String(PUSH_TYPE.mqtt), msg`MQTT`], [String(PUSH_TYPE.http), msg`HTTP`]);
const isMqtt = (values: Record<string, unknown>) => Number(values.pushType ?? PUSH_TYPE.mqtt) === PUSH_TYPE.mqtt;
const isHttp = (values: Record<string, unknown>) => !isMqtt(values);
/** A secret (the headers too: they often carry an API key) is written when typed and kept when an edit leaves it blank (the API never returns it). */
const SECRET = { widget: { type: 'password' }, hideInTable: true, keepIfBlank: (mode: string) => mode === 'edit', hideInForm: (mode: string) => mode === 'view' } as const;
// Braces are ICU syntax in a message: texts holding them go in as values.
const PLACEHOLDERS = TOPIC_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');
const HEADERS_EXAMPLE = '{"X-Api-Key": "abc"}';

/** Where a target sends: its broker or its URL. */
const addressOf = (row: Row) => String((Number(row.pushType) === PUSH_TYPE.http ? row.url : row.brokerUrl) ?? '');

/** 推送参数: a target's MQTT or HTTP fields by its push type; `test` is the 测试连接 row button. */
export function mqttParamView(test: RowAction['run']): CrudView<typeof mqttParam> {
  return {
    resource: mqttParam,
    dialogWidth: 860,
    fields: [
      { name: 'name', label: msg`目标名称`, search: true, required: msg`请输入目标名称`, width: 160 },
      { name: 'pushType', label: msg`推送方式`, widget: PUSH_TYPES, search: true, required: msg`请选择推送方式`, initial: PUSH_TYPE.mqtt, width: 90 },
      { ...derived('address', msg`地址`, 280), cell: addressOf },
      { name: 'enabled', label: msg`启用`, widget: { type: 'switch' }, initial: 1, width: 70 },
      { name: 'brokerUrl', label: msg`MQTT 服务器地址`, visibleWhen: isMqtt, required: msg`请输入 MQTT 服务器地址`, hideInTable: true, span: 24, help: msg`如 mqtt://broker.example.com:1883,支持 mqtt:// mqtts:// ws:// wss://` },
      { name: 'topic', label: msg`主题模板`, visibleWhen: isMqtt, initial: DEFAULT_TOPIC, width: 240, span: 24, help: msg`可用占位符: ${PLACEHOLDERS}` },
      { name: 'qos', label: msg`QoS`, widget: numericOptions(['0', msg`0 至多一次`], ['1', msg`1 至少一次`]), visibleWhen: isMqtt, initial: 1, hideInTable: true },
      { name: 'clientId', label: msg`客户端编号(空为自动)`, visibleWhen: isMqtt, hideInTable: true },
      { name: 'username', label: msg`用户名`, visibleWhen: isMqtt, hideInTable: true },
      { name: 'password', label: msg`密码(编辑时留空不修改)`, visibleWhen: isMqtt, ...SECRET },
      { name: 'url', label: msg`推送地址`, visibleWhen: isHttp, required: msg`请输入推送地址`, hideInTable: true, span: 24, help: msg`以 POST 发送 JSON,如 https://platform.example.com/api/data` },
      { name: 'token', label: msg`Bearer 令牌(编辑时留空不修改)`, visibleWhen: isHttp, ...SECRET },
      { name: 'secret', label: msg`签名密钥(编辑时留空不修改)`, visibleWhen: isHttp, ...SECRET, help: msg`设置后每个请求带 X-Vigil-Signature: sha256=HMAC(密钥, 时间戳.请求体)` },
      { name: 'headers', label: msg`请求头(JSON,编辑时留空不修改)`, visibleWhen: isHttp, ...SECRET, widget: { type: 'textarea', rows: 2 }, help: msg`如 ${HEADERS_EXAMPLE};密钥请填在令牌或签名密钥中` },
      { name: 'batchSize', label: msg`每批条数`, widget: { type: 'number', min: 1, max: 1000 }, initial: 100, width: 90 },
      { name: 'flushInterval', label: msg`发送间隔(毫秒)`, widget: { type: 'number', min: 100, max: 600000 }, initial: 2000, width: 120 },
      { name: 'timeout', label: msg`超时(毫秒)`, widget: { type: 'number', min: 1000, max: 60000 }, initial: 10000, hideInTable: true },
      derived('projectCount', msg`绑定项目数`, 100),
      { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
    ],
    rowActions: [{ key: 'test', label: msg`测试连接`, icon: 'flash', run: test }],
  };
}

/** 推送映射 (subtable) of one target: a device renamed, or one of its channels. */
export const mappingView: CrudView<typeof subTable> = {
  resource: subTable,
  dialogWidth: 720,
  fields: [
    { name: 'mqttParamId', label: msg`推送目标`, hideInTable: true, required: msg`请选择推送目标` },
    // The device's code and name side by side, each in a column of its own.
    { name: 'deviceId', label: msg`设备`, hideInTable: true, required: msg`请选择设备` },
    derived('deviceCode', msg`设备编号`),
    { name: 'deviceName', label: msg`设备名称`, width: 140 },
    { name: 'pointKey', label: msg`点位标识(空为整台设备)`, width: 140 },
    { name: 'targetDevice', label: msg`外部设备编号`, width: 140 },
    { name: 'targetKey', label: msg`外部点位标识`, width: 140 },
    { name: 'remark', label: msg`备注`, width: 160 },
  ],
};

const STATES = options(['0', msg`未推送`], ['1', msg`成功`], ['2', msg`失败`]);

/** 租户项目推送: a project bound to a target, optionally some devices; `push` is the 推送 row button. */
export function tenantProjectView(push: RowAction['run']): CrudView<typeof tenantProject> {
  return {
    resource: tenantProject,
    dialogWidth: 760,
    fields: [
      { name: 'mqttParamId', label: msg`推送目标`, search: true, width: 160, required: msg`请选择推送目标` },
      { name: 'projectId', label: msg`项目`, search: true, width: 200, required: msg`请选择项目` },
      { name: 'deviceIds', label: msg`推送设备(空为全部)`, widget: pickerOf(device, { multiple: true }), hideInTable: true },
      { ...derived('deviceCount', msg`设备`, 80), cell: (row) => (row.deviceCount ? String(row.deviceCount) : i18n._(msg`全部`)) },
      { name: 'enabled', label: msg`启用`, widget: { type: 'switch' }, initial: 1, width: 70 },
      { name: 'lastState', label: msg`最近状态`, widget: STATES, hideInForm: true, width: 90 },
      { name: 'lastPushTime', label: msg`最近推送时间`, hideInForm: true, width: 160 },
      { name: 'pushCount', label: msg`已推送条数`, hideInForm: true, width: 100 },
      { name: 'lastError', label: msg`最近错误`, hideInForm: true, width: 240 },
      { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
    ],
    rowActions: [{ key: 'push', label: msg`推送`, icon: 'send-message', permission: 'push', run: push }],
  };
}

const SEND_STATES = options(['1', msg`成功`], ['2', msg`失败`], ['3', msg`已丢弃`]);
const TRIGGERS = options(['realtime', msg`实时`], ['retry', msg`重试`], ['manual', msg`手动`], ['test', msg`测试`]);

/** 推送日志: every send attempt, read-only; filters on state, project, trigger and time. */
export const apiSendLogView: CrudView<typeof apiSendLog> = {
  resource: apiSendLog,
  actions: READ_ONLY,
  dateRange: true,
  dialogWidth: 860,
  fields: [
    { name: 'createTime', label: msg`时间`, width: 160 },
    { name: 'state', label: msg`状态`, widget: SEND_STATES, search: true, width: 80 },
    { name: 'projectId', label: msg`项目`, search: true, width: 160 },
    { name: 'paramName', label: msg`推送目标`, width: 140 },
    { name: 'pushType', label: msg`方式`, widget: PUSH_TYPES, width: 70 },
    { name: 'trigger', label: msg`触发`, widget: TRIGGERS, search: true, width: 80 },
    { name: 'target', label: msg`主题/地址`, width: 240 },
    { name: 'readings', label: msg`条数`, width: 70 },
    { name: 'attempt', label: msg`第几次`, width: 70 },
    { name: 'httpStatus', label: msg`HTTP 状态`, width: 90 },
    { name: 'durationMs', label: msg`耗时(毫秒)`, width: 100 },
    { name: 'error', label: msg`错误`, width: 260, widget: { type: 'pre' } },
    { name: 'payload', label: msg`报文(节选)`, widget: { type: 'pre' }, hideInTable: true },
  ],
};
