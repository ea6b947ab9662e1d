import type { Kysely } from 'kysely';

/**
 * The deployment's shared bookkeeping (server/cluster/leases.ts): one row per named lease or periodic job. `token` is
 * the fencing token, raised by every change of hands or claimed period; `period` the last period a job was claimed
 * for; `holder` and `expires_at` (epoch ms) a lease's holder while it renews it.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vigil_lease')
    .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('token', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('period', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
