import { flowInstance } from '../../resources/flow/flow';
import { ALARM_ACTION } from '../../resources/iot/alarm';
import type { CallContext } from '../db/repository';
import type { AlarmsChanged } from '../events';
import { nextId } from '../ids';
import type { InstanceRow, StepOutcome, Workflow } from '../flow/service';
import { INSTANCE_STATE } from '../flow/steps';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';

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
  /** Resolves once the alarms announced so far have been looked at (tests wait on it). */
  settled(): Promise<void>;
  stop(): void;
}

export function startDisposal(platform: Platform, workflow: Workflow): Disposal {
  let chain: Promise<void> = Promise.resolve();
  const onAlarms = (change: AlarmsChanged) => {
    chain = chain.then(() => consider(platform, workflow, change)).catch((error) => platform.logs.error('alarm.disposal', error, change.ids.join(',')));
  };
  platform.events.on('alarms', onAlarms);
  workflow.onStep((outcome, instance) => (outcome.ended && instance.businessTable === ALARM_TABLE ? closeAlarm(platform, workflow, outcome, instance) : undefined));
  return {
    settled: () => chain,
    stop: () => platform.events.off('alarms', onAlarms),
  };
}

/** Starts the disposal of each open, undisposed alarm whose level names a process. */
async function consider(platform: Platform, workflow: Workflow, change: AlarmsChanged): Promise<void> {
  const alarms = await platform.db
    .selectFrom('wit_alarm')
    .select(['id', 'tenantId', 'title', 'alarmLevel', 'deviceId', 'projectId', 'pointKey', 'value', 'unit'])
    .where('id', 'in', [...change.ids])
    .where('alarmState', '=', 1)
    .where('handleState', '=', 0)
    .where('processInstanceId', 'is', null)
    .where('isDeleted', '=', 0)
    .execute();
  for (const alarm of alarms) {
    const param = await platform.db
      .selectFrom('blade_param')
      .select('paramValue')
      .where('tenantId', '=', alarm.tenantId)
      .where('paramKey', '=', paramOfLevel(Number(alarm.alarmLevel)))
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    const key = param?.paramValue?.trim();
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
    const instanceId = await workflow.start(definition, {
      starter: null,
      title: String(alarm.title ?? '告警处置').slice(0, 255),
      businessTable: ALARM_TABLE,
      businessId: alarm.id,
      variables: { alarmId: alarm.id, alarmLevel: alarm.alarmLevel, alarmTitle: alarm.title, deviceId: alarm.deviceId, projectId: alarm.projectId, pointKey: alarm.pointKey, value: alarm.value, unit: alarm.unit },
    });
    const claimed = await platform.db.updateTable('wit_alarm').set({ processInstanceId: instanceId }).where('id', '=', alarm.id).where('processInstanceId', 'is', null).executeTakeFirst();
    // Another process started the alarm's disposal first: this instance is one too many.
    if (Number(claimed.numUpdatedRows) !== 1) await workflow.deleteInstance(instanceId, '告警已有处置流程', null);
    else platform.events.emit('changed', 'wit_alarm');
  }
}

/** The instance ended: its alarm is handled, with the record of each step and the last person who acted. */
async function closeAlarm(platform: Platform, workflow: Workflow, outcome: StepOutcome, instance: InstanceRow): Promise<void> {
  if (!instance.businessId) return;
  const steps = await platform.db
    .selectFrom('wf_history')
    .select(['name', 'assignee', 'comment', 'endTime'])
    .where('instanceId', '=', outcome.instanceId)
    .where('elementType', '=', 'bpmn:UserTask')
    .where('endTime', 'is not', null)
    .orderBy('endTime')
    .orderBy('id')
    .execute();
  const last = steps.filter((s) => s.assignee).at(-1);
  const user = last?.assignee ? await platform.db.selectFrom('blade_user').select(['realName', 'name', 'account']).where('id', '=', last.assignee).executeTakeFirst() : undefined;
  const record = steps.map((s) => `${s.name}: ${s.comment ?? ''}`).join('; ');
  const result = `告警处置流程完成 (${record})`.slice(0, 2000);
  const at = formatDateTime(new Date(workflow.clock.now()));
  await platform.db.transaction().execute(async (trx) => {
    const alarm = await trx.selectFrom('wit_alarm').select(['id', 'tenantId', 'projectId', 'deviceId', 'pointKey', 'revision', 'alarmLevel']).where('id', '=', instance.businessId as string).where('handleState', '=', 0).executeTakeFirst();
    if (!alarm) return;
    await trx
      .updateTable('wit_alarm')
      .set({ handleState: 1, handleUser: last?.assignee ?? null, handleUserName: user?.realName || user?.name || user?.account || null, handleTime: at, handleResult: result, updateTime: at })
      .where('id', '=', alarm.id)
      .execute();
    await trx
      .insertInto('wit_alarm_log')
      .values({ id: nextId(), tenantId: alarm.tenantId, alarmId: alarm.id, projectId: alarm.projectId, deviceId: alarm.deviceId, pointKey: alarm.pointKey, revision: alarm.revision, action: ALARM_ACTION.handle, fromLevel: alarm.alarmLevel, toLevel: alarm.alarmLevel, logTime: at, remark: result, createTime: at, updateTime: at, status: 1, isDeleted: 0 })
      .execute();
  });
  platform.events.emit('changed', 'wit_alarm');
  platform.events.emit('changed', 'wit_alarm_log');
  platform.events.emit('alarms', { tenantId: outcome.tenantId, ids: [instance.businessId], at: Date.now() });
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
