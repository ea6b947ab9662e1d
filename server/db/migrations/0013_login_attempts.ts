import type { Kysely } from 'kysely';

/**
 * Failed sign-ins per account and per (account, source address) instead of per account alone (docs/sign-in.md): an
 * account's failures from every address decide when its sign-in needs a captcha, the failures from one address lock
 * only that address out of it. Address '' is the row of the account as a whole. The rows are short-lived counters:
 * the table is created anew, so a lock of the old kind is lifted by this migration.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blade_login_attempt').execute();
  await db.schema
    .createTable('blade_login_attempt')
    .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
    .addColumn('account', 'varchar(255)', (col) => col.notNull())
    .addColumn('address', 'varchar(64)', (col) => col.notNull().defaultTo(''))
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('last_failure', 'bigint', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('blade_login_attempt_pk', ['tenant_id', 'account', 'address'])
    .execute();
  // The sweep of forgotten rows and the lock list read by time.
  await db.schema.createIndex('blade_login_attempt_last_failure').on('blade_login_attempt').column('last_failure').execute();
}
