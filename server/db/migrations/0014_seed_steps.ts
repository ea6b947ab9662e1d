import type { Kysely } from 'kysely';

/**
 * The seed steps that ran on this store (server/db/seed.ts): each step runs once, so data an administrator changed or
 * removed afterwards is never written again.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vigil_seed_step')
    .addColumn('name', 'varchar(100)', (col) => col.primaryKey())
    .addColumn('run_at', 'varchar(19)', (col) => col.notNull())
    .execute();
}
