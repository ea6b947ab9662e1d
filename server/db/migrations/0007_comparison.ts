import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/** Data comparisons (数据对比): named sets of device channels charted together, grouped in batches. */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createTable(db, 'wit_data_comparison', true, [
    c('project_id', 'id', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('batch_number', 'text', { notNull: true }),
    c('start_time', 'datetime'),
    c('end_time', 'datetime'),
    // JSON array of {deviceId, pointKey, name?}
    c('items', 'longtext', { notNull: true }),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_data_comparison', ['tenant_id', 'project_id', 'batch_number']);
}
