import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/**
 * The wall screen (docs/wall-screen.md): display links, a project's structure image, and where each monitor point sits
 * on it.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  // project_ids: comma-joined; trends: JSON {projectId: ["deviceId:pointKey"]}. secret_hash: SHA-256 hex of the
  // secret, which is never stored; a revoked link keeps its hash, so its secret is told "revoked", not "unknown".
  await createTable(db, 'wit_display_link', true, [
    c('name', 'text', { notNull: true }),
    c('project_ids', 'longtext', { notNull: true }),
    c('layout', 'text', { notNull: true, default: 'structure' }),
    c('rotate_seconds', 'int', { notNull: true, default: 30 }),
    c('trends', 'longtext'),
    c('expires_at', 'datetime'),
    c('remark', 'text'),
    c('revoked', 'int', { notNull: true, default: 0 }),
    c('revoke_time', 'datetime'),
    c('revoke_user', 'id'),
    c('secret_hash', 'text'),
    c('last_seen_time', 'datetime'),
    c('last_seen_ip', 'text'),
    c('last_seen_agent', 'longtext'),
  ]);
  await createIndex(db, 'wit_display_link', ['secret_hash'], true);

  // An attachment link (blade_attach.link) of the project's tenant; the screen reads it through screen/image.
  await db.schema.alterTable('wit_project').addColumn('screen_image', 'text').execute();
  // Fractions (0…1) of the image's width and height; null: not placed.
  await db.schema.alterTable('wit_monitor_point').addColumn('screen_x', 'double precision').execute();
  await db.schema.alterTable('wit_monitor_point').addColumn('screen_y', 'double precision').execute();
}
