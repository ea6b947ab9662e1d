import { type Kysely, SqliteAdapter } from 'kysely';

/**
 * Secrets at rest (server/auth/secrets.ts, docs/security.md): sealed values are longer than the secrets they hold
 * (a prefix, the key's id, the nonce and the tag, in base64), so the columns that hold them become unbounded text on
 * PostgreSQL. SQLite does not bound varchar. The values themselves are sealed at every start after the migrations
 * (server/db/seal-secrets.ts), which holds the key the migrations do not.
 */
const WIDENED: ReadonlyArray<readonly [table: string, column: string]> = [
  ['blade_oss', 'secret_key'],
  ['blade_sms', 'secret_key'],
  ['blade_datasource', 'password'],
  ['wit_mqtt_param', 'password'],
  ['wit_mqtt_param', 'secret'],
  ['wit_third_param', 'password'],
  ['wit_third_param', 'client_secret'],
];

// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  for (const [table, column] of WIDENED) await db.schema.alterTable(table).alterColumn(column, (c) => c.setDataType('text')).execute();
}
