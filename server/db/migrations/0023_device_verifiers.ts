import type { Kysely } from 'kysely';

/**
 * Fast verifiers of broker identities (server/ingest/credentials.ts): one row per identity that has connected since,
 * naming the scrypt hash it was made beside. Kept apart from wit_mqtt_user so no list or form of identities can show or
 * take one; tenant_id lets a tenant purge take them with the rest.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wit_mqtt_verifier')
    .addColumn('user_id', 'varchar(20)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(12)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('verifier', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wit_mqtt_verifier_tenant_id_idx').on('wit_mqtt_verifier').column('tenant_id').execute();
}
