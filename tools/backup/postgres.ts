import { spawn, spawnSync } from 'node:child_process';
import pg from 'pg';
import { Failure } from './cli';
import { type DatabaseFacts, KEY_TABLES } from './manifest';

/**
 * The PostgreSQL side: PostgreSQL's own client tools (pg_dump, pg_restore, from the PATH), which know every object
 * of the schema — tables, indexes, triggers, functions, sequences — as no copy of rows would.
 */

/** Fails with what to install when a client tool is not on the PATH. */
export function requireTool(tool: 'pg_dump' | 'pg_restore'): void {
  const probe = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (probe.error) {
    const missing = (probe.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Failure(missing ? `${tool} is not on the PATH: install PostgreSQL's client tools (Debian: apt-get install postgresql-client) of the server's major version or newer` : `${tool} cannot run: ${probe.error.message}`);
  }
}

/**
 * The URL without its password, and the password in PGPASSWORD: a command line is visible to every user of the
 * machine (ps), the environment of a process is not.
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs a client tool; fails with its own error output. */
function runTool(tool: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', (error) => reject(new Failure(`${tool} cannot run: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Failure(`${tool} failed (${signal ?? `exit ${code}`}):\n${errors.trim()}`));
    });
  });
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new Failure(`cannot connect to the database of DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function factsOf(client: pg.Client): Promise<DatabaseFacts> {
  const { rows: present } = await client.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'");
  const tables = new Set(present.map((r) => r.name));
  const migration = tables.has('kysely_migration') ? ((await client.query<{ name: string | null }>('select max(name) as name from kysely_migration')).rows[0].name ?? null) : null;
  const rows: Record<string, number> = {};
  for (const table of KEY_TABLES) {
    if (tables.has(table)) rows[table] = Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0].n);
  }
  return { migration, rows };
}

/**
 * pg_dump in the custom format (compressed, restorable selectively, in parallel). The facts and the dump read one
 * exported snapshot, so the manifest's counts are exactly those of the dump while the server keeps writing.
 */
export async function dumpPostgres(url: string, file: string): Promise<DatabaseFacts> {
  return withClient(url, async (client) => {
    await client.query('begin isolation level repeatable read read only');
    try {
      const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id;
      const facts = await factsOf(client);
      const { dbname, env } = connection(url);
      await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`], env);
      return facts;
    } finally {
      await client.query('commit');
    }
  });
}

/** Other sessions on the database (a running server's pool): restoring under them would pull tables from beneath it. */
export async function postgresSessions(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ who: string }>(
      "select coalesce(nullif(application_name, ''), 'unnamed') || ' from ' || coalesce(host(client_addr), 'local socket') as who from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'",
    );
    return rows.map((r) => r.who);
  });
}

/** Whether the database already holds tables (of Vigil or anything else). */
export async function postgresHasTables(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ n: string }>("select count(*) as n from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'");
    return Number(rows[0].n) > 0;
  });
}

/**
 * pg_restore into the database in one transaction: it either ends with the backup's schema and rows in place of what
 * the database held (--clean --if-exists drops each object first, when there), or changes nothing.
 */
export async function restorePostgres(url: string, file: string): Promise<DatabaseFacts> {
  const { dbname, env } = connection(url);
  await runTool('pg_restore', ['--clean', '--if-exists', '--no-owner', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, file], env);
  return withClient(url, factsOf);
}
