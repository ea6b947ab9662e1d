import { mqttParam } from '../../resources/iot/push';
import { type Secrets, UnreadableSecret } from '../auth/secrets';
import type { Db, Row } from '../db/database';
import type { EventBus } from '../events';
import type { DeviceInfo, Naming, ProjectInfo, Scope } from './format';
import { type Target, targetOf } from './target';
import { slices } from '../db/slices';

/**
 * The bindings of each project (tenantproject rows) with their targets, the project's devices and the targets'
 * naming, cached per project for the live path. Loaded on first use and dropped whenever one of the tables they
 * are read from changes (the forwarder's own writes of a binding's last state do not announce a change).
 */

export interface Binding extends Scope {
  id: string;
  mqttParamId: string;
  projectId: string;
  /** The devices pushed; undefined: every device of the project. */
  deviceIds?: ReadonlySet<string>;
  target: Target;
  /** Why nothing is pushed, or undefined when the binding pushes. */
  inactive?: string;
}

const WATCHED = ['wit_tenant_project', 'wit_mqtt_param', 'wit_push_map', 'wit_project', 'wit_device'];

const idList = (value: unknown): string[] =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export class BindingBook {
  private readonly projects = new Map<string, Promise<Binding[]>>();

  constructor(
    private readonly db: Db,
    events: EventBus,
    private readonly secrets: Secrets,
  ) {
    events.whenChanged(WATCHED, () => this.clear());
  }

  /** A load under way when this runs still answers its callers; the next lookup reads the tables again. */
  clear(): void {
    this.projects.clear();
  }

  /** Every live binding of the project, active or not. */
  forProject(projectId: string): Promise<Binding[]> {
    let found = this.projects.get(projectId);
    if (!found) {
      found = loadProject(this.db, this.secrets, projectId);
      this.projects.set(projectId, found);
      // The caller gets the failure; here it only leaves the cache, so the next lookup reads again.
      found.catch(() => this.projects.delete(projectId));
    }
    return found;
  }

  async byId(projectId: string, bindingId: string): Promise<Binding | undefined> {
    return (await this.forProject(projectId)).find((b) => b.id === bindingId);
  }
}

/**
 * A target as the forwarder uses it, its credentials opened (server/auth/secrets.ts); one whose credentials no key
 * opens pushes nothing, and says why.
 */
function openedTarget(secrets: Secrets, row: Row): { target: Target; unreadable?: string } {
  try {
    return { target: targetOf(secrets.reveal(mqttParam, row)) };
  } catch (error) {
    if (!(error instanceof UnreadableSecret)) throw error;
    return { target: targetOf({ ...row, password: null, token: null, secret: null, headers: null }), unreadable: error.message };
  }
}

async function loadProject(db: Db, secrets: Secrets, projectId: string): Promise<Binding[]> {
  const rows = await db.selectFrom('wit_tenant_project').selectAll().where('projectId', '=', projectId).where('isDeleted', '=', 0).execute();
  if (rows.length === 0) return [];
  const project = await db.selectFrom('wit_project').select(['id', 'tenantId', 'code', 'name']).where('id', '=', projectId).where('isDeleted', '=', 0).executeTakeFirst();
  const targetIds = [...new Set(rows.map((r) => r.mqttParamId))];
  const targets = new Map((await db.selectFrom('wit_mqtt_param').selectAll().where('id', 'in', targetIds).where('isDeleted', '=', 0).execute()).map((r) => [r.id, r]));
  const deviceRows = await db.selectFrom('wit_device').select(['id', 'code', 'name']).where('projectId', '=', projectId).where('isDeleted', '=', 0).execute();
  const devices = new Map<string, DeviceInfo>(deviceRows.map((d) => [d.id, { code: d.code, name: String(d.name ?? '') }]));
  const namings = await loadNamings(db, targetIds, [...devices.keys()]);
  const info: ProjectInfo = project ? { id: projectId, code: String(project.code ?? ''), name: String(project.name ?? '') } : { id: projectId, code: '', name: '' };
  return rows.flatMap((row): Binding[] => {
    const targetRow = targets.get(row.mqttParamId);
    if (!targetRow) return [];
    const { target, unreadable } = openedTarget(secrets, targetRow);
    const ids = idList(row.deviceIds);
    return [
      {
        id: row.id,
        tenantId: row.tenantId,
        mqttParamId: target.id,
        projectId,
        deviceIds: ids.length ? new Set(ids) : undefined,
        target,
        project: info,
        devices,
        naming: namings.get(target.id) ?? { devices: new Map(), keys: new Map() },
        inactive: unreadable ?? inactivity(row, target, project),
      },
    ];
  });
}

function inactivity(row: Row, target: Target, project: Row | undefined): string | undefined {
  // A project moved to another tenant leaves its bindings behind in the old one: they push nothing.
  if (!project || project.tenantId !== row.tenantId || target.tenantId !== row.tenantId) return '项目不存在或已删除';
  if (!target.enabled) return '推送目标已停用';
  if (Number(row.enabled ?? 1) !== 1) return '该项目的推送已停用';
  return undefined;
}

async function loadNamings(db: Db, targetIds: string[], deviceIds: string[]): Promise<Map<string, Naming>> {
  const out = new Map<string, { devices: Map<string, string>; keys: Map<string, string> }>();
  if (targetIds.length === 0 || deviceIds.length === 0) return out;
  for (const slice of slices(deviceIds)) {
    const rows = await db
      .selectFrom('wit_push_map')
      .select(['mqttParamId', 'deviceId', 'pointKey', 'targetDevice', 'targetKey'])
      .where('mqttParamId', 'in', targetIds)
      .where('deviceId', 'in', slice)
      .where('isDeleted', '=', 0)
      .execute();
    for (const row of rows) {
      const id = row.mqttParamId;
      let naming = out.get(id);
      if (!naming) out.set(id, (naming = { devices: new Map(), keys: new Map() }));
      const deviceId = row.deviceId;
      if (row.pointKey && row.targetKey) naming.keys.set(`${deviceId}|${row.pointKey}`, row.targetKey);
      else if (!row.pointKey && row.targetDevice) naming.devices.set(deviceId, row.targetDevice);
    }
  }
  return out;
}
