import type { Kysely } from 'kysely';

/**
 * Each device's channels' latest value, its time and the value before it, kept beside the device by the ingestion's
 * write-back (server/ingest/latest.ts), so the wall screen's snapshot reads one row per device instead of seeking
 * the series twice per channel (docs/wall-screen.md).
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  // JSON {pointKey: [ts epoch ms, value, previous value or null]}; null until the device's first reading after it.
  await db.schema.alterTable('wit_device').addColumn('last_channels', 'text').execute();
}
