import type { Db } from '../../../db/database';
import { badRequest } from '../../../http/envelope';

export const QUOTA_MESSAGE = '当前租户已到最大账号额度';

export interface AccountUsage {
  /** The tenant's quota; -1 means unlimited. */
  accountNumber: number;
  used: number;
  /** Accounts that may still be created; -1 means unlimited. */
  available: number;
}

/** A tenant's account quota (account_number; negative or none means unlimited) and how much live users take of it. */
export async function accountUsage(db: Db, tenantId: string): Promise<AccountUsage> {
  const tenant = await db.selectFrom('blade_tenant').select('accountNumber').where('tenantId', '=', tenantId).where('isDeleted', '=', 0).executeTakeFirst();
  const counted = await db
    .selectFrom('blade_user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenantId', '=', tenantId)
    .where('isDeleted', '=', 0)
    .executeTakeFirst();
  const used = Number(counted?.n ?? 0);
  const quota = Number(tenant?.accountNumber ?? -1);
  const limited = Number.isInteger(quota) && quota >= 0;
  return limited ? { accountNumber: quota, used, available: Math.max(0, quota - used) } : { accountNumber: -1, used, available: -1 };
}

/** Called before a user is created in a tenant: refuses when the tenant's quota is used up. */
export async function assertAccountQuota(db: Db, tenantId: string): Promise<void> {
  const usage = await accountUsage(db, tenantId);
  if (usage.available === 0) throw badRequest(QUOTA_MESSAGE);
}
