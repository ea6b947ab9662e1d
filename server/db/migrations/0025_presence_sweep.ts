import type { Kysely } from 'kysely';
import { createIndex } from '../table';

/**
 * The presence sweep (server/ingest/presence.ts) asks every few seconds for the online devices silent for too long:
 * with this index it reads those devices only, not every device of the platform (20,000 per process, and the sweep
 * runs on the main thread with SQLite).
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, 'wit_device', ['online', 'last_seen']);
}
