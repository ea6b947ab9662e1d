import { sql } from 'kysely';
import type { Platform } from '../platform';
import type { Workflow } from './service';

const TABLES = ['wf_instance', 'wf_task', 'wf_task_candidate', 'wf_history', 'wf_timer'];

/**
 * Keeps PostgreSQL's statistics of the workflow's tables up with their growth. The task lists are planned by them: a
 * table that grew from nothing to thousands of waiting tasks faster than autovacuum looks (every minute, and only
 * after 2 % of change, migration 0019) was planned as if it were empty — a claim list of 5,000 tasks took a second
 * instead of 11 ms. After a number of steps that is a fifth of the instances at the last analysis (at least 200),
 * the tables are analysed again, one analysis at a time. SQLite plans without them: nothing to do there.
 */
export function keepStatistics(platform: Platform, workflow: Workflow): void {
  if (platform.dialect !== 'postgres') return;
  let steps = 0;
  let due = 200;
  let running = false;
  workflow.onStep(() => {
    steps += 1;
    if (running || steps < due) return;
    running = true;
    steps = 0;
    void analyse(platform)
      .then((instances) => {
        due = Math.max(200, Math.round(instances / 5));
      })
      .catch((error) => platform.logs.error('workflow.statistics', error))
      .finally(() => {
        running = false;
      });
  });
}

/** Analyses the tables; returns how many instances there are. */
async function analyse(platform: Platform): Promise<number> {
  await sql.raw(`analyze ${TABLES.join(', ')}`).execute(platform.db);
  const counted = await sql<{ n: string }>`select reltuples::bigint as n from pg_class where relname = 'wf_instance'`.execute(platform.db);
  return Number(counted.rows[0]?.n ?? 0);
}
