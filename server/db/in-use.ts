import type { SelectQueryBuilder } from 'kysely';

/**
 * Only the rows in use: not soft-deleted and enabled (the base columns is_deleted and status every createTable
 * table has, server/db/table.ts). For the background work that acts on rows outside any caller's call
 * (`.$call(inUse)`); a caller's lists go through the scoped repository instead.
 */
export function inUse<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  // biome-ignore lint/suspicious/noExplicitAny: any table made by createTable; both columns are its base columns
  const any = qb as SelectQueryBuilder<any, any, O>;
  return any.where('isDeleted', '=', 0).where('status', '=', 1);
}
