import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, decimal, flag, id, idList, int, required, text, url } from '../fields';
import { user } from '../system/user';
import { device } from './device';
import { REFERENCE_IDS } from './examples';
import { monitorFactorsItem, monitorPoint } from './monitoring';
import { project } from './project';

/**
 * Thresholds, alarms and who is told about them (docs/alarms.md). Levels follow dictionary `alarm_level`:
 * 1 red (most severe), 2 orange, 3 yellow, 4 blue.
 */

export const ALARM_LEVELS = [1, 2, 3, 4] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];
export const LEVEL_NAMES: Readonly<Record<AlarmLevel, string>> = { 1: '红色', 2: '橙色', 3: '黄色', 4: '蓝色' };

/** What a threshold watches: one device channel, a monitor point's bound channels, or every channel of a factor item in a project. */
export const TARGET_TYPE = { devicePoint: 1, monitorPoint: 2, factorsItem: 3 } as const;
/** The period a rate of change is measured over. */
export const RATE_PERIOD = { hour: 1, day: 2 } as const;
/** Which limit an alarm crossed. */
export const ALARM_TYPE = { upper: 1, lower: 2, rate: 3, manual: 4 } as const;
export const ALARM_TYPE_NAMES: Readonly<Record<number, string>> = { 1: '超上限', 2: '超下限', 3: '变化速率超限', 4: '人工上报' };
export const ALARM_STATE = { open: 1, cleared: 2 } as const;
/** Raised by a threshold, or recorded by a person. */
export const ALARM_SOURCE = { rule: 1, manual: 2 } as const;
export const ALARM_ACTION = { raise: 1, escalate: 2, deescalate: 3, clear: 4, handle: 5 } as const;
export const CHANNELS = ['notice', 'email', 'sms', 'webhook'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL_NAMES: Readonly<Record<Channel, string>> = { notice: '站内通知', email: '邮件', sms: '短信', webhook: 'Webhook' };

const level = (message = '告警等级应为 1 红色、2 橙色、3 黄色、4 蓝色') => int().min(1, message).max(4, message);
const limit = () => decimal().nullish();
const positive = () => decimal().refine((v) => v > 0, '变化速率阈值应大于 0').nullish();

/** Comma-joined choices from a fixed list ("1,2" or ["1","2"]), stored comma-joined. */
const choices = (allowed: readonly string[], message: string) =>
  z
    .union([z.string(), z.array(z.union([z.string(), z.number()]))])
    .transform((value, ctx) => {
      const list = (Array.isArray(value) ? value.map(String) : value.split(',')).map((s) => s.trim()).filter(Boolean);
      if (list.some((item) => !allowed.includes(item))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return [...new Set(list)].join(',');
    });

export const levelList = () => choices(ALARM_LEVELS.map(String), '告警等级应为 1 到 4');
export const channelList = () => choices(CHANNELS, `通知方式应为 ${CHANNELS.join('、')}`);
const clock = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式应为 HH:mm');

/** A threshold (阈值): up to four levels of bounds and rates of change, with hysteresis bands. */
export const deviceThreshold = defineResource({
  service: 'wit-xinde',
  name: 'devicethreshold',
  menu: 'device_threshold',
  table: 'wit_device_threshold',
  tenancy: 'tenant',
  fields: z.object({
    /** Taken from the device or monitor point; required for a factor item rule. */
    projectId: id().nullish(),
    targetType: int().min(1, '请选择阈值对象').max(3, '阈值对象应为 1 设备点位、2 监测点、3 因素项'),
    deviceId: id().nullish(),
    pointKey: text(64).nullish(),
    monitorPointId: id().nullish(),
    factorsItemId: id().nullish(),
    name: text(64).nullish(),
    level1Upper: limit(),
    level1Lower: limit(),
    level2Upper: limit(),
    level2Lower: limit(),
    level3Upper: limit(),
    level3Lower: limit(),
    level4Upper: limit(),
    level4Lower: limit(),
    level1Rate: positive(),
    level2Rate: positive(),
    level3Rate: positive(),
    level4Rate: positive(),
    ratePeriod: int().min(1, '速率周期应为 1 每小时、2 每天').max(2, '速率周期应为 1 每小时、2 每天').optional(),
    /** How far back past a bound a value must come before its level is left (value units). */
    hysteresis: decimal().refine((v) => v >= 0, '回差不能为负数').optional(),
    rateHysteresis: decimal().refine((v) => v >= 0, '速率回差不能为负数').optional(),
    remark: text().nullish(),
  }),
  variants: ['selectList'],
  projectField: 'projectId',
  unique: [{ fields: ['targetType', 'projectId', 'deviceId', 'pointKey', 'monitorPointId', 'factorsItemId'], message: '该对象已设置阈值' }],
  references: {
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
    deviceId: { to: () => device, missing: '设备不存在或无权操作', as: 'deviceName' },
    monitorPointId: { to: () => monitorPoint, missing: '监测点不存在或无权操作', as: 'monitorPointName' },
    // A threshold on a factor item does not keep the item from removal (its device points do).
    factorsItemId: { to: () => monitorFactorsItem, missing: '因素项不存在', as: 'factorsItemName', holds: false },
  },
  example: { targetType: TARGET_TYPE.devicePoint, deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x', level1Upper: 0.5, level2Upper: 0.3, level3Upper: 0.2, level4Upper: 0.1, hysteresis: 0.01 },
});

/**
 * An alarm (告警): one open alarm per device channel raised by thresholds, moved between levels as readings
 * change, cleared past the hysteresis band; or recorded by a person (source 2). Submit records a manual alarm;
 * an update changes only its remark. Everything else is written by the alarm engine and batchHandle.
 */
export const alarm = defineResource({
  service: 'wit-xinde',
  name: 'alarm',
  menu: 'alarm_list',
  table: 'wit_alarm',
  tenancy: 'tenant',
  fields: z.object({
    projectId: id().nullish(),
    deviceId: id('请选择设备'),
    deviceCode: text(64).nullish(),
    pointKey: text(64).nullish(),
    monitorPointId: id().nullish(),
    thresholdId: id().nullish(),
    source: int().optional(),
    alarmType: int().optional(),
    alarmLevel: level(),
    maxLevel: int().optional(),
    alarmState: int().optional(),
    handleState: int().optional(),
    revision: int().optional(),
    title: text().nullish(),
    content: text(2000).nullish(),
    unit: text(32).nullish(),
    firstValue: decimal().nullish(),
    value: decimal().nullish(),
    limitValue: decimal().nullish(),
    /** Epoch ms of the reading behind the latest level change (alarm latency is measured from it). */
    readingTs: int().nullish(),
    firstTime: datetime().nullish(),
    levelTime: datetime().nullish(),
    clearTime: datetime().nullish(),
    handleUser: id().nullish(),
    handleUserName: text(64).nullish(),
    handleTime: datetime().nullish(),
    handleResult: text(2000).nullish(),
    remark: text(500).nullish(),
  }),
  variants: ['page'],
  projectField: 'projectId',
  orderBy: [{ field: 'levelTime', desc: true }],
  references: {
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
    deviceId: { to: () => device, missing: '设备不存在或无权操作', as: 'deviceName' },
  },
  example: { deviceId: REFERENCE_IDS.device, pointKey: 'tilt_x', alarmLevel: 3, content: '巡检发现塔顶倾角计支架松动' },
});

/** Every change of an alarm (告警日志): raise, escalation, de-escalation, clear, handling. */
export const alarmLog = defineResource({
  service: 'wit-xinde',
  name: 'alarmlog',
  menu: 'alarm_list',
  table: 'wit_alarm_log',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    alarmId: id(),
    projectId: id().nullish(),
    deviceId: id().nullish(),
    pointKey: text(64).nullish(),
    revision: int(),
    action: int(),
    fromLevel: int().nullish(),
    toLevel: int().nullish(),
    value: decimal().nullish(),
    limitValue: decimal().nullish(),
    readingTs: int().nullish(),
    logTime: datetime(),
    remark: text(2000).nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'logTime', desc: true }],
  references: { deviceId: { to: () => device, missing: '设备不存在或无权操作', as: 'deviceName' } },
});

/** Who is told (告警接收人): a user of the tenant and/or addresses, the channels they accept, the console sound. */
export const alarmRecipient = defineResource({
  service: 'wit-xinde',
  name: 'alarmrecipient',
  menu: 'alarm_recipient',
  table: 'wit_alarm_recipient',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入接收人姓名', 64),
    /** The platform user who gets in-app notices and the console sound. */
    userId: id().nullish(),
    phone: text(32).nullish(),
    email: z.email('邮箱格式不正确').max(255).nullish().or(z.literal('')),
    webhookUrl: url().nullish().or(z.literal('')),
    /** Channels this recipient accepts; empty means every channel they have an address for. */
    channels: channelList().nullish(),
    sound: flag().optional(),
    remark: text().nullish(),
  }),
  variants: ['selectList'],
  references: { userId: { to: () => user, missing: '用户不存在', as: 'userName' } },
  example: { name: '值班工程师', phone: '13800138000', email: 'duty@example.com', channels: 'email,sms' },
});

/** Which levels of which projects go to which recipients over which channels (告警通知策略). */
export const alarmNoticeStrategy = defineResource({
  service: 'wit-xinde',
  name: 'alarmnoticestrategy',
  menu: 'alarm_strategy',
  table: 'wit_alarm_notice_strategy',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入策略名称', 64),
    /** Empty: every project of the tenant. */
    projectIds: idList().nullish(),
    /** Empty: every level. */
    levels: levelList().nullish(),
    /** Alarm recipients told; `userIds` names platform users directly (in-app, and their e-mail and phone). */
    recipientIds: idList().nullish(),
    userIds: idList().nullish(),
    channels: channelList().refine((v) => v !== '', '请选择通知方式'),
    silenceStart: clock().nullish().or(z.literal('')),
    silenceEnd: clock().nullish().or(z.literal('')),
    /** Levels that still go out during the silence window (usually 1, red). */
    silenceExceptLevels: levelList().nullish(),
    /** Minutes between reminders while an alarm stays open and unhandled; 0 or empty: no reminders. */
    repeatInterval: int().min(0, '重复间隔不能为负数').max(10080, '重复间隔不能超过 7 天').nullish(),
    remark: text().nullish(),
  }),
  example: { name: '夜间仅红色告警', levels: '1,2,3,4', userIds: REFERENCE_IDS.adminUser, channels: 'notice', silenceStart: '22:00', silenceEnd: '07:00', silenceExceptLevels: '1', repeatInterval: 0 },
});

/** Every send attempt of an alarm notification, success or failure (告警发送日志). */
export const alarmSendLog = defineResource({
  service: 'wit-xinde',
  name: 'alarmsendlog',
  menu: 'alarm_send_log',
  table: 'wit_alarm_send_log',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    alarmId: id(),
    projectId: id().nullish(),
    revision: int(),
    round: int(),
    recipientId: id().nullish(),
    userId: id().nullish(),
    recipientName: text(64).nullish(),
    channel: text(16),
    target: text(1000).nullish(),
    attempt: int(),
    success: flag(),
    detail: text(2000).nullish(),
    readingTs: int().nullish(),
    sendTime: datetime(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'sendTime', desc: true }],
});
