import pg from 'pg';

/** What every benchmark does around its runs: both stores, and the figures' percentiles. */

/** Runs `bench` on SQLite, then on a fresh PostgreSQL database when one is reachable (BENCH_STORE picks one). */
export async function onEveryStore(bench: (store: string, databaseUrl?: string) => Promise<void>): Promise<void> {
  const only = process.env.BENCH_STORE?.toLowerCase();
  if (only !== 'postgresql') await bench('SQLite');
  if (only === 'sqlite') return;
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  if (!(await admin.connect().then(() => true, () => false))) {
    console.log(`  PostgreSQL not reachable at ${adminUrl}: skipped`);
    return;
  }
  const name = `vigil_bench_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await bench('PostgreSQL', url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
