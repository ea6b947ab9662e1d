import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, flag, id, idList, int, required, text } from '../fields';
import { device } from './device';
import { REFERENCE_IDS } from './examples';
import { project } from './project';

/**
 * Onward data (docs/push.md): a tenant forwards its projects' readings to external systems — an owner's platform, a
 * provincial supervision platform — over MQTT or HTTP. `mqttparam` is a target, `tenantproject` binds a project to
 * it, `subtable` renames devices and channels for a target, `apisendlog` records every send attempt.
 */

export const PUSH_TYPE = { mqtt: 1, http: 2 } as const;
/** What started a send attempt. */
export const PUSH_TRIGGER = { realtime: 'realtime', retry: 'retry', manual: 'manual', test: 'test' } as const;
export type PushTrigger = (typeof PUSH_TRIGGER)[keyof typeof PUSH_TRIGGER];
/** Outcome of a send attempt (apisendlog.state); `dropped` records readings pushed out of a full queue. */
export const SEND_STATE = { success: 1, failed: 2, dropped: 3 } as const;
/** A binding's last outcome (tenantproject.lastState). */
export const LAST_STATE = { never: 0, success: 1, failed: 2 } as const;

/** Placeholders a topic template may use; each is filled per reading. */
export const TOPIC_PLACEHOLDERS = ['tenantId', 'projectId', 'projectCode', 'deviceCode', 'pointKey'] as const;
export type TopicPlaceholder = (typeof TOPIC_PLACEHOLDERS)[number];
export const DEFAULT_TOPIC = 'vigil/{tenantId}/{projectCode}/data';

const PLACEHOLDER_LIST = TOPIC_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');
const BROKER_SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:'];
/** Headers the HTTP client sets itself; a target may not override them. */
const RESERVED_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection'];
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Why a broker address is not usable, or undefined. Credentials belong in username/password, not in the address. */
export function brokerUrlProblem(value: string): string | undefined {
  const url = parsedUrl(value.trim());
  if (!url || !BROKER_SCHEMES.includes(url.protocol) || !url.hostname) return 'MQTT 服务器地址应以 mqtt://、mqtts://、ws:// 或 wss:// 开头,如 mqtt://broker.example.com:1883';
  if (url.username || url.password) return 'MQTT 服务器地址中不能包含用户名或密码,请填写在用户名、密码中';
  return undefined;
}

/** Why an HTTP endpoint is not usable, or undefined. */
export function httpUrlProblem(value: string): string | undefined {
  const url = parsedUrl(value.trim());
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) return '推送地址应以 http:// 或 https:// 开头,如 https://platform.example.com/api/data';
  if (url.username || url.password) return '推送地址中不能包含用户名或密码,请使用令牌或请求头';
  return undefined;
}

/** Why a topic template is not usable, or undefined: a publish topic without wildcards, only known placeholders. */
export function topicProblem(value: string): string | undefined {
  const template = value.trim();
  if (template === '') return '请输入主题模板';
  if (/[+#]/.test(template)) return '主题模板不能包含通配符 + 或 #';
  if (template.startsWith('$')) return '主题模板不能以 $ 开头(系统主题)';
  if (template.includes('\u0000')) return '主题模板不合法';
  let unknown: string | undefined;
  const rest = template.replace(/\{([^{}]*)\}/g, (_all, name: string) => {
    if (!(TOPIC_PLACEHOLDERS as readonly string[]).includes(name)) unknown ??= name;
    return 'x';
  });
  if (unknown !== undefined) return `主题模板包含未知占位符 {${unknown}},可用: ${PLACEHOLDER_LIST}`;
  if (/[{}]/.test(rest)) return '主题模板中的花括号不成对';
  return undefined;
}

/** Extra request headers: a JSON object of names to string values. */
export function headersProblem(value: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return '请求头应为 JSON 对象,如 {"X-Api-Key": "abc"}';
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return '请求头应为 JSON 对象,如 {"X-Api-Key": "abc"}';
  const entries = Object.entries(parsed);
  if (entries.length > 20) return '请求头最多 20 个';
  for (const [name, header] of entries) {
    if (!HEADER_NAME.test(name)) return `请求头名称不合法: ${name}`;
    if (RESERVED_HEADERS.includes(name.toLowerCase())) return `请求头 ${name} 由系统设置,不能自定义`;
    if (typeof header !== 'string' || /[\r\n]/.test(header)) return `请求头 ${name} 的值应为单行文本`;
  }
  return undefined;
}

/** An optional text field checked by `problem` when not blank. */
const checked = (max: number, problem: (value: string) => string | undefined) =>
  z
    .string()
    .trim()
    .max(max, `长度不能超过${max}个字符`)
    .superRefine((value, ctx) => {
      const found = value.trim() === '' ? undefined : problem(value);
      if (found) ctx.addIssue({ code: 'custom', message: found });
    })
    .nullish();

const range = (min: number, max: number, message: string) => int().min(min, message).max(max, message);

/**
 * A push target (推送参数): an external MQTT broker or an HTTP endpoint, with batching. Passwords, the bearer token,
 * the signing secret and the extra headers are write-only: never returned, kept when an edit leaves them blank, sealed
 * at rest (docs/push.md, docs/security.md).
 */
export const mqttParam = defineResource({
  service: 'wit-xinde',
  name: 'mqttparam',
  menu: 'mqtt_param',
  table: 'wit_mqtt_param',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入目标名称', 64),
    pushType: z.union([z.literal(PUSH_TYPE.mqtt), z.literal(PUSH_TYPE.http)], { error: '请选择推送方式' }),
    brokerUrl: checked(500, brokerUrlProblem),
    clientId: z.string().trim().max(64, '客户端编号不能超过64个字符').regex(/^[\x21-\x7e]*$/, '客户端编号不能包含空格或中文').nullish(),
    username: text(128).nullish(),
    password: text(256).nullish(),
    topic: checked(255, topicProblem),
    qos: range(0, 1, 'QoS 应为 0 或 1').optional(),
    url: checked(1000, httpUrlProblem),
    headers: checked(4000, headersProblem),
    token: text(1000).nullish(),
    secret: text(256).nullish(),
    /** Most readings (channel values) in one message. */
    batchSize: range(1, 1000, '每批条数应在 1 到 1000 之间').optional(),
    /** Longest wait (ms) before a partial batch goes out. */
    flushInterval: range(100, 600_000, '发送间隔应在 100 毫秒到 10 分钟之间').optional(),
    /** How long (ms) a connection, a PUBACK or an HTTP answer may take. */
    timeout: range(1000, 60_000, '超时时间应在 1000 到 60000 毫秒之间').optional(),
    enabled: flag().optional(),
    remark: text().nullish(),
  }),
  variants: ['select'],
  // Extra headers carry API keys (`X-Api-Key`) as often as not: they are kept like the other credentials.
  hidden: ['password', 'token', 'secret', 'headers'],
  secrets: ['password', 'token', 'secret', 'headers'],
  unique: [{ fields: ['name'], message: '推送目标名称已存在' }],
  inUse: '推送目标还绑定着项目或设有映射,请先解除',
  example: {
    name: '业主平台',
    pushType: PUSH_TYPE.mqtt,
    brokerUrl: 'mqtt://broker.example.com:1883',
    username: 'owner',
    password: 'Owner#Push2026',
    topic: 'vigil/{tenantId}/{projectCode}/{deviceCode}',
    qos: 1,
    enabled: 0,
  },
});

/** A project pushed to a target (租户项目推送), optionally only some of its devices; the forwarder keeps the last outcome. */
export const tenantProject = defineResource({
  service: 'wit-xinde',
  name: 'tenantproject',
  menu: 'tenant_project',
  table: 'wit_tenant_project',
  tenancy: 'tenant',
  fields: z.object({
    mqttParamId: id('请选择推送目标'),
    projectId: id('请选择项目'),
    /** Empty: every device of the project, including devices added later. */
    deviceIds: idList().nullish(),
    enabled: flag().optional(),
    /** Written by the forwarder; ignored in submit bodies. */
    lastPushTime: datetime().nullish(),
    lastState: int().optional(),
    lastError: text(2000).nullish(),
    pushCount: int().optional(),
    remark: text().nullish(),
  }),
  variants: ['nopage'],
  projectField: 'projectId',
  unique: [{ fields: ['mqttParamId', 'projectId'], message: '该项目已绑定到此推送目标' }],
  references: {
    mqttParamId: { to: () => mqttParam, missing: '推送目标不存在或无权操作', as: 'paramName' },
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
  },
  example: { mqttParamId: REFERENCE_IDS.pushTarget, projectId: REFERENCE_IDS.project, enabled: 0, remark: '测试台数据' },
});

/** Every send attempt (推送日志): realtime, retries, manual pushes, connection tests, and readings dropped from a full queue. */
export const apiSendLog = defineResource({
  service: 'wit-xinde',
  name: 'apisendlog',
  menu: 'api_send_log',
  table: 'wit_api_send_log',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    mqttParamId: id().nullish(),
    tenantProjectId: id().nullish(),
    projectId: id().nullish(),
    pushType: int(),
    /** realtime, retry, manual or test. */
    trigger: text(16),
    /** The topic(s) or the URL (without its query string). */
    target: text(1000).nullish(),
    /** Readings (channel values) in the attempt; for a dropped row, how many were dropped. */
    readings: int(),
    messages: int(),
    state: int(),
    attempt: int(),
    httpStatus: int().nullish(),
    error: text(2000).nullish(),
    durationMs: int().nullish(),
    /** The first message's body, cut at 1000 characters. */
    payload: z.string().nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'createTime', desc: true }],
  references: {
    // The log of a target's sends does not keep the target.
    mqttParamId: { to: () => mqttParam, missing: '推送目标不存在或无权操作', as: 'paramName', holds: false },
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
  },
});

/**
 * 推送映射 (`subtable`, docs/push.md "Decisions"): how a target knows our devices and channels. A row without a point
 * key renames a device (`targetDevice`); a row with one renames that channel (`targetKey`). Which devices a target
 * receives is decided by the binding (`tenantproject.deviceIds`), never here.
 */
export const subTable = defineResource({
  service: 'wit-xinde',
  name: 'subtable',
  menu: 'mqtt_param',
  table: 'wit_push_map',
  tenancy: 'tenant',
  fields: z.object({
    mqttParamId: id('请选择推送目标'),
    deviceId: id('请选择设备'),
    pointKey: z.string().trim().max(64).regex(/^([A-Za-z][A-Za-z0-9_.-]*)?$/, '点位标识以字母开头,只能包含字母、数字和 _ . -').nullish(),
    targetDevice: z.string().trim().max(64, '外部设备编号不能超过64个字符').nullish(),
    targetKey: z.string().trim().max(64, '外部点位标识不能超过64个字符').nullish(),
    remark: text().nullish(),
  }),
  projectField: 'deviceId',
  projectThrough: ['wit_device.project_id'],
  unique: [{ fields: ['mqttParamId', 'deviceId', 'pointKey'], message: '该设备(点位)已设置映射' }],
  references: {
    mqttParamId: { to: () => mqttParam, missing: '推送目标不存在或无权操作', as: 'paramName' },
    deviceId: { to: () => device, missing: '设备不存在或无权操作', as: 'deviceName' },
  },
  example: { mqttParamId: REFERENCE_IDS.pushTarget, deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x', targetKey: 'QX-X', remark: '省平台点位编码' },
});
