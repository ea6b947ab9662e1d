import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, flag, id, idList, int, required, text } from '../fields';
import { device, gateway } from './device';
import { REFERENCE_IDS } from './examples';
import { project } from './project';

/**
 * Device data (docs/data-model.md "Device data"): raw messages, recalculation runs, corrections of stored values,
 * commands pushed to devices and gateways, collection strategies and their runs. The time series itself
 * (`devicelog`, wit_device_log) is not a declared resource: its rows are keyed by device, channel and instant.
 */

/** Where a command push stands (wit_device_push_log.state). */
export const PUSH_STATE = { sent: 0, replied: 1, timeout: 2, failed: 3 } as const;
export const PUSH_STATE_NAMES: Readonly<Record<number, string>> = { 0: '已发送', 1: '已回复', 2: '超时未回复', 3: '执行失败' };

/** What a row of wit_device_log_update_log records. */
export const CORRECTION = { added: 1, corrected: 2, removed: 3, rangeRemoved: 4 } as const;

/** State of a recalculation run. */
export const RUN_STATE = { running: 0, done: 1, failed: 2 } as const;

/** A message as received (采集数据), kept raw by the ingestion pipeline with what became of it. */
export const collectData = defineResource({
  service: 'wit-xinde',
  name: 'collectdata',
  menu: 'collect_data',
  table: 'wit_collect_data',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    deviceId: id().nullish(),
    gatewayId: id().nullish(),
    projectId: id().nullish(),
    deviceCode: text(64).nullish(),
    topic: text(),
    payload: z.string(),
    /** Time of arrival, epoch milliseconds. */
    receivedAt: int(),
    /** How many values were stored. */
    readings: int(),
    error: z.string().nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'receivedAt', desc: true }],
});

/** Raw messages with the names of their device, gateway and project (采集数据视图), read-only. */
export const viewCollect = defineResource({
  ...collectData,
  name: 'viewcollect',
  variants: ['page'],
  references: {
    deviceId: { to: () => device, missing: '设备不存在', as: 'deviceName' },
    gatewayId: { to: () => gateway, missing: '网关不存在', as: 'gatewayName' },
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
  },
});

/** A recalculation of stored values from their raw readings (数据重算记录). */
export const collectCalculationLog = defineResource({
  service: 'wit-xinde',
  name: 'collectcalculationlog',
  menu: 'collect_calculation_log',
  table: 'wit_collect_calculation_log',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    deviceId: id(),
    deviceCode: text(64).nullish(),
    projectId: id().nullish(),
    pointKey: text(64).nullish(),
    startTs: int(),
    endTs: int(),
    /** The model formula and initial values the run used. */
    formula: z.string().nullish(),
    initialValues: z.string().nullish(),
    total: int(),
    changed: int(),
    failed: int(),
    state: int(),
    error: z.string().nullish(),
    elapsedMs: int().nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'createTime', desc: true }],
});

/** The audit of manual changes to stored values (数据修正记录): added, corrected or removed, with why. */
export const deviceLogUpdateLog = defineResource({
  service: 'wit-xinde',
  name: 'devicelogupdatelog',
  menu: 'device_log',
  table: 'wit_device_log_update_log',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    deviceId: id(),
    projectId: id().nullish(),
    pointKey: text(64),
    ts: int(),
    endTs: int().nullish(),
    action: int(),
    oldValue: z.number().nullish(),
    newValue: z.number().nullish(),
    affected: int().nullish(),
    reason: text().nullish(),
    remark: text().nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'createTime', desc: true }],
});

/** Commands pushed to devices and gateways (指令下发记录) and what they answered. */
export const devicePushLog = defineResource({
  service: 'wit-xinde',
  name: 'devicepushlog',
  menu: 'device_list',
  table: 'wit_device_push_log',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    deviceId: id().nullish(),
    gatewayId: id().nullish(),
    projectId: id().nullish(),
    code: text(64),
    topic: text(),
    commandName: text().nullish(),
    /** The JSON published: {id, command, params, ts}. */
    command: z.string(),
    messageId: text(32),
    state: int(),
    reply: z.string().nullish(),
    repliedAt: datetime().nullish(),
    /** `api`, or `strategy:<id>` for a run of a collection strategy. */
    source: text().nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'createTime', desc: true }],
});

/** Daily times `HH:mm`, comma-joined ("08:00,20:00"), stored sorted without repeats. */
const dailyTimes = () =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value, ctx) => {
      const list = (Array.isArray(value) ? value : value.split(',')).map((s) => s.trim()).filter(Boolean);
      if (list.some((t) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(t))) {
        ctx.addIssue({ code: 'custom', message: '采集时刻格式应为 HH:mm,多个用逗号分隔' });
        return z.NEVER;
      }
      return list.length ? [...new Set(list)].sort().join(',') : null;
    });

/** The command a strategy sends: a JSON object with a `command` name and optional `params`. */
const commandJson = () =>
  z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .transform((value, ctx) => {
      let parsed: unknown = value;
      if (typeof value === 'string') {
        try {
          parsed = JSON.parse(value);
        } catch {
          parsed = undefined;
        }
      }
      const command = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>).command : undefined;
      if (typeof command !== 'string' || !/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(command)) {
        ctx.addIssue({ code: 'custom', message: '指令应为 JSON 对象,如 {"command":"collect","params":{}}' });
        return z.NEVER;
      }
      return JSON.stringify(parsed);
    });

/**
 * A collection strategy (采集策略): every `intervalSeconds`, and/or daily at `times`, the server sends `command` to the
 * strategy's gateway and devices. `enabled` 1 runs it (start), 0 stops it.
 */
export const collectStrategy = defineResource({
  service: 'wit-xinde',
  name: 'collectstrategy',
  menu: 'collect_strategy',
  table: 'wit_collect_strategy',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入策略名称', 64),
    projectId: id('请选择项目'),
    gatewayId: id().nullish(),
    deviceIds: idList().nullish(),
    intervalSeconds: int().min(5, '采集间隔至少5秒').max(31 * 86_400, '采集间隔最多31天').nullish(),
    times: dailyTimes().nullish(),
    command: commandJson().nullish(),
    enabled: flag().optional(),
    lastRunTime: datetime().nullish(),
    remark: text().nullish(),
  }),
  variants: ['selectlist'],
  projectField: 'projectId',
  unique: [{ fields: ['projectId', 'name'], message: '该项目已有同名策略' }],
  references: {
    projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
    gatewayId: { to: () => gateway, missing: '网关不存在或无权操作', as: 'gatewayName' },
  },
  example: { name: '示例定时采集', projectId: REFERENCE_IDS.project, deviceIds: REFERENCE_IDS.device, intervalSeconds: 600, command: { command: 'collect' }, enabled: 0 },
});

/** Strategies with the names of their project and gateway and their device count (策略视图), read-only. */
export const viewStrateg = defineResource({ ...collectStrategy, name: 'viewstrateg', readOnly: true, variants: ['page'], unique: undefined, example: undefined });

/** One run of a collection strategy (任务执行记录): when, why, to how many targets. */
export const jobInfo = defineResource({
  service: 'wit-xinde',
  name: 'jobinfo',
  menu: 'collect_strategy',
  table: 'wit_job_info',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    strategyId: id(),
    strategyName: text().nullish(),
    projectId: id().nullish(),
    /** `interval`, `time` (a daily time) or `manual`. */
    triggerType: text(16),
    runTime: datetime(),
    targets: int(),
    sent: int(),
    message: z.string().nullish(),
  }),
  projectField: 'projectId',
  orderBy: [{ field: 'runTime', desc: true }],
});
