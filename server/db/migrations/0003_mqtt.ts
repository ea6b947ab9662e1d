import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/** Broker identities and their topic rules. */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createTable(db, 'wit_mqtt_user', true, [
    c('username', 'text', { notNull: true }),
    c('password', 'text', { notNull: true }),
    c('client_type', 'int', { notNull: true, default: 1 }),
    c('client_id', 'text'),
    c('is_superuser', 'int', { notNull: true, default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_mqtt_user', ['username']);
  await createTable(db, 'wit_mqtt_acl', true, [
    c('username', 'text'),
    c('topic', 'text', { notNull: true }),
    c('action', 'int', { notNull: true, default: 3 }),
    c('allow', 'int', { notNull: true, default: 1 }),
    c('sort', 'int', { default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_mqtt_acl', ['tenant_id', 'username']);
}
