import type { Db, Row } from '../../db/database';
import { loose, type TableName } from '../../db/tables';
import { slices } from '../../db/slices';
import { deleteInBatches, deleteInChunks, forgetMarks } from '../../series/purge';

/**
 * What belongs to a project (docs/data-model.md "Projects", "Purging"): the one description that moving projects to
 * another tenant (project/adjustTenant) and purging them (project/deleteProjectById, tenant/deleteTenantById) both
 * read. Every row that names a project, its devices, gateways, monitor points, device points, thresholds, alarms,
 * strategies, push bindings or broker identities is listed here: a purge deletes them all, whatever tenant they are
 * tagged with; a move does with each kind what its `onMove` says.
 *
 * So these queries go around the scoped repository on purpose (raw-queries.ts, PLATFORM): they work by ownership
 * across tenants — a move as the platform administrator, a purge on projects its caller has already found in its
 * own recycle bin through the repository — and the scope of one caller cannot describe "everything of these projects".
 * The queries are driven by the table list below, so they see the database untyped (`loose`); the names are checked.
 */

/** Bindings a move removes, counted in its answer. */
export interface Detached {
  pushBindings: number;
  pushMappings: number;
  thirdProjects: number;
  thirdDevices: number;
  thirdPoints: number;
  userProjects: number;
}

/**
 * What a move does with a kind of row: `carry` it to the new tenant; `retag` it (carry only its tenant: counters and
 * samples, which have no audit columns); `detach` it (a binding to the old tenant's push targets or third-party
 * connections: soft-deleted, as its own remove call does); `drop` it (user assignments of the old tenant); `keep` it
 * with the old tenant (a log of what happened there); or nothing because it `follow`s its device (the series: it has
 * no tenant of its own to trust and is read by device, so millions of rows are not rewritten).
 */
export type OnMove = 'carry' | 'retag' | 'detach' | 'drop' | 'keep' | 'follow';

export interface Belonging {
  table: TableName;
  /** (column, ids) pairs: a row any of them names belongs to the projects. */
  by: Array<[column: string, ids: string[]]>;
  onMove: OnMove;
  /** A detached or dropped kind counted in the move's answer. */
  counted?: keyof Detached;
  /** Large history, deleted in bounded chunks before the purge's transaction: the table's primary key. */
  chunkKey?: string[];
  /** Named by a code, not an id: only rows of the projects' own tenants. */
  tenantOnly?: true;
}

/** The ids of what the projects own, by kind. */
export interface Owned {
  projectIds: string[];
  /** The tenants the projects are in. */
  tenantIds: string[];
  deviceIds: string[];
  gatewayIds: string[];
  monitorPointIds: string[];
  pointIds: string[];
  thresholdIds: string[];
  alarmIds: string[];
  strategyIds: string[];
  bindingIds: string[];
  /** Codes of the live devices and gateways: the client ids of their broker identities. */
  clientIds: string[];
  usernames: string[];
}

/** Values of `column` of the rows of `table` any (column, ids) pair names, a slice of ids at a time. */
async function valuesOf(db: Db, table: TableName, by: Array<[string, string[]]>, column = 'id', liveOnly = false): Promise<string[]> {
  const out = new Set<string>();
  for (const [name, ids] of by) {
    for (const slice of slices(ids)) {
      let qb = loose(db).selectFrom(table).select(column).where(name, 'in', slice);
      if (liveOnly) qb = qb.where('isDeleted', '=', 0);
      for (const row of await qb.execute()) out.add(String(row[column]));
    }
  }
  return [...out];
}

/**
 * The ids the projects own. With `tenantId` (a tenant purge) also the devices and gateways of the tenant that are in
 * no project.
 */
export async function ownedIds(db: Db, projectIds: string[], tenantId?: string): Promise<Owned> {
  const P: [string, string[]] = ['projectId', projectIds];
  const ofTenant = async (table: TableName) => (tenantId ? valuesOf(db, table, [['tenantId', [tenantId]]]) : []);
  const deviceIds = [...new Set([...(await valuesOf(db, 'wit_device', [P])), ...(await ofTenant('wit_device'))])];
  const gatewayIds = [...new Set([...(await valuesOf(db, 'wit_gateway', [P])), ...(await ofTenant('wit_gateway'))])];
  const monitorPointIds = await valuesOf(db, 'wit_monitor_point', [P]);
  const D: [string, string[]] = ['deviceId', deviceIds];
  const M: [string, string[]] = ['monitorPointId', monitorPointIds];
  const thresholdIds = await valuesOf(db, 'wit_device_threshold', [P, D, M]);
  // Only live devices' codes: a removed device's code may since belong to a new device elsewhere.
  const clientIds = [...(await valuesOf(db, 'wit_device', [['id', deviceIds]], 'code', true)), ...(await valuesOf(db, 'wit_gateway', [['id', gatewayIds]], 'code', true))];
  return {
    projectIds,
    tenantIds: tenantId ? [tenantId] : await valuesOf(db, 'wit_project', [['id', projectIds]], 'tenantId'),
    deviceIds,
    gatewayIds,
    monitorPointIds,
    pointIds: await valuesOf(db, 'wit_device_point', [D]),
    thresholdIds,
    alarmIds: await valuesOf(db, 'wit_alarm', [P, D, M, ['thresholdId', thresholdIds]]),
    strategyIds: await valuesOf(db, 'wit_collect_strategy', [P, ['gatewayId', gatewayIds]]),
    bindingIds: await valuesOf(db, 'wit_tenant_project', [P]),
    clientIds,
    usernames: await valuesOf(db, 'wit_mqtt_user', [['clientId', clientIds]], 'username'),
  };
}

/** Every kind of row that belongs to the projects. */
export function projectRows(o: Owned): Belonging[] {
  const P: [string, string[]] = ['projectId', o.projectIds];
  const D: [string, string[]] = ['deviceId', o.deviceIds];
  const G: [string, string[]] = ['gatewayId', o.gatewayIds];
  const M: [string, string[]] = ['monitorPointId', o.monitorPointIds];
  const A: [string, string[]] = ['alarmId', o.alarmIds];
  const row = (onMove: OnMove, table: TableName, ...by: Array<[string, string[]]>): Belonging => ({ table, by, onMove });
  return [
    // What the projects own, and their configuration and alarm history: an open alarm left behind would be escalated
    // in the old tenant by the new tenant's readings, thresholds left behind would no longer judge the channels.
    row('carry', 'wit_device', P),
    row('carry', 'wit_gateway', P),
    row('carry', 'wit_gateway_state', P, G),
    row('carry', 'wit_monitor_point', P),
    row('carry', 'wit_device_group', P),
    row('carry', 'wit_device_point', D),
    row('carry', 'wit_device_point_att', ['pointId', o.pointIds]),
    row('carry', 'wit_point_relation_device', D, M),
    { ...row('carry', 'wit_mqtt_user', ['clientId', o.clientIds]), tenantOnly: true },
    { ...row('carry', 'wit_mqtt_acl', ['username', o.usernames]), tenantOnly: true },
    row('carry', 'wit_device_threshold', P, D, M),
    row('carry', 'wit_alarm', ['id', o.alarmIds]),
    row('carry', 'wit_alarm_log', A, P, D),
    row('carry', 'wit_collect_strategy', P, G),
    row('carry', 'wit_data_comparison', P),
    // Bindings to the old tenant's push targets and third-party connections, which the new tenant cannot see.
    { ...row('detach', 'wit_tenant_project', P), counted: 'pushBindings' },
    { ...row('detach', 'wit_push_map', D), counted: 'pushMappings' },
    { ...row('detach', 'wit_third_project', P), counted: 'thirdProjects' },
    { ...row('detach', 'wit_third_device', P, D), counted: 'thirdDevices' },
    { ...row('detach', 'wit_third_point', P, M), counted: 'thirdPoints' },
    { ...row('drop', 'wit_user_project', P), counted: 'userProjects' },
    // Logs of what happened while the projects were the old tenant's.
    { ...row('keep', 'wit_collect_data', D, G, P), chunkKey: ['id'] },
    row('keep', 'wit_device_push_log', D, G, P),
    row('keep', 'wit_device_log_update_log', D, P),
    row('keep', 'wit_collect_calculation_log', D, P),
    row('keep', 'wit_job_info', ['strategyId', o.strategyIds], P),
    row('keep', 'wit_api_send_log', ['tenantProjectId', o.bindingIds], P),
    row('keep', 'wit_alarm_delivery', A, P),
    row('keep', 'wit_alarm_send_log', A, P),
    // The series and its rollups; their marks for rolling up go with them (forgetMarks).
    { ...row('follow', 'wit_device_log', D), chunkKey: ['deviceId', 'ts', 'pointKey'] },
    { ...row('follow', 'wit_device_log_rollup', D), chunkKey: ['deviceId', 'pointKey', 'step', 'bucket'] },
    // The statistics (docs/statistics.md): points counted per device follow it; the projects' own counts and online
    // samples go with them, so the new tenant's board shows their history as the devices' charts do.
    row('follow', 'wit_device_points', D),
    row('retag', 'wit_project_points', P),
    { ...row('retag', 'wit_presence_sample', P), chunkKey: ['tenantId', 'grain', 'at', 'projectId'] },
    // Alarm counts: the triggers on wit_alarm move them with the alarms (and take them back as alarms go); a move leaves
    // the old tenant's emptied rows, a purge deletes them.
    row('keep', 'wit_alarm_counts', P),
    row('follow', 'wit_device_alarms', D),
  ];
}

/** Tables whose tenant_id is only the tenant a row was written under: their rows belong to their device. */
export const DEVICE_KEYED_TABLES = projectRows(ownedNothing()).filter((b) => b.onMove === 'follow').map((b) => b.table);

function ownedNothing(): Owned {
  return { projectIds: [], tenantIds: [], deviceIds: [], gatewayIds: [], monitorPointIds: [], pointIds: [], thresholdIds: [], alarmIds: [], strategyIds: [], bindingIds: [], clientIds: [], usernames: [] };
}

/** One `column in slice` condition per (column, ids) pair and slice of ids. */
function* conditions(entry: Belonging): Generator<[string, string[]]> {
  for (const [column, ids] of entry.by) for (const slice of slices(ids)) yield [column, slice];
}

/** What a purge hears of each batch it deletes of a table, inside the batch's transaction (its progress). */
export type BatchProgress = (table: string) => (trx: Db, deleted: number) => Promise<void>;

/**
 * First step of a purge, before its transaction (each chunk a short one of its own): the large history of the projects (series, rollups, raw
 * messages) in bounded chunks. The projects must no longer take data (they are in the recycle bin, or their tenant
 * is); stopped midway, the purge leaves them as they were but for part of that history, and can be run again.
 */
export async function purgeHistory(db: Db, owned: Owned, progress?: BatchProgress): Promise<void> {
  for (const entry of projectRows(owned)) {
    if (!entry.chunkKey) continue;
    for (const [column, ids] of entry.by) await deleteInChunks(db, entry.table, entry.chunkKey, column, ids, progress?.(entry.table));
  }
}

/** The projects, devices and gateways of a tenant that is purged. */
export async function tenantOwned(db: Db, tenantId: string): Promise<Owned> {
  return ownedIds(db, await valuesOf(db, 'wit_project', [['tenantId', [tenantId]]]), tenantId);
}

/**
 * First step of a tenant purge: the history of its projects and devices (purgeHistory), and the large logs tagged with
 * it — of projects that have moved to another tenant since, which stay with the tenant they happened in.
 */
export async function purgeTenantHistory(db: Db, tenantId: string, owned: Owned, progress?: BatchProgress): Promise<void> {
  await purgeHistory(db, owned, progress);
  for (const entry of projectRows(owned)) {
    if (entry.chunkKey && entry.onMove === 'keep') await deleteInChunks(db, entry.table, entry.chunkKey, 'tenantId', [tenantId], progress?.(entry.table));
  }
}

/**
 * The tables ownedIds finds what the projects own through, in the order a purge that may stop midway deletes them:
 * after every other kind, each after the tables found through it (device points and alarms before thresholds,
 * identities and thresholds before devices and gateways, …). A purge resumed later then still finds, through the
 * rows left, everything it has not deleted yet; the projects themselves go last of all, with the tenant's rows.
 */
const OWNERSHIP: readonly TableName[] = [
  'wit_device_point',
  'wit_alarm',
  'wit_collect_strategy',
  'wit_tenant_project',
  'wit_mqtt_user',
  'wit_device_threshold',
  'wit_device',
  'wit_gateway',
  'wit_monitor_point',
];

/**
 * A purge in batches (the tenant purge): every row that belongs to the projects, PURGE_CHUNK rows a batch, each batch
 * its own transaction, in an order that can be stopped anywhere and run again (OWNERSHIP). `keyOf` gives a table's
 * primary key. Returns the tables.
 */
export async function deleteOwnedInBatches(db: Db, owned: Owned, keyOf: (table: TableName) => Promise<string[]>, progress?: BatchProgress): Promise<string[]> {
  const rows = projectRows(owned);
  const rank = (entry: Belonging) => OWNERSHIP.indexOf(entry.table);
  const dependents = rows.filter((entry) => rank(entry) < 0);
  const owners = rows.filter((entry) => rank(entry) >= 0).sort((a, b) => rank(a) - rank(b));
  const run = async (entry: Belonging) => {
    const key = await keyOf(entry.table);
    for (const [column, slice] of conditions(entry)) {
      await deleteInBatches(
        db,
        entry.table,
        key,
        (eb) => (entry.tenantOnly ? eb.and([eb(column, 'in', slice), eb('tenantId', 'in', owned.tenantIds)]) : eb(column, 'in', slice)),
        progress?.(entry.table),
      );
    }
  };
  for (const entry of dependents) await run(entry);
  // The series and its rollups are gone: their hours marked for rolling up go too, while the devices are still known.
  await db.transaction().execute((trx) => forgetMarks(trx, owned.deviceIds));
  for (const entry of owners) await run(entry);
  return rows.map((entry) => entry.table);
}

/** Second step of a purge, inside its transaction: every row that belongs to the projects. Returns the tables. */
export async function deleteOwned(trx: Db, owned: Owned): Promise<string[]> {
  const rows = projectRows(owned);
  for (const entry of rows) {
    for (const [column, slice] of conditions(entry)) {
      let qb = loose(trx).deleteFrom(entry.table).where(column, 'in', slice);
      if (entry.tenantOnly) qb = qb.where('tenantId', 'in', owned.tenantIds);
      await qb.execute();
    }
  }
  await forgetMarks(trx, owned.deviceIds);
  return rows.map((b) => b.table);
}

/**
 * Moves what belongs to the projects from the tenants `from` to the tenant in `carried` (inside the move's
 * transaction), as each kind's `onMove` says. Returns the bindings removed.
 */
export async function moveOwned(trx: Db, owned: Owned, from: string[], carried: Row, detached: Row): Promise<Detached> {
  const removed: Detached = { pushBindings: 0, pushMappings: 0, thirdProjects: 0, thirdDevices: 0, thirdPoints: 0, userProjects: 0 };
  for (const entry of projectRows(owned)) {
    for (const [column, slice] of conditions(entry)) {
      const n = await moveSlice(trx, entry, column, slice, from, carried, detached);
      if (entry.counted) removed[entry.counted] += n;
    }
  }
  return removed;
}

async function moveSlice(trx: Db, entry: Belonging, column: string, slice: string[], from: string[], carried: Row, detached: Row): Promise<number> {
  if (entry.onMove === 'carry' || entry.onMove === 'retag') {
    const set = entry.onMove === 'carry' ? carried : { tenantId: carried.tenantId };
    await loose(trx).updateTable(entry.table).set(set).where('tenantId', 'in', from).where(column, 'in', slice).execute();
    return 0;
  }
  if (entry.onMove === 'detach') {
    const result = await loose(trx).updateTable(entry.table).set(detached).where('isDeleted', '=', 0).where(column, 'in', slice).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
  if (entry.onMove === 'drop') return Number((await loose(trx).deleteFrom(entry.table).where(column, 'in', slice).executeTakeFirst()).numDeletedRows);
  return 0;
}

/** The tables a move changes. */
export const movedTables = (): string[] => projectRows(ownedNothing()).filter((b) => ['carry', 'retag', 'detach', 'drop'].includes(b.onMove)).map((b) => b.table);
