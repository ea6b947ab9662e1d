import { sql } from 'kysely';
import type { Db, DialectName } from './database';

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The primary key of a table, as the database has it (camelCase, in key order): code that deletes rows of tables it
 * finds by introspection (the tenant purge) seeks them by it. Most tables have `id`; time series, counters and
 * samples have composite keys.
 */
export async function primaryKeyOf(db: Db, dialect: DialectName, table: string): Promise<string[]> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db)
      : await sql<{ name: string }>`
          select a.attname as name from pg_index i
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = to_regclass(${table}) and i.indisprimary
          order by array_position(i.indkey::int2[], a.attnum)`.execute(db);
  const key = rows.rows.map((r) => camel(r.name));
  if (key.length === 0) throw new Error(`table ${table} has no primary key`);
  return key;
}
