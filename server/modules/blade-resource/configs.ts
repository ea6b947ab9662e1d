import { DISABLED, ENABLED } from '../../../resources/resource/oss';
import type { Row } from '../../db/database';
import { type CallContext, type Repository, transact } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { badRequest } from '../../http/envelope';
import type { Platform } from '../../platform';

/**
 * Enables one config of its tenant (status 2) and disables the tenant's others (status 1), in one transaction.
 * The row is read through the repository, so a caller can only switch configs it may see.
 */
export async function enableOne(platform: Platform, repo: Repository, ctx: CallContext, id: string): Promise<void> {
  const row = await repo.byId(ctx, id);
  if (!row) throw badRequest('数据不存在或无权操作');
  await transact(platform, async (trx) => {
    const view = repo.within(trx);
    // One enabled config per tenant: every other one of the row's tenant, also those the caller's data scope hides.
    const others: Condition[] = [(eb) => eb('tenantId', '=', row.tenantId), (eb) => eb('id', '<>', id), (eb) => eb('status', '=', ENABLED)];
    await view.updateWhere(ctx, { status: DISABLED }, others, { wholeTenant: true });
    await view.updateWhere(ctx, { status: ENABLED }, [(eb) => eb('id', '=', id)]);
  });
}

/** The caller's tenant's enabled config, if any. */
export async function enabledConfig(repo: Repository, ctx: CallContext): Promise<Row | undefined> {
  const [row] = await repo.all(ctx, {}, [(eb) => eb('tenantId', '=', ctx.principal.tenantId), (eb) => eb('status', '=', ENABLED)], 1);
  return row;
}

