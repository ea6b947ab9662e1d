import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  ALARM_ACTION,
  ALARM_LEVELS,
  ALARM_SOURCE,
  ALARM_STATE,
  ALARM_TYPE,
  ALARM_TYPE_NAMES,
  type AlarmLevel,
  alarm,
  alarmLog,
  alarmNoticeStrategy,
  alarmRecipient,
  deviceThreshold,
  LEVEL_NAMES,
  TARGET_TYPE,
} from '../../../resources/iot/alarm';
import type { Resource } from '../../../resources/define';
import { device } from '../../../resources/iot/device';
import { monitorFactorsItem, monitorPoint } from '../../../resources/iot/monitoring';
import { project } from '../../../resources/iot/project';
import { user } from '../../../resources/system/user';
import { alarmHref } from '../../alarms/channels';
import { disposalStates } from '../../alarms/disposal';
import { ruleOf, ruleProblem } from '../../alarms/evaluate';
import type { Row } from '../../db/database';
import { tenantOfRow, withReferenceNames } from '../../db/references';
import { type CallContext, transact } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { contextOf, idsOf, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, invalidParam, missingParam, ok } from '../../http/envelope';
import { refuseLocalUrl } from '../../net/check';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { unreadNotices } from '../blade-desk';
import { phoneProblem } from '../blade-resource/sms';
import { argsOf, countOf, eq, hasPoint, idArg, WHOLE_TENANT, within } from './common';
import { menuRight, needs } from '../../auth/rights';

/** The most alarm notices getNoticeInfo lists (the console shows a 300px scroll area; alarmNum counts them all). */
const NOTICE_LIMIT = 50;
const ALARM_NOTICE_CATEGORY = 8;

const list = (value: unknown): string[] =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The caller's own tenant: the notice centre and the home statistics never mix tenants, even for the platform administrator. */
const ownTenant = (ctx: CallContext): Condition => eq('tenantId', ctx.principal.tenantId);

/** One visible row of a resource by id, or a 400 with `message`. */
async function visible(platform: Platform, ctx: CallContext, resource: Resource, id: unknown, tenantId: string, message: string): Promise<Row> {
  const [row] = await platform.repo(resource).all(ctx, {}, [eq('id', String(id)), eq('tenantId', tenantId)], 1);
  if (!row) throw badRequest(message);
  return row;
}

/**
 * Threshold targets: the object named (given, or kept from before) must exist, the fields of other targets are
 * cleared, the project follows the object. Objects given were found by the CRUD builder (`referenced`).
 */
async function prepareThreshold(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined, referenced: ReadonlyMap<string, Row>): Promise<Row> {
  const tenantId = tenantOfRow(ctx, values, existing);
  const merged = { ...existing, ...values };
  const named = (field: string, resource: Resource, message: string) => referenced.get(field) ?? visible(platform, ctx, resource, merged[field], tenantId, message);
  const type = Number(merged.targetType);
  const out: Row = { ...values, targetType: type };
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  if (type === TARGET_TYPE.devicePoint) {
    if (blank(merged.deviceId)) throw badRequest('请选择设备');
    if (blank(merged.pointKey)) throw badRequest('请选择点位');
    const dev = await named('deviceId', device, '设备不存在或无权操作');
    if (!(await hasPoint(platform, ctx, String(dev.id), String(merged.pointKey)))) throw badRequest('设备没有该点位');
    Object.assign(out, { projectId: dev.projectId ?? null, monitorPointId: null, factorsItemId: null });
  } else if (type === TARGET_TYPE.monitorPoint) {
    if (blank(merged.monitorPointId)) throw badRequest('请选择监测点');
    const point = await named('monitorPointId', monitorPoint, '监测点不存在或无权操作');
    Object.assign(out, { projectId: point.projectId, deviceId: null, pointKey: null, factorsItemId: null });
  } else {
    if (blank(merged.factorsItemId)) throw badRequest('请选择因素项');
    if (blank(merged.projectId)) throw badRequest('请选择项目');
    await named('factorsItemId', monitorFactorsItem, '因素项不存在');
    await named('projectId', project, '项目不存在或无权操作');
    Object.assign(out, { deviceId: null, pointKey: null, monitorPointId: null });
  }
  const problem = ruleProblem(ruleOf({ ...merged, ...out }));
  if (problem) throw badRequest(problem);
  return out;
}

/** A manual alarm (submit without id) names a visible device; an update changes only the remark. */
async function prepareAlarm(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined, referenced: ReadonlyMap<string, Row>): Promise<Row> {
  if (existing) return values.remark === undefined ? {} : { remark: values.remark };
  const tenantId = tenantOfRow(ctx, values, existing);
  const dev = referenced.get('deviceId') ?? (await visible(platform, ctx, device, values.deviceId, tenantId, '设备不存在或无权操作'));
  if (values.pointKey) {
    if (!(await hasPoint(platform, ctx, String(dev.id), String(values.pointKey)))) throw badRequest('设备没有该点位');
  }
  const level = Number(values.alarmLevel) as AlarmLevel;
  const now = new Date();
  const stamp = formatDateTime(now);
  return {
    remark: values.remark ?? null,
    tenantId,
    deviceId: dev.id,
    deviceCode: dev.code,
    pointKey: values.pointKey || null,
    projectId: dev.projectId ?? null,
    source: ALARM_SOURCE.manual,
    alarmType: ALARM_TYPE.manual,
    alarmLevel: level,
    maxLevel: level,
    alarmState: ALARM_STATE.open,
    handleState: 0,
    revision: 1,
    title: values.title || `${dev.name}(${dev.code}) ${LEVEL_NAMES[level]}告警(人工上报)`,
    content: values.content ?? null,
    firstTime: stamp,
    levelTime: stamp,
    levelAt: now.getTime(),
  };
}

/** Level and type names and the link; the project and device names are declared. */
async function decorateAlarms(platform: Platform, ctx: CallContext, rows: Row[]): Promise<Row[]> {
  const disposals = await disposalStates(platform, ctx, rows.map((r) => r.processInstanceId).filter((id): id is string => typeof id === 'string'));
  return rows.map((r) => ({
    ...r,
    // Its disposal process (docs/alarms.md "Disposal"): 1 running, 3 completed, 4 deleted; the tasks open now.
    processState: disposals.get(String(r.processInstanceId))?.state ?? null,
    processTasks: disposals.get(String(r.processInstanceId))?.tasks ?? null,
    alarmLevelName: LEVEL_NAMES[Number(r.alarmLevel) as AlarmLevel] ?? '',
    alarmTypeName: ALARM_TYPE_NAMES[Number(r.alarmType)] ?? '',
    href: alarmHref(String(r.id)),
  }));
}

/** An unhandled alarm as an entry of the notice centre (spec §3 "Notice"). */
const noticeOfAlarm = (row: Row): Row => ({
  id: row.id,
  noticeId: row.id,
  title: row.title,
  content: row.content,
  category: ALARM_NOTICE_CATEGORY,
  categoryName: '告警通知',
  alarmType: row.alarmLevel,
  alarmLevel: row.alarmLevel,
  alarmLevelName: LEVEL_NAMES[Number(row.alarmLevel) as AlarmLevel] ?? '',
  alarmState: row.alarmState,
  releaseTime: row.levelTime,
  readFlag: 0,
  href: alarmHref(String(row.id)),
});

/** Marks the visible alarms handled with who, when and the result; each handling is logged. */
async function handleAlarms(platform: Platform, ctx: CallContext, args: Row): Promise<number> {
  const ids = idsOf(args);
  const result = text(args, 'handleResult');
  if (!result) throw badRequest('请输入处理结果');
  if (result.length > 2000) throw invalidParam('handleResult: 长度不能超过2000个字符');
  if (ids.length > 1000) throw invalidParam('一次最多处理1000条告警');
  const rows = await platform.repo(alarm).all(ctx, {}, [within('id', ids)], 1000);
  if (rows.length === 0) throw badRequest('数据不存在或无权操作');
  const p = ctx.principal;
  const stamp = formatDateTime();
  const handling = { handleState: 1, handleUser: p.userId, handleUserName: p.nickName || p.userName || p.account, handleTime: stamp, handleResult: result };
  const logs = rows.map((r) => ({
    tenantId: r.tenantId,
    alarmId: r.id,
    projectId: r.projectId ?? null,
    deviceId: r.deviceId,
    pointKey: r.pointKey ?? null,
    revision: r.revision,
    action: ALARM_ACTION.handle,
    fromLevel: r.alarmLevel,
    toLevel: r.alarmLevel,
    logTime: stamp,
    remark: result,
  }));
  await transact(platform, async (trx) => {
    await platform.repo(alarm).within(trx).updateWhere(ctx, handling, [within('id', rows.map((r) => r.id))]);
    await platform.repo(alarmLog).within(trx).insertMany(ctx, logs, stamp);
  });
  announceAlarms(platform, ctx, rows.map((r) => r.id));
  return rows.length;
}

/** Tells the wall screens (the `alarms` event) which alarms a call changed. */
function announceAlarms(platform: Platform, ctx: CallContext, ids: readonly string[]): void {
  if (ids.length) platform.events.emit('alarms', { tenantId: ctx.principal.tenantId, ids, at: Date.now() });
}

/** Counts by level (open alarms), by state and handling, and the alarms raised on each of the last 7 days by level. */
async function alarmStatistics(platform: Platform, ctx: CallContext, projectId: string | undefined): Promise<Row> {
  const repo = platform.repo(alarm);
  const conditions = [ownTenant(ctx), ...(projectId ? [eq('projectId', projectId)] : [])];
  const groups = (await (await repo.query(ctx, {}, conditions))
    .select(['alarmLevel', 'alarmState', 'handleState', (eb) => eb.fn.countAll<number>().as('total')])
    .groupBy(['alarmLevel', 'alarmState', 'handleState'])
    .execute()) as Row[];
  const sum = (test: (g: Row) => boolean) => groups.filter(test).reduce((n, g) => n + Number(g.total), 0);
  const first = new Date();
  first.setHours(0, 0, 0, 0);
  first.setDate(first.getDate() - 6);
  const days = Array.from({ length: 7 }, (_, i) => formatDateTime(new Date(first.getFullYear(), first.getMonth(), first.getDate() + i)).slice(0, 10));
  const day = sql<string>`substr(first_time, 1, 10)`;
  const raised = (await (await repo.query(ctx, {}, [...conditions, (eb) => eb('firstTime', '>=', `${days[0]} 00:00:00`)]))
    .select([day.as('day'), 'alarmLevel', (eb) => eb.fn.countAll<number>().as('total')])
    .groupBy([day, 'alarmLevel'])
    .execute()) as Row[];
  const count = (d: string, level?: number) => raised.filter((r) => r.day === d && (level === undefined || Number(r.alarmLevel) === level)).reduce((n, r) => n + Number(r.total), 0);
  return {
    levels: ALARM_LEVELS.map((level) => ({ level, name: LEVEL_NAMES[level], count: sum((g) => Number(g.alarmLevel) === level && Number(g.alarmState) === ALARM_STATE.open) })),
    total: sum(() => true),
    open: sum((g) => Number(g.alarmState) === ALARM_STATE.open),
    cleared: sum((g) => Number(g.alarmState) === ALARM_STATE.cleared),
    handled: sum((g) => Number(g.handleState) === 1),
    unhandled: sum((g) => Number(g.handleState) === 0),
    trend: days.map((d) => ({ date: d, total: count(d), ...Object.fromEntries(ALARM_LEVELS.map((level) => [`level${level}`, count(d, level)])) })),
  };
}

/** The caller's console alarm sound: on unless a recipient row of theirs turned it off. */
async function soundOf(platform: Platform, ctx: CallContext): Promise<number> {
  const row = await (await platform.repo(alarmRecipient).select(ctx, WHOLE_TENANT))
    .select('sound')
    .where('tenantId', '=', ctx.principal.tenantId)
    .where('userId', '=', ctx.principal.userId)
    .orderBy('id')
    .executeTakeFirst();
  return row ? Number(row.sound) : 1;
}

/** soundPperation {id?, sound}: a recipient's sound, or (no id) the caller's own, creating their recipient row. */
async function setSound(platform: Platform, ctx: CallContext, args: Row): Promise<number> {
  const raw = text(args, 'sound');
  if (raw === undefined) throw missingParam('sound');
  if (raw !== '0' && raw !== '1') throw invalidParam('sound: 声音开关应为 0 或 1');
  const sound = Number(raw);
  const repo = platform.repo(alarmRecipient);
  const id = idArg(args, 'id');
  if (id) {
    await repo.update(ctx, id, { sound });
    return sound;
  }
  const mine = await repo.all(ctx, {}, [ownTenant(ctx), eq('userId', ctx.principal.userId)]);
  if (mine.length === 0) {
    const p = ctx.principal;
    await repo.insert(ctx, { name: (p.nickName || p.userName || p.account).slice(0, 64), userId: p.userId, channels: 'notice', sound });
  }
  for (const row of mine) await repo.update(ctx, row.id, { sound });
  return sound;
}

/** A user of the tenant, whether or not the caller's data scope shows it. */
async function checkUser(platform: Platform, ctx: CallContext, tenantId: string, userId: unknown): Promise<void> {
  if (userId === undefined || userId === null || userId === '') return;
  const found = await (await platform.repo(user).select(ctx, WHOLE_TENANT)).select('id').where('id', '=', String(userId)).where('tenantId', '=', tenantId).executeTakeFirst();
  if (!found) throw badRequest('用户不存在');
}

/** The recipient's user is a declared reference, checked by the CRUD builder. */
async function prepareRecipient(platform: Platform, values: Row): Promise<Row> {
  if (typeof values.phone === 'string' && values.phone !== '') {
    const problem = phoneProblem(values.phone);
    if (problem) throw badRequest(problem);
  }
  // A webhook is a tenant's address: judged by the outbound guard when written, and at every post.
  await refuseLocalUrl(platform, values.webhookUrl);
  return values;
}

async function prepareStrategy(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> {
  const tenantId = tenantOfRow(ctx, values, existing);
  const merged = { ...existing, ...values };
  if (list(merged.recipientIds).length + list(merged.userIds).length === 0) throw badRequest('请选择告警接收人');
  if (!merged.silenceStart !== !merged.silenceEnd) throw badRequest('请同时设置静默开始和结束时间');
  const recipients = list(values.recipientIds);
  if (recipients.length) {
    const found = await (await platform.repo(alarmRecipient).select(ctx, WHOLE_TENANT)).select('id').where('tenantId', '=', tenantId).where('id', 'in', recipients).execute();
    if (found.length !== new Set(recipients).size) throw badRequest('告警接收人不存在');
  }
  for (const userId of list(values.userIds)) await checkUser(platform, ctx, tenantId, userId);
  for (const projectId of list(values.projectIds)) await visible(platform, ctx, project, projectId, tenantId, '项目不存在或无权操作');
  return values;
}

/** Thresholds, alarms and their log, recipients, notice strategies and the send log (docs/alarms.md). */
export function registerAlarms(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, deviceThreshold, {
    beforeSave: (ctx, values, existing, referenced) => prepareThreshold(platform, ctx, values, existing, referenced),
  });
  app.get('/wit-xinde/devicethreshold/selectThresholdData', needs('device_threshold'), async (request) => {
    const ctx = contextOf(request);
    const projectId = idArg(argsOf(request), 'projectId');
    const rows = await platform.repo(deviceThreshold).all(ctx, {}, projectId ? [eq('projectId', projectId)] : []);
    return ok(await withReferenceNames(platform, deviceThreshold, rows));
  });
  // The rule cache reloads itself on every threshold change; this asks for it explicitly (after direct DB edits).
  app.post('/wit-xinde/devicethreshold/rdfreshCache', needs('device_threshold_edit'), async (request) => {
    contextOf(request);
    platform.events.emit('changed', deviceThreshold.table);
    return ok(true);
  });

  registerCrud(app, platform, alarm, {
    beforeSave: (ctx, values, existing, referenced) => prepareAlarm(platform, ctx, values, existing, referenced),
    afterSave: (ctx, row) => announceAlarms(platform, ctx, [String(row.id)]),
    afterRemove: (ctx, ids) => announceAlarms(platform, ctx, ids),
    decorate: (ctx, rows) => decorateAlarms(platform, ctx, rows),
  });
  app.post('/wit-xinde/alarm/batchHandle', needs('alarm_list_handle'), async (request) => {
    await handleAlarms(platform, contextOf(request), argsOf(request));
    return ok(true);
  });
  app.get('/wit-xinde/alarm/getNoticeInfo', needs.self, async (request) => {
    const ctx = contextOf(request);
    const repo = platform.repo(alarm);
    const unhandled = [ownTenant(ctx), eq('handleState', 0)];
    // The bell is everybody's; its alarms only for those who may open the alarm list.
    const seesAlarms = await platform.rights.allows(ctx.principal, menuRight('alarm_list'));
    const [rows, alarmNum, stationNotices, sound] = await Promise.all([
      seesAlarms ? repo.all(ctx, { descs: 'levelTime' }, unhandled, NOTICE_LIMIT) : [],
      seesAlarms ? countOf(repo, ctx, unhandled) : 0,
      unreadNotices(platform, ctx),
      soundOf(platform, ctx),
    ]);
    return ok({ alarmNotices: rows.map(noticeOfAlarm), alarmNum, stationNotices, sound });
  });
  app.get('/wit-xinde/index/getAlarmInfoData', needs.lookup, async (request) => {
    const ctx = contextOf(request);
    return ok(await alarmStatistics(platform, ctx, idArg(argsOf(request), 'projectId')));
  });

  registerCrud(app, platform, alarmRecipient, {
    beforeSave: (_ctx, values) => prepareRecipient(platform, values),
  });
  app.post('/wit-xinde/alarmrecipient/soundPperation', needs.self, async (request) => ok({ sound: await setSound(platform, contextOf(request), argsOf(request)) }));
  /** Whether the caller hears the console alarm sound (our addition: the console reads it at start). */
  app.get('/wit-xinde/alarmrecipient/sound', needs.self, async (request) => ok({ sound: await soundOf(platform, contextOf(request)) }));

  registerCrud(app, platform, alarmNoticeStrategy, { beforeSave: (ctx, values, existing) => prepareStrategy(platform, ctx, values, existing) });
}
