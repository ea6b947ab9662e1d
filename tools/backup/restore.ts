import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Failure, parseCommandLine, runCommand, usageError } from './cli';
import { DATABASE_NAMES, exists, hasEntries, removeStaging, STAGING_PREFIX, stageFile, swapIn, UPLOAD_DIR, verifyFile } from './files';
import { type DatabaseFacts, FILES_DIR, knownMigrations, type Manifest, readManifest } from './manifest';
import { postgresHasTables, postgresSessions, requireTool, restorePostgres } from './postgres';
import { sqliteInUse } from './sqlite';

/**
 * `npm run restore -- <backup folder> [--data-dir DIR] [--force]`: puts a backup of `npm run backup` back into a data
 * folder (and, for a PostgreSQL backup, into the database of DATABASE_URL) that no server is using. Every file is
 * checked against the manifest before anything is written; the files are staged beside the target and renamed into
 * place (docs/operations.md "Backup and restore").
 */

const USAGE = `usage: npm run restore -- <backup folder> [--data-dir DIR] [--force]
  <backup folder>  a folder written by npm run backup (it holds manifest.json)
  --data-dir       the data folder to restore into (default: DATA_DIR, else ./data); no server may be using it
  --force          replace the data the target already holds
A PostgreSQL backup is restored into the database of DATABASE_URL with pg_restore (on the PATH).`;

interface Options {
  backup: string;
  dataDir: string;
  force: boolean;
  databaseUrl?: string;
}

function options(): Options {
  const { values, positionals } = parseCommandLine({ options: { 'data-dir': { type: 'string' }, force: { type: 'boolean', default: false }, help: { type: 'boolean' } }, allowPositionals: true }, USAGE);
  if (values.help) throw new Failure(USAGE, 0);
  if (positionals.length !== 1) throw usageError(positionals.length === 0 ? 'which backup? Name its folder.' : `one backup at a time: got ${positionals.join(', ')}`, USAGE);
  if (values['data-dir'] === '') throw usageError('--data-dir needs a folder', USAGE);
  const backup = resolve(positionals[0]);
  if (!existsSync(backup)) throw new Failure(`${backup} does not exist`);
  return { backup, dataDir: resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data'), force: values.force, databaseUrl: process.env.DATABASE_URL || undefined };
}

/** The backup's store must be the one the server will run on, and its schema one this code can migrate from. */
function checkCompatible(manifest: Manifest, { databaseUrl }: Options): void {
  if (manifest.store === 'postgres' && !databaseUrl) throw new Failure('this is a backup of a PostgreSQL database: set DATABASE_URL to the database to restore it into');
  if (manifest.store === 'sqlite' && databaseUrl) throw new Failure('this is a backup of an SQLite database, but DATABASE_URL is set: unset it to restore into the data folder (the server would not read the file with it set)');
  if (manifest.store === 'postgres') requireTool('pg_restore');
  const known = knownMigrations();
  if (manifest.migration !== null && !known.includes(manifest.migration)) {
    throw new Failure(`the backup's schema (${manifest.migration}, Vigil ${manifest.vigil}) is newer than this Vigil knows (up to ${known.at(-1)}): restore it with the version that made it`);
  }
}

/** The top-level names of the data folder a restore replaces, the database's last (its -wal and -shm go before it). */
function replacedNames(manifest: Manifest): string[] {
  const names = new Set([UPLOAD_DIR, ...manifest.files.map((f) => f.path.split('/')[0])]);
  const database = manifest.store === 'sqlite' ? [...DATABASE_NAMES.slice(1), DATABASE_NAMES[0]] : [];
  return [...names].filter((name) => !DATABASE_NAMES.includes(name)).concat(database);
}

/** What of the target a restore would replace, if any: named for the refusal's message. */
async function heldData(dataDir: string, names: readonly string[]): Promise<string[]> {
  const held: string[] = [];
  for (const name of names) {
    const path = join(dataDir, name);
    if (name === UPLOAD_DIR ? await hasEntries(path) : await exists(path)) held.push(name);
  }
  return held;
}

/**
 * Refuses a target in use by a server, whatever --force says, and one holding data without --force. SQLite: a
 * running server holds a lock on vigil.sqlite (sqlite.ts); PostgreSQL: a running server has sessions on the database.
 */
async function checkTarget(opts: Options, manifest: Manifest): Promise<void> {
  const database = join(opts.dataDir, DATABASE_NAMES[0]);
  if (manifest.store === 'sqlite' && (await exists(database)) && sqliteInUse(database)) {
    throw new Failure(`${database} is in use (a server, or another program, has it open): stop the server first`);
  }
  const sessions = manifest.store === 'postgres' && opts.databaseUrl ? await postgresSessions(opts.databaseUrl) : [];
  if (sessions.length > 0) throw new Failure(`the database of DATABASE_URL is in use by ${sessions.length} other session(s) (${sessions.join('; ')}): stop the servers first`);
  if (opts.force) return;
  const held = await heldData(opts.dataDir, replacedNames(manifest));
  const where = held.length > 0 ? [`${held.join(', ')} in ${opts.dataDir}`] : [];
  if (manifest.store === 'postgres' && opts.databaseUrl && (await postgresHasTables(opts.databaseUrl))) where.unshift('tables in the database of DATABASE_URL');
  if (where.length > 0) throw new Failure(`the target already holds data (${where.join('; ')}): restore into an empty ${manifest.store === 'postgres' ? 'data folder and database' : 'data folder'}, or pass --force to replace it`);
}

/** Reads every file of the backup against the manifest: a damaged backup is refused before anything is written. */
async function verifyBackup(backup: string, manifest: Manifest): Promise<void> {
  await verifyFile(join(backup, manifest.database.path), manifest.database);
  for (const entry of manifest.files) await verifyFile(join(backup, FILES_DIR, entry.path), entry);
}

/** Copies the backup's files (and the SQLite database) into `staged`, each copy checked again as it is written. */
async function stage(backup: string, manifest: Manifest, staged: string): Promise<void> {
  for (const entry of manifest.files) await stageFile(join(backup, FILES_DIR, entry.path), join(staged, entry.path), entry);
  if (manifest.store === 'sqlite') await stageFile(join(backup, manifest.database.path), join(staged, DATABASE_NAMES[0]), manifest.database);
}

/** After pg_restore: the database must hold what the manifest counted in the dump. */
function checkRestored(manifest: Manifest, facts: DatabaseFacts): void {
  const expected = JSON.stringify({ migration: manifest.migration, rows: manifest.rows });
  const found = JSON.stringify({ migration: facts.migration, rows: facts.rows });
  if (expected !== found) throw new Failure(`pg_restore finished, but the database differs from the backup's manifest: expected ${expected}, found ${found}. The data folder was left as it was.`);
}

async function restore(): Promise<void> {
  const opts = options();
  const manifest = readManifest(opts.backup);
  checkCompatible(manifest, opts);
  await checkTarget(opts, manifest);
  await verifyBackup(opts.backup, manifest);
  await mkdir(opts.dataDir, { recursive: true });
  const staging = join(opts.dataDir, `${STAGING_PREFIX}${process.pid}-${Date.now()}`);
  try {
    await stage(opts.backup, manifest, join(staging, 'new'));
    if (manifest.store === 'postgres' && opts.databaseUrl) checkRestored(manifest, await restorePostgres(opts.databaseUrl, join(opts.backup, manifest.database.path)));
    await swapIn(join(staging, 'new'), opts.dataDir, replacedNames(manifest), join(staging, 'replaced'));
  } finally {
    await removeStaging(staging);
  }
  console.log(`Restored ${opts.backup} (made ${manifest.createdAt} by Vigil ${manifest.vigil}, schema ${manifest.migration ?? 'none'}) into ${opts.dataDir}${manifest.store === 'postgres' ? ' and the database of DATABASE_URL' : ''}.`);
  console.log('Start the server on it: it migrates the schema forward if this Vigil is newer.');
}

runCommand('restore', restore);
