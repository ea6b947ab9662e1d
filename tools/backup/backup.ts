import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Failure, parseCommandLine, runCommand, usageError } from './cli';
import { backUpFiles } from './files';
import { type DatabaseFacts, FILES_DIR, FORMAT, type FileEntry, type Manifest, sha256Of, type Store, syncDir, vigilVersion, writeManifest } from './manifest';
import { dumpPostgres, requireTool } from './postgres';
import { sealSqliteCopy, snapshotSqlite } from './sqlite';

/**
 * `npm run backup -- [--data-dir DIR] [--out DIR]`: a consistent backup of a Vigil deployment while it runs — the
 * database (SQLite's online backup API, or pg_dump with DATABASE_URL), the uploads and the secret files of DATA_DIR —
 * as a folder `<out>/vigil-<UTC time>/` with a manifest.json listing every file with its checksum
 * (docs/operations.md "Backup and restore").
 */

const USAGE = `usage: npm run backup -- [--data-dir DIR] [--out DIR]
  --data-dir  the deployment's data folder (default: DATA_DIR, else ./data)
  --out       where the backup folder is created (default: ./backups)
With DATABASE_URL set, the database is dumped with pg_dump (on the PATH).`;

interface Options {
  dataDir: string;
  out: string;
  databaseUrl?: string;
}

function options(): Options {
  const { values, positionals } = parseCommandLine({ options: { 'data-dir': { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true }, USAGE);
  if (values.help) throw new Failure(USAGE, 0);
  if (positionals.length > 0) throw usageError(`unexpected argument ${positionals[0]}`, USAGE);
  if (values['data-dir'] === '' || values.out === '') throw usageError('--data-dir and --out need a folder', USAGE);
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
  if (!existsSync(dataDir)) throw new Failure(`the data folder ${dataDir} does not exist (--data-dir, or DATA_DIR)`);
  return { dataDir, out: resolve(values.out ?? './backups'), databaseUrl: process.env.DATABASE_URL || undefined };
}

/** `vigil-20260305T123000Z`: sorts by time, and has no characters a file system or a shell minds. */
const backupName = (now: Date) => `vigil-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;

/** The database into `staging`: the snapshot first, so the files copied after it include every upload it names. */
async function backUpDatabase({ dataDir, databaseUrl }: Options, staging: string): Promise<{ store: Store; facts: DatabaseFacts; database: FileEntry }> {
  if (databaseUrl) {
    requireTool('pg_dump');
    const file = join(staging, 'vigil.pgdump');
    const facts = await dumpPostgres(databaseUrl, file);
    await chmod(file, 0o600);
    return { store: 'postgres', facts, database: { path: 'vigil.pgdump', mode: 0o600, ...(await sha256Of(file)) } };
  }
  const source = join(dataDir, 'vigil.sqlite');
  if (!existsSync(source)) throw new Failure(`no database at ${source}: is ${dataDir} a Vigil data folder? (With PostgreSQL, set DATABASE_URL.)`);
  const file = join(staging, 'vigil.sqlite');
  await snapshotSqlite(source, file);
  const facts = sealSqliteCopy(file);
  await chmod(file, 0o600);
  return { store: 'sqlite', facts, database: { path: 'vigil.sqlite', mode: 0o600, ...(await sha256Of(file)) } };
}

/**
 * Builds the backup in `<name>.partial` and renames it once its manifest is written, so a backup folder either is
 * complete or does not exist under its final name. 0700: it holds the secrets.
 */
async function backup(): Promise<void> {
  const opts = options();
  const now = new Date();
  const final = join(opts.out, backupName(now));
  const staging = `${final}.partial`;
  if (existsSync(final) || existsSync(staging)) throw new Failure(`${final} exists already: wait a second and run again`);
  await mkdir(opts.out, { recursive: true });
  await mkdir(staging, { mode: 0o700 });
  try {
    const { store, facts, database } = await backUpDatabase(opts, staging);
    const files = await backUpFiles(opts.dataDir, join(staging, FILES_DIR), [opts.out]);
    const manifest: Manifest = { format: FORMAT, createdAt: now.toISOString(), vigil: vigilVersion(), store, ...facts, database, files };
    await writeManifest(staging, manifest);
    await syncDir(staging);
    await rename(staging, final);
    await syncDir(opts.out);
    report(final, manifest);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

function report(folder: string, manifest: Manifest): void {
  const bytes = manifest.files.reduce((sum, f) => sum + f.size, manifest.database.size);
  const rows = Object.entries(manifest.rows).map(([table, n]) => `${table} ${n}`).join(', ');
  console.log(`Backup written: ${folder}`);
  console.log(`  ${manifest.store === 'sqlite' ? 'SQLite snapshot' : 'pg_dump'} (${manifest.database.size} bytes), schema ${manifest.migration ?? 'none'}; rows: ${rows}`);
  console.log(`  ${manifest.files.length} more files of the data folder; ${bytes} bytes in all`);
  const secrets = manifest.files.some((f) => f.path === 'jwt-secret') ? ' and the JWT secret' : '';
  console.log(`  It holds the database (password hashes, storage and SMS keys)${secrets}: keep it as private as the server itself.`);
}

runCommand('backup', backup);
