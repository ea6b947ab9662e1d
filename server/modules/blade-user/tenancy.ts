import { isPlatformAdmin } from '../../auth/principal';
import type { Db, Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import { text } from '../../http/context';
import { badRequest, paramType } from '../../http/envelope';

/** Which tenant a new row lands in: the platform administrator may name one, everyone else writes to their own. */
export function tenantOfWrite(ctx: CallContext, values: Row): string {
  const p = ctx.principal;
  return isPlatformAdmin(p) && typeof values.tenantId === 'string' ? values.tenantId : p.tenantId;
}

/** The tenant a read call asks about (`tenantId`): only the platform administrator may ask about another one. */
export function tenantAsked(ctx: CallContext, params: Record<string, unknown>): string {
  const asked = text(params, 'tenantId');
  if (!asked || !isPlatformAdmin(ctx.principal)) return ctx.principal.tenantId;
  if (!/^\d{6}$/.test(asked)) throw paramType('tenantId');
  return asked;
}

export async function assertTenantExists(db: Db, tenantId: string): Promise<void> {
  const tenant = await db.selectFrom('blade_tenant').select('id').where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst();
  if (!tenant) throw badRequest('租户信息错误');
}

export const splitIds = (value: unknown): string[] => (typeof value === 'string' && value ? [...new Set(value.split(',').filter(Boolean))] : []);

/** Role, dept and post ids a user row names must be live rows of the user's own tenant. */
const OWNED: ReadonlyArray<readonly [field: string, table: 'blade_role' | 'blade_dept' | 'blade_post', message: string]> = [
  ['roleId', 'blade_role', '所选角色不存在或不属于该租户'],
  ['deptId', 'blade_dept', '所选部门不存在或不属于该租户'],
  ['postId', 'blade_post', '所选岗位不存在或不属于该租户'],
];

export async function assertOwnedByTenant(db: Db, tenantId: string, values: Row): Promise<void> {
  for (const [field, table, message] of OWNED) {
    const ids = splitIds(values[field]);
    if (ids.length === 0) continue;
    const found = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('id', 'in', ids)
      .where('tenantId', '=', tenantId)
      .where('isDeleted', '=', 0)
      .executeTakeFirstOrThrow();
    if (Number(found.count) !== ids.length) throw badRequest(message);
  }
}
