import type { FastifyRequest } from 'fastify';
import { type SqlBool, sql } from 'kysely';
import type { Resource } from '../../../resources/define';
import { devicePoint } from '../../../resources/iot/device';
import { MQTT_CLIENT_TYPE, mqttUser } from '../../../resources/iot/mqtt';
import type { Row } from '../../db/database';
import type { CallContext, Repository, ScopeOptions } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { bodyOf, paramsOf, text } from '../../http/context';
import { badRequest, paramType } from '../../http/envelope';
import { type TreeNode, treeNode } from '../../http/trees';
import type { Platform } from '../../platform';

/** Helpers every monitoring module shares: tree nodes, call arguments, counts, cycle and code checks. */

/** Query, form and JSON body fields merged (body wins): BladeX reads @RequestParam while clients also send JSON. */
export function argsOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.headers['content-type']?.includes('json') ? bodyOf(request) : {};
  return { ...paramsOf(request), ...body };
}

/** An optional id argument; a malformed one is a 400. */
export function idArg(args: Record<string, unknown>, name: string): string | undefined {
  const value = text(args, name);
  if (value !== undefined && !/^\d{1,20}$/.test(value)) throw paramType(name);
  return value;
}

export const eq = (column: string, value: unknown): Condition => (eb) => eb(column, '=', value);
/** `column in values`; no values matches nothing. */
export const within = (column: string, values: readonly unknown[]): Condition =>
  values.length ? (eb) => eb(column, 'in', values as unknown[]) : () => sql<SqlBool>`1 = 0`;

/** A tree node of a monitoring row, saying what kind of row it is (`nodeType`: project, group, device…). */
export function nodeOf(nodeType: string, row: Row, parentId: string, title = String(row.name), extra: Row = {}): TreeNode {
  return { ...treeNode(String(row.id), parentId, title, { ...extra, nodeType }), hasChildren: false };
}

/** `1`/`true` flags of query arguments. */
export const truthy = (args: Record<string, unknown>, name: string): boolean => ['1', 'true'].includes(text(args, name) ?? '');

/** Distinct non-empty string values of a column of rows. */
export const distinct = (rows: Row[], field: string): string[] =>
  [...new Set(rows.map((r) => r[field]).filter((v): v is string => typeof v === 'string' && v !== '' && v !== '0'))];

/** How many rows the caller sees under the conditions. */
export async function countOf(repo: Repository, ctx: CallContext, conditions: Condition[]): Promise<number> {
  const qb = await repo.query(ctx, {}, conditions);
  const row = (await qb.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst()) as { total: number } | undefined;
  return Number(row?.total ?? 0);
}

/** A row may not hang below itself or below one of its descendants. */
export async function assertNoCycle(platform: Platform, ctx: CallContext, resource: Resource, id: string | undefined, parentId: unknown, message: string): Promise<void> {
  if (!id || parentId === undefined || parentId === null || parentId === '0') return;
  const repo = platform.repo(resource);
  let current = String(parentId);
  for (let depth = 0; depth < 100 && current !== '0'; depth++) {
    if (current === id) throw badRequest(message);
    const [row] = await repo.all(ctx, {}, [eq('id', current)], 1);
    if (!row) return;
    current = String(row.parentId ?? '0');
  }
}

/** Checks that must see every row of the tenant, whatever the caller's data and project scope. */
export const WHOLE_TENANT: ScopeOptions = { wholeTenant: true };

/**
 * Columns of the rows of `resource` that rows the caller sees name, by id: of the caller's tenant, live or removed
 * (a binding still shows the code of the device it was bound to), as the declared names are.
 */
export async function namedRows(platform: Platform, ctx: CallContext, resource: Resource, ids: readonly string[], columns: readonly string[]): Promise<Map<string, Row>> {
  if (ids.length === 0) return new Map();
  const qb = await platform.repo(resource).select(ctx, { wholeTenant: true, deleted: 'either' });
  const rows = await qb.select(['id', ...columns]).where(within('id', [...new Set(ids)])).execute();
  return new Map(rows.map((r) => [String(r.id), r]));
}

/** Whether a device has a live point `pointKey` (the device is one the caller sees: checked before). */
export async function hasPoint(platform: Platform, ctx: CallContext, deviceId: string, pointKey: string): Promise<boolean> {
  const qb = await platform.repo(devicePoint).select(ctx, WHOLE_TENANT);
  return (await qb.select('id').where('deviceId', '=', deviceId).where('pointKey', '=', pointKey).executeTakeFirst()) !== undefined;
}

/**
 * A device's or gateway's code is its MQTT client id and part of its topics. Renaming one that an MQTT identity is
 * bound to would leave the identity pointing at a code that no longer exists — the hardware would be refused
 * without a word — so the identity is renamed first, on purpose (docs/mqtt.md "Identities"). Any identity of the
 * tenant counts, seen by the caller or not.
 */
export async function assertCodeUnbound(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined, kind: 'device' | 'gateway'): Promise<void> {
  if (!existing || values.code === undefined || values.code === existing.code) return;
  const bound = await (await platform.repo(mqttUser).select(ctx, WHOLE_TENANT))
    .select('username')
    .where('tenantId', '=', String(existing.tenantId))
    .where('clientId', '=', String(existing.code))
    .where('clientType', '=', kind === 'device' ? MQTT_CLIENT_TYPE.device : MQTT_CLIENT_TYPE.gateway)
    .executeTakeFirst();
  if (bound) {
    const what = kind === 'device' ? '设备' : '网关';
    throw badRequest(`${what}编号 ${String(existing.code)} 绑定了MQTT用户 ${bound.username},请先将该MQTT用户的客户端编号改为新编号`);
  }
}
