import { sql } from 'kysely';
import type { Db, DialectName } from '../../server/db/database';

/**
 * The first column of every index of a table (its primary key included; partial indexes left out, they serve only
 * their condition), snake_case: a query on that column alone can seek the index.
 */
export async function leadingIndexColumns(db: Db, dialect: DialectName, table: string): Promise<Set<string>> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`
          select (select ii.name from pragma_index_info(il.name) ii where ii.seqno = 0) as name
          from pragma_index_list(${table}) il where il.partial = 0
          union select name from pragma_table_info(${table}) where pk = 1`.execute(db)
      : await sql<{ name: string }>`
          select a.attname as name from pg_index i
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
          where i.indrelid = to_regclass(${table}) and i.indpred is null`.execute(db);
  return new Set(rows.rows.map((r) => r.name));
}
