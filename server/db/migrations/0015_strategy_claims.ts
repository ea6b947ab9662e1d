import type { Kysely } from 'kysely';

/**
 * The occurrence a collection strategy last fired, epoch ms (server/modules/wit-xinde/strategies.ts): every server on
 * the database arms the same occurrences, and the one whose update moves this column forward is the one that fires.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wit_collect_strategy').addColumn('last_fired', 'bigint').execute();
}
