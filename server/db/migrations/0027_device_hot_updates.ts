import { type Kysely, SqliteAdapter } from 'kysely';

/**
 * PostgreSQL only: the presence sweep's index on (online, last_seen) of 0025 goes. With last_seen in an index, every
 * write-back of the latest values (server/ingest/latest.ts, every device heard in the last 2 s) was a non-HOT update:
 * a new entry in each of wit_device's seven indexes and a dead one left behind. Without it the write-back is a HOT
 * update (4.0 → 1.2 ms per 100 devices on this machine). The sweep reads the table instead, in PostgreSQL's own
 * process (a few ms per 20,000 devices every 5 s); SQLite keeps the index, its sweep runs on the main thread and
 * its updates move only the index entries that change.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await db.schema.dropIndex('wit_device_online_last_seen_idx').execute();
}
