import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../server/db/database';

/**
 * PostgreSQL is used when reachable (it runs on this project's machines); tests skip it with a message otherwise —
 * except where it must be there: .ci/run exports VIGIL_REQUIRE_POSTGRES=1 (CI=true asks the same), and then an
 * unreachable PostgreSQL fails the run instead of passing it on SQLite alone.
 */
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether an unreachable PostgreSQL fails the run; VIGIL_REQUIRE_POSTGRES=0 lets a CI machine without it skip. */
export function postgresRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.VIGIL_REQUIRE_POSTGRES !== undefined) return env.VIGIL_REQUIRE_POSTGRES === '1';
  return env.CI === 'true' || env.CI === '1';
}

let reachable: Promise<boolean> | undefined;

export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    // VIGIL_TEST_STORES=sqlite runs SQLite alone (the mutation runs: one store is enough to kill a mutant).
    if (process.env.VIGIL_TEST_STORES === 'sqlite') return false;
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (postgresRequired()) throw new Error(`PostgreSQL is required here (VIGIL_REQUIRE_POSTGRES / CI) but not reachable at ${PG_ADMIN_URL}: ${reason}`);
      console.warn(`PostgreSQL is not reachable at ${PG_ADMIN_URL}: its runs of the suites are skipped.`);
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one suite; returns its URL and a function that drops it. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vigil_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

export type StoreKind = 'sqlite' | 'postgres';

/** The stores a suite should run against: SQLite always, PostgreSQL when reachable. */
export async function storeKinds(): Promise<StoreKind[]> {
  return (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Runs `run` on a fresh, unmigrated store of `kind` (a temporary SQLite file or PostgreSQL database), then removes it. */
export async function withFreshStore(kind: StoreKind, run: (database: Database) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-store-'));
  const pgDb = kind === 'postgres' ? await createPgDatabase() : undefined;
  const database = openDatabase({ dataDir, databaseUrl: pgDb?.url });
  try {
    await run(database);
  } finally {
    await database.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
