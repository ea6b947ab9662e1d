import { flowInstance } from '../../resources/flow/flow';
import { ALARM_ACTION } from '../../resources/iot/alarm';
import type { Db } from '../db/database';
import type { CallContext } from '../db/repository';
import type { AlarmsChanged } from '../events';
import { nextId } from '../ids';
import type { Workflow } from '../flow/service';
import { INSTANCE_STATE } from '../flow/steps';
import type { Platform } from '../platform';
import { formatDateTime, parseDateTime } from '../time';

/**
 * Alarm disposal as a process (docs/alarms.md "Disposal"): a tenant names, per alarm level, the process key its
 * alarms start (param `alarm.flow.<level>`, e.g. `alarm.flow.1 = alarm_disposal` for red). An open threshold alarm
 * that reaches such a level — raised there or escalated to it — starts one instance, whose id the alarm keeps; when
 * the instance ends, the alarm is handled with the process's record: who reviewed it last and what each step said.
 *
 * Background work: the alarm and the tenant's param are read without a caller, the tenant is the alarm's.
 */

export const ALARM_TABLE = 'wit_alarm';
const paramOfLevel = (level: number) => `alarm.flow.${level}`;

export interface Disposal {
  /** Resolves once the alarms announced so far — and the reconciliation at start — have been looked at (tests wait on it). */
  settled(): Promise<void>;
  stop(): void;
}

/** Another process linked the alarm to its disposal first: this start is undone with its transaction. */
class AlreadyDisposed extends Error {}

/**
 * Starts listening for alarms and reconciles what a crash may have left (`reconcile`). The alarm's link to its
 * instance commits with the instance's start, and its handling with the step that ends the instance: no crash
 * leaves one without the other.
 */
export function startDisposal(platform: Platform, workflow: Workflow): Disposal {
  const log = (error: unknown, what: string) => platform.logs.error('alarm.disposal', error, what);
  let chain: Promise<void> = reconcile(platform, workflow).catch((error) => log(error, 'reconcile'));
  const onAlarms = (change: AlarmsChanged) => {
    chain = chain.then(() => consider(platform, workflow, change.ids)).catch((error) => log(error, change.ids.join(',')));
  };
  platform.events.on('alarms', onAlarms);
  workflow.onStepWrite(async (trx, outcome, instance) => {
    if (outcome.ended && instance.businessTable === ALARM_TABLE && instance.businessId) await closeAlarm(trx, workflow, outcome.instanceId, instance.businessId);
  });
  workflow.onStep((outcome, instance) => {
    if (outcome.ended && instance.businessTable === ALARM_TABLE && instance.businessId) alarmHandled(platform, outcome.tenantId, instance.businessId);
  });
  return {
    settled: () => chain,
    stop: () => platform.events.off('alarms', onAlarms),
  };
}

/** The process key a tenant's alarms of a level start, if any (param `alarm.flow.<level>`). */
async function processKeyOf(platform: Platform, tenantId: string, level: number): Promise<string | undefined> {
  const param = await platform.db
    .selectFrom('blade_param')
    .select('paramValue')
    .where('tenantId', '=', tenantId)
    .where('paramKey', '=', paramOfLevel(level))
    .where('isDeleted', '=', 0)
    .executeTakeFirst();
  return param?.paramValue?.trim() || undefined;
}

/** Starts the disposal of each open, undisposed alarm whose level names a process. */
async function consider(platform: Platform, workflow: Workflow, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const alarms = await platform.db
    .selectFrom('wit_alarm')
    .select(['id', 'tenantId', 'title', 'alarmLevel', 'deviceId', 'projectId', 'pointKey', 'value', 'unit'])
    .where('id', 'in', [...ids])
    .where('alarmState', '=', 1)
    .where('handleState', '=', 0)
    .where('processInstanceId', 'is', null)
    .where('isDeleted', '=', 0)
    .execute();
  for (const alarm of alarms) {
    const key = await processKeyOf(platform, alarm.tenantId, Number(alarm.alarmLevel));
    if (!key) continue;
    const definition = await platform.db
      .selectFrom('wf_definition')
      .select(['id', 'tenantId', 'processKey', 'xml', 'suspensionState'])
      .where('tenantId', '=', alarm.tenantId)
      .where('processKey', '=', key)
      .where('isDeleted', '=', 0)
      .orderBy('version', 'desc')
      .executeTakeFirst();
    if (definition?.suspensionState !== 1) {
      platform.logs.error('alarm.disposal', new Error(`process ${key} is not deployed or is suspended`), alarm.tenantId);
      continue;
    }
    const input = {
      starter: null,
      title: String(alarm.title ?? '告警处置').slice(0, 255),
      businessTable: ALARM_TABLE,
      businessId: alarm.id,
      variables: { alarmId: alarm.id, alarmLevel: alarm.alarmLevel, alarmTitle: alarm.title, deviceId: alarm.deviceId, projectId: alarm.projectId, pointKey: alarm.pointKey, value: alarm.value, unit: alarm.unit },
    };
    try {
      await workflow.start(definition, input, async (trx, instanceId) => {
        if (!(await linkAlarm(trx, alarm.id, instanceId))) throw new AlreadyDisposed();
      });
    } catch (error) {
      if (error instanceof AlreadyDisposed) continue;
      throw error;
    }
    platform.events.emit('changed', 'wit_alarm');
  }
}

/** Links the alarm to its instance unless another process linked it first (false then). */
async function linkAlarm(db: Db, alarmId: string, instanceId: string): Promise<boolean> {
  const linked = await db.updateTable('wit_alarm').set({ processInstanceId: instanceId }).where('id', '=', alarmId).where('processInstanceId', 'is', null).executeTakeFirst();
  return Number(linked.numUpdatedRows) === 1;
}

/**
 * The instance ended: its alarm is handled, with the record of each step and the last person who acted — in the
 * transaction given (the ending step's, or the reconciliation's), once: an alarm handled already is left as it is.
 */
async function closeAlarm(trx: Db, workflow: Workflow, instanceId: string, alarmId: string): Promise<void> {
  const steps = await trx
    .selectFrom('wf_history')
    .select(['name', 'assignee', 'comment', 'endTime'])
    .where('instanceId', '=', instanceId)
    .where('elementType', '=', 'bpmn:UserTask')
    .where('endTime', 'is not', null)
    .orderBy('endTime')
    .orderBy('id')
    .execute();
  const last = steps.filter((s) => s.assignee).at(-1);
  const user = last?.assignee ? await trx.selectFrom('blade_user').select(['realName', 'name', 'account']).where('id', '=', last.assignee).executeTakeFirst() : undefined;
  const record = steps.map((s) => `${s.name}: ${s.comment ?? ''}`).join('; ');
  const result = `告警处置流程完成 (${record})`.slice(0, 2000);
  const at = formatDateTime(new Date(workflow.clock.now()));
  const alarm = await trx.selectFrom('wit_alarm').select(['id', 'tenantId', 'projectId', 'deviceId', 'pointKey', 'revision', 'alarmLevel']).where('id', '=', alarmId).where('handleState', '=', 0).executeTakeFirst();
  if (!alarm) return;
  const handled = await trx
    .updateTable('wit_alarm')
    .set({ handleState: 1, handleUser: last?.assignee ?? null, handleUserName: user?.realName || user?.name || user?.account || null, handleTime: at, handleResult: result, updateTime: at })
    .where('id', '=', alarm.id)
    .where('handleState', '=', 0)
    .executeTakeFirst();
  // Another process's reconciliation handled it meanwhile: one handling, one record.
  if (Number(handled.numUpdatedRows) !== 1) return;
  await trx
    .insertInto('wit_alarm_log')
    .values({ id: nextId(), tenantId: alarm.tenantId, alarmId: alarm.id, projectId: alarm.projectId, deviceId: alarm.deviceId, pointKey: alarm.pointKey, revision: alarm.revision, action: ALARM_ACTION.handle, fromLevel: alarm.alarmLevel, toLevel: alarm.alarmLevel, logTime: at, remark: result, createTime: at, updateTime: at, status: 1, isDeleted: 0 })
    .execute();
}

/** Tells the lists and the alarm's watchers that an alarm was handled by its process (after the commit). */
function alarmHandled(platform: Platform, tenantId: string, alarmId: string): void {
  platform.events.emit('changed', 'wit_alarm');
  platform.events.emit('changed', 'wit_alarm_log');
  platform.events.emit('alarms', { tenantId, ids: [alarmId], at: Date.now() });
}

/**
 * At start, what a crash — or a version that wrote these apart — may have left: an ended disposal whose alarm is still
 * unhandled is handled; a running disposal its alarm does not name is linked to it, or ended when the alarm has
 * another or needs none; an open alarm that should have a disposal and has none (its event was lost with the
 * process) gets one (`catchUp`). Every process does this at its start; each write is conditional, so one of them makes it.
 */
async function reconcile(platform: Platform, workflow: Workflow): Promise<void> {
  const ended = await platform.db
    .selectFrom('wit_alarm as a')
    .innerJoin('wf_instance as i', 'i.id', 'a.processInstanceId')
    .select(['a.id', 'a.tenantId', 'i.id as instanceId'])
    .where('a.handleState', '=', 0)
    .where('a.isDeleted', '=', 0)
    .where('i.state', '=', INSTANCE_STATE.completed)
    .execute();
  for (const alarm of ended) {
    await platform.db.transaction().execute((trx) => closeAlarm(trx, workflow, alarm.instanceId, alarm.id));
    alarmHandled(platform, alarm.tenantId, alarm.id);
  }
  await adoptOrphans(platform, workflow);
  await catchUp(platform, workflow);
}

/** Running disposals their alarm does not name: linked when the alarm waits for one, else ended. */
async function adoptOrphans(platform: Platform, workflow: Workflow): Promise<void> {
  const orphans = await platform.db
    .selectFrom('wf_instance as i')
    .innerJoin('wit_alarm as a', 'a.id', 'i.businessId')
    .select(['i.id', 'a.id as alarmId', 'a.processInstanceId', 'a.alarmState', 'a.handleState', 'a.isDeleted'])
    .where('i.businessTable', '=', ALARM_TABLE)
    .where('i.state', '=', INSTANCE_STATE.running)
    .where((eb) => eb.or([eb('a.processInstanceId', 'is', null), eb('a.processInstanceId', '<>', eb.ref('i.id'))]))
    .execute();
  for (const orphan of orphans) {
    const waits = orphan.processInstanceId === null && orphan.alarmState === 1 && orphan.handleState === 0 && orphan.isDeleted === 0;
    const adopted = waits && (await linkAlarm(platform.db, orphan.alarmId, orphan.id));
    if (adopted) platform.events.emit('changed', 'wit_alarm');
    else await workflow.deleteInstance(orphan.id, '告警已有处置流程', null).catch((error: unknown) => platform.logs.error('alarm.disposal', error, orphan.id));
  }
}

/**
 * Open alarms without a disposal that reached a level after the tenant attached a process to it (the param's last
 * change): their event was lost with a process. Alarms at the level from before are left alone, as they were then.
 */
async function catchUp(platform: Platform, workflow: Workflow): Promise<void> {
  const params = await platform.db
    .selectFrom('blade_param')
    .select(['tenantId', 'paramKey', 'updateTime'])
    .where('paramKey', 'like', 'alarm.flow.%')
    .where('isDeleted', '=', 0)
    .execute();
  for (const param of params) {
    const level = Number(param.paramKey.slice('alarm.flow.'.length));
    const attached = parseDateTime(String(param.updateTime ?? ''))?.getTime();
    if (!Number.isInteger(level) || attached === undefined) continue;
    const waiting = await platform.db
      .selectFrom('wit_alarm')
      .select('id')
      .where('tenantId', '=', param.tenantId)
      .where('alarmLevel', '=', level)
      .where('levelAt', '>=', attached)
      .where('alarmState', '=', 1)
      .where('handleState', '=', 0)
      .where('processInstanceId', 'is', null)
      .where('isDeleted', '=', 0)
      .execute();
    await consider(platform, workflow, waiting.map((a) => a.id));
  }
}

/** The disposal of alarms as their list shows it: the instance's state and the tasks open now. */
export async function disposalStates(platform: Platform, ctx: CallContext, instanceIds: readonly string[]): Promise<Map<string, { state: number; tasks: string }>> {
  if (instanceIds.length === 0) return new Map();
  const rows = await (await platform.repo(flowInstance).select(ctx, { wholeTenant: true }))
    .leftJoin('wf_task', (join) => join.onRef('wf_task.instanceId', '=', 'wf_instance.id').on('wf_task.state', '=', 1))
    .select(['wf_instance.id', 'wf_instance.state', 'wf_task.name'])
    .where('wf_instance.id', 'in', [...instanceIds])
    .execute();
  const out = new Map<string, { state: number; tasks: string }>();
  for (const row of rows) {
    const entry = out.get(row.id) ?? { state: Number(row.state), tasks: '' };
    if (row.name && Number(row.state) === INSTANCE_STATE.running) entry.tasks = entry.tasks ? `${entry.tasks},${row.name}` : row.name;
    out.set(row.id, entry);
  }
  return out;
}
