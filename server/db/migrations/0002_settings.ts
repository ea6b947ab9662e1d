import type { Kysely } from 'kysely';
import { createLinkTable } from '../table';

/** SMS gateways need an address to post to; notices may be addressed to chosen users instead of the whole tenant. */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blade_sms').addColumn('endpoint', 'varchar(1000)').execute();
  await createLinkTable(db, 'blade_notice_user', 'notice_id', 'user_id');
}
