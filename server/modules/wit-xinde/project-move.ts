import type { Db, Row } from '../../db/database';
import { badRequest } from '../../http/envelope';
import { ADMINISTRATOR } from '../../auth/principal';
import { splitIds } from '../blade-user/tenancy';

/**
 * What belongs to a project, for purging it and for moving it to another tenant (docs/data-model.md "Projects").
 * Rows the project owns directly or through a device or a monitor point go with it; its push and third-party
 * bindings belong to the old tenant's targets and connections and are removed.
 */

/** Tables holding rows that belong to a project directly by project_id. */
const BY_PROJECT = ['wit_device', 'wit_gateway', 'wit_gateway_state', 'wit_monitor_point', 'wit_device_group'] as const;

export interface Owned {
  deviceIds: string[];
  pointIds: string[];
  monitorPointIds: string[];
  /** Codes of the live devices and gateways: the client ids of their broker identities. */
  clientIds: string[];
}

export async function ownedIds(db: Db, projectIds: string[]): Promise<Owned> {
  const ids = async (table: string, column: string, values: string[]) =>
    values.length ? (await db.selectFrom(table).select('id').where(column, 'in', values).execute()).map((r) => String(r.id)) : [];
  const deviceIds = await ids('wit_device', 'projectId', projectIds);
  const pointIds = await ids('wit_device_point', 'deviceId', deviceIds);
  const monitorPointIds = await ids('wit_monitor_point', 'projectId', projectIds);
  // Only live devices' codes: a removed device's code may since belong to a new device elsewhere.
  const codes = async (table: string) =>
    (await db.selectFrom(table).select('code').where('projectId', 'in', projectIds).where('isDeleted', '=', 0).execute()).map((r) => String(r.code));
  return { deviceIds, pointIds, monitorPointIds, clientIds: [...(await codes('wit_device')), ...(await codes('wit_gateway'))] };
}

export type Step = readonly [table: string, column: string, values: string[]];

/** Which rows of which tables belong to the projects: (table, column, values) triples, broker identities last. */
export function ownedRows(projectIds: string[], owned: Owned): Step[] {
  const steps: Step[] = [
    ...BY_PROJECT.map((table): Step => [table, 'projectId', projectIds]),
    ['wit_device_point', 'deviceId', owned.deviceIds],
    ['wit_device_point_att', 'pointId', owned.pointIds],
    ['wit_point_relation_device', 'deviceId', owned.deviceIds],
    ['wit_point_relation_device', 'monitorPointId', owned.monitorPointIds],
    // The broker identities of the project's devices and gateways go with them (client id = code).
    ['wit_mqtt_user', 'clientId', owned.clientIds],
  ];
  return steps.filter(([, , values]) => values.length > 0);
}

/**
 * The project's configuration and alarm history beyond `ownedRows`, carried by a move: thresholds (left behind, the
 * moved channels would no longer be judged), alarms with their log (an open alarm left behind would be escalated in
 * the old tenant by the new tenant's readings), collection strategies and data comparisons.
 */
export async function carriedRows(db: Db, projectIds: string[], owned: Owned, from: string[]): Promise<Step[]> {
  const alarms = await db
    .selectFrom('wit_alarm')
    .select('id')
    .where('tenantId', 'in', from)
    .where((eb) => eb.or([eb('projectId', 'in', projectIds), ...(owned.deviceIds.length ? [eb('deviceId', 'in', owned.deviceIds)] : [])]))
    .execute();
  const alarmIds = alarms.map((r) => String(r.id));
  const steps: Step[] = [
    ['wit_device_threshold', 'projectId', projectIds],
    ['wit_device_threshold', 'deviceId', owned.deviceIds],
    ['wit_device_threshold', 'monitorPointId', owned.monitorPointIds],
    ['wit_alarm', 'id', alarmIds],
    ['wit_alarm_log', 'alarmId', alarmIds],
    ['wit_collect_strategy', 'projectId', projectIds],
    ['wit_data_comparison', 'projectId', projectIds],
  ];
  return steps.filter(([, , values]) => values.length > 0);
}

/** Bindings removed by a move, counted in its answer. */
export interface Detached {
  pushBindings: number;
  pushMappings: number;
  thirdProjects: number;
  thirdDevices: number;
  thirdPoints: number;
  userProjects: number;
}

/** Each kind of binding: its table and the (column, values) pairs that name it, any of which matches. */
export function detachedRows(projectIds: string[], owned: Owned): Array<[kind: Exclude<keyof Detached, 'userProjects'>, table: string, Array<[string, string[]]>]> {
  return [
    ['pushBindings', 'wit_tenant_project', [['projectId', projectIds]]],
    ['pushMappings', 'wit_push_map', [['deviceId', owned.deviceIds]]],
    ['thirdProjects', 'wit_third_project', [['projectId', projectIds]]],
    ['thirdDevices', 'wit_third_device', [['projectId', projectIds], ['deviceId', owned.deviceIds]]],
    ['thirdPoints', 'wit_third_point', [['projectId', projectIds], ['monitorPointId', owned.monitorPointIds]]],
  ];
}

/**
 * Refuses a move that would leave a user of the old tenant limited to projects with none: without assignments a user
 * sees the whole tenant again (docs/data-model.md "Project data scope"), so dropping the last ones would widen
 * their scope. Administrators are never limited and do not count.
 */
export async function assertNoScopeWidened(db: Db, projectIds: string[]): Promise<void> {
  const affected = db.selectFrom('wit_user_project').select('userId').where('projectId', 'in', projectIds).where('isDeleted', '=', 0);
  const links = await db.selectFrom('wit_user_project').select(['userId', 'projectId']).where('userId', 'in', affected).where('isDeleted', '=', 0).execute();
  const moving = new Set(projectIds);
  const kept = new Set(links.filter((l) => !moving.has(String(l.projectId))).map((l) => String(l.userId)));
  const left = [...new Set(links.map((l) => String(l.userId)))].filter((id) => !kept.has(id));
  if (left.length === 0) return;
  const users = await db.selectFrom('blade_user').select(['id', 'account', 'roleId']).where('id', 'in', left).where('isDeleted', '=', 0).orderBy('account').execute();
  for (const user of users) {
    if (await isAdministrator(db, user)) continue;
    throw badRequest(`用户 ${String(user.account)} 只分配了要迁移的项目,迁移后将能查看原租户的全部项目,请先调整其项目分配`);
  }
}

async function isAdministrator(db: Db, user: Row): Promise<boolean> {
  const roleIds = splitIds(user.roleId);
  if (roleIds.length === 0) return false;
  const admin = await db.selectFrom('blade_role').select('id').where('id', 'in', roleIds).where('roleAlias', '=', ADMINISTRATOR).where('isDeleted', '=', 0).executeTakeFirst();
  return admin !== undefined;
}
