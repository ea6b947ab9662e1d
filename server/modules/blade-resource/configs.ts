import { DISABLED, ENABLED } from '../../../resources/resource/oss';
import { UnreadableSecret } from '../../auth/secrets';
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

/**
 * Configs the caller sees, with their secret keys opened: for the server's own uses only (signing uploads and SMS,
 * checking an S3 config), never to be answered. The repository's reads (`all`, `page`, `detail`) leave hidden fields
 * out; its scoped select, used here, keeps them sealed, and `reveal` opens them (server/auth/secrets.ts). A key no
 * configured SECRETS_KEY opens is refused with the request to enter it again.
 */
export async function withSecrets(repo: Repository, ctx: CallContext, conditions: Condition[], limit = 10_000): Promise<Row[]> {
  let qb = (await repo.select(ctx)).selectAll();
  for (const condition of conditions) qb = qb.where(condition);
  const rows = await qb.orderBy('id', 'desc').limit(limit).execute();
  try {
    return rows.map((row) => repo.reveal(row));
  } catch (error) {
    if (error instanceof UnreadableSecret) throw badRequest(error.message);
    throw error;
  }
}

/** The caller's tenant's enabled config, if any, with its secret key (server use only). */
export async function enabledConfig(repo: Repository, ctx: CallContext): Promise<Row | undefined> {
  const [row] = await withSecrets(repo, ctx, [(eb) => eb('tenantId', '=', ctx.principal.tenantId), (eb) => eb('status', '=', ENABLED)], 1);
  return row;
}

const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';

/**
 * A config's `secretKey` is write-only (`hidden`): never answered, so an edit that sends it blank (`""`) keeps the
 * stored one, and `null` clears it. A new config's blank key is stored as null.
 */
export function keepSecret(values: Row, existing: Row | undefined): Row {
  if (!blank(values.secretKey)) return values;
  const { secretKey: _blank, ...rest } = values;
  return existing ? rest : { ...rest, secretKey: null };
}
