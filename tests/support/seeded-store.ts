import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { seed } from '../../server/db/seed';

/** Where the run's seeded SQLite store is (set by the global setup below, read by startServer). */
export const SEEDED_STORE_ENV = 'VIGIL_TEST_SEEDED_STORE';

/**
 * Global setup of the integration projects: one migrated and seeded SQLite store per run, which startServer copies
 * for each new SQLite server that is not the demo. Such a server finds nothing to migrate or seed, as a restarted
 * deployment does, and starts in a sixth of the time. The first start on an empty store stays tested: on PostgreSQL
 * (always a fresh database), by the demo's servers, the migration and seed suites (withFreshStore) and the deployment
 * and browser suites. The workers inherit the variable: they are started after this has run.
 */
export default async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-seeded-'));
  const database = openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(database.db);
    await seed(database.db, { demo: false });
  } finally {
    await database.close();
  }
  process.env[SEEDED_STORE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
