import type { Kysely } from 'kysely';

/**
 * When the latest values written back to a device (server/ingest/latest.ts) were heard, epoch ms: the write-back's
 * own guard against an older write of another process. It used last_seen, which presence also moves (to the time it
 * wrote a device online), so a device's first values after coming online were skipped until a later message.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('wit_device').addColumn('last_values_at', 'bigint').execute();
}
