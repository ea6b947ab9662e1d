import { DISABLED, ENABLED } from '../../../resources/resource/oss';
import type { Row } from '../../db/database';
import type { CallContext, Repository } from '../../db/repository';
import { badRequest } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';

/**
 * Enables one config of its tenant (status 2) and disables the tenant's others (status 1), in one transaction.
 * The row is read through the repository, so a caller can only switch configs it may see.
 */
export async function enableOne(platform: Platform, repo: Repository, ctx: CallContext, id: string): Promise<void> {
  const row = await repo.byId(ctx, id);
  if (!row) throw badRequest('数据不存在或无权操作');
  const table = repo.resource.table;
  const now = formatDateTime();
  await platform.db.transaction().execute(async (trx) => {
    const others = { status: DISABLED, updateUser: ctx.principal.userId, updateTime: now };
    await trx.updateTable(table).set(others).where('tenantId', '=', row.tenantId as string).where('id', '<>', id).where('status', '=', ENABLED).execute();
    await trx.updateTable(table).set({ status: ENABLED, updateUser: ctx.principal.userId, updateTime: now }).where('id', '=', id).execute();
  });
  platform.events.emit('changed', table);
}

/** The caller's tenant's enabled config, if any. */
export async function enabledConfig(repo: Repository, ctx: CallContext): Promise<Row | undefined> {
  const [row] = await repo.all(ctx, {}, [(eb) => eb('tenantId', '=', ctx.principal.tenantId), (eb) => eb('status', '=', ENABLED)], 1);
  return row;
}

