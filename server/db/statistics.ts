import { sql } from 'kysely';
import type { Db } from './database';

/**
 * Rows a never-analysed table must have been given before it is analysed at start: below it any plan is cheap, and
 * the seeded tables of a fresh database cost nothing.
 */
const UNANALYSED_ROWS = 1_000;

/**
 * Analyses the PostgreSQL tables that were filled but never analysed (a restored dump, a bulk import, a database
 * provisioned by script), before the process takes traffic. Without statistics the planner took the lookup of 200
 * devices by code for one of a handful of rows and walked the whole table through another index: 21.8 ms instead of
 * 1.1 ms, and the credential check alike — a fleet reconnecting right after a restore waited on them for seconds
 * (bench:connections). Autovacuum would analyse them too, but only after its next look, up to a minute later.
 * Returns the tables analysed.
 */
export async function analyseUnanalysed(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and last_analyze is null and last_autoanalyze is null
      and n_mod_since_analyze >= ${UNANALYSED_ROWS}
    order by relname`.execute(db);
  for (const { name } of rows) await sql`analyze ${sql.id(name)}`.execute(db);
  return rows.map((row) => row.name);
}
