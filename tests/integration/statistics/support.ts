import mqtt, { type MqttClient } from 'mqtt';
import type { BoardData, IndexData } from '../../../resources/wire/statistics';
import { hashPassword } from '../../../server/auth/passwords';
import { DEFAULT_INIT_PASSWORD } from '../../../server/db/seed';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { type ApiClient, type Params, signedIn } from '../../support/client';
import { expectOk, postParams, type Row } from '../../support/envelope';
import type { TestServer } from '../../support/server';

/** Fixtures of the statistics suites (docs/statistics.md). */

export const X = '/api/wit-xinde';
export const DEVICE_PASSWORD = 'Device#Stats2026';
const DAY_MS = 86_400_000;

/** Local midnight `days` days before today (0: today). */
export function dayStart(days = 0, now = Date.now()): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - days).getTime();
}

/** yyyy-MM-dd of `days` days before today. */
export const dayOf = (days = 0) => formatDateTime(new Date(dayStart(days))).slice(0, 10);

export const DAY = DAY_MS;

/** A new tenant made by the platform administrator, and its administrator signed in. */
export async function newTenant(server: TestServer, platformAdmin: ApiClient, tenantName: string): Promise<{ tenantId: string; admin: ApiClient }> {
  const { tenantId } = expectOk(await platformAdmin.post<{ tenantId: string }>('/api/blade-system/tenant/submit', { tenantName }));
  return { tenantId, admin: await signedIn(server.url, 'admin', DEFAULT_INIT_PASSWORD, tenantId) };
}

/**
 * A staff user of the tenant (role alias `staff`), its role granted `menus` (by code), or the menus of the tenant's
 * administrator role when not given; limited to `projectIds` when given.
 */
export async function staffOf(server: TestServer, tenantAdmin: ApiClient, tenantId: string, account: string, options: { menus?: string[]; projectIds?: string[] } = {}) {
  const db = server.app.platform.db;
  const now = formatDateTime();
  const base = { createTime: now, updateTime: now, status: 1, isDeleted: 0, tenantId };
  const roleId = nextId();
  const userId = nextId();
  await db.insertInto('blade_role').values({ ...base, id: roleId, parentId: '0', roleName: `角色 ${account}`, roleAlias: 'staff', sort: 9 }).execute();
  const menus = options.menus
    ? options.menus.length === 0
      ? []
      : await db.selectFrom('blade_menu').select('id as menuId').where('code', 'in', options.menus).where('isDeleted', '=', 0).execute()
    : await db
        .selectFrom('blade_role_menu')
        .innerJoin('blade_role', 'blade_role.id', 'blade_role_menu.roleId')
        .select('blade_role_menu.menuId')
        .where('blade_role.tenantId', '=', tenantId)
        .where('blade_role.roleAlias', '=', 'administrator')
        .execute();
  for (let i = 0; i < menus.length; i += 200) {
    await db.insertInto('blade_role_menu').values(menus.slice(i, i + 200).map((m) => ({ id: nextId(), roleId, menuId: m.menuId }))).execute();
  }
  const dept = await db.selectFrom('blade_dept').select('id').where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirstOrThrow();
  await db
    .insertInto('blade_user')
    .values({ ...base, id: userId, account, password: await hashPassword('Staff@123'), name: account, realName: account, roleId, deptId: dept.id, userType: 1 })
    .execute();
  if (options.projectIds) expectOk(await postParams(tenantAdmin, `${X}/userproject/setUserProject`, { userId, projectIds: options.projectIds.join(',') }));
  return { userId, client: await signedIn(server.url, account, 'Staff@123', tenantId) };
}

/** Saves through submit and returns the stored row. */
export async function submit(api: ApiClient, resource: string, body: Record<string, unknown>): Promise<Row> {
  return expectOk(await api.post<Row>(`${X}/${resource}/submit`, body));
}

/** A device of the tenant with its points and, with `mqtt`, its broker identity (username = lower-case code). */
export async function deviceOf(api: ApiClient, body: Record<string, unknown>, keys: string[], identity = true): Promise<Row> {
  const device = await submit(api, 'device', body);
  for (const pointKey of keys) await submit(api, 'devicepoint', { deviceId: device.id, pointKey, name: pointKey });
  if (identity) await submit(api, 'mqttuser', { username: String(body.code).toLowerCase(), password: DEVICE_PASSWORD, clientType: 1, clientId: body.code });
  return device;
}

/** A device's own broker connection. */
export function connectDevice(server: TestServer, code: string, password = DEVICE_PASSWORD, username = code.toLowerCase()): Promise<MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${server.app.broker?.port}`, { clientId: code, username, password, reconnectPeriod: 0 });
}

/** Publishes a reading with QoS 1: resolves once it is stored (the broker acknowledges only then). */
export async function publish(client: MqttClient, tenantId: string, code: string, ts: number, values: Record<string, number>): Promise<void> {
  await client.publishAsync(`vigil/${tenantId}/device/${code}/data`, JSON.stringify({ ts, values }), { qos: 1 });
}

export const indexData = async (api: ApiClient, query?: Params) => expectOk(await api.get<IndexData>(`${X}/index/getIndexData`, query));
export const boardData = async (api: ApiClient, query?: Params) => expectOk(await api.get<BoardData>(`${X}/countAvue/avueStatis`, query));
