import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { Failure } from './cli';

/**
 * What a backup holds (docs/operations.md "Backup and restore"), written last as `manifest.json`: a directory without
 * one is not a finished backup. Every file is listed with its checksum, so a restore proves the copy intact before it
 * writes anything.
 */

export const MANIFEST = 'manifest.json';
/** Bumped when the layout changes in a way an older restore would misread. */
export const FORMAT = 1;
/** Files of DATA_DIR other than the database are kept under this folder of the backup, as they were laid out. */
export const FILES_DIR = 'files';

export type Store = 'sqlite' | 'postgres';

export interface FileEntry {
  /** Relative, `/`-separated: `vigil.sqlite`, `vigil.pgdump`, or a path under files/ (`upload/…`, `jwt-secret`). */
  path: string;
  size: number;
  sha256: string;
  /** Permission bits, so secrets come back readable by their owner only. */
  mode: number;
}

/** What the database held at the snapshot: the facts a restore (and a person) can check. */
export interface DatabaseFacts {
  /** Newest migration applied (the kysely_migration table); null when the schema has none. */
  migration: string | null;
  /** Row counts of a few key tables, read in the snapshot itself. */
  rows: Record<string, number>;
}

export interface Manifest extends DatabaseFacts {
  format: typeof FORMAT;
  createdAt: string;
  /** package.json version of the Vigil that made it. */
  vigil: string;
  store: Store;
  database: FileEntry;
  files: FileEntry[];
}

/** Tables counted into the manifest: enough to recognise the data at a glance and to compare after a restore. */
export const KEY_TABLES = ['blade_tenant', 'blade_user', 'blade_attach', 'wit_project', 'wit_device', 'wit_device_log', 'wit_alarm'] as const;

export async function sha256Of(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Copies a file, hashing what it writes, and fsyncs the copy: a backup (or a restore's staged file) is on disk and
 * described by the bytes actually written. `wx`: never overwrites.
 */
export async function copyHashing(from: string, to: string, mode: number): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const out = await open(to, 'wx', mode);
  try {
    for await (const chunk of createReadStream(from) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
      await out.write(chunk);
    }
    await out.chmod(mode); // open's mode is filtered by the umask
    await out.sync();
  } finally {
    await out.close();
  }
  return { size, sha256: hash.digest('hex') };
}

/** fsync of a directory, so the names renamed or created in it survive a power cut. */
export async function syncDir(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

/** The package version, for the manifest. */
export function vigilVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Names of the migrations this code has (server/db/migrations), to refuse a backup of a newer schema. */
export function knownMigrations(): string[] {
  return readdirSync(new URL('../../server/db/migrations/', import.meta.url))
    .filter((name) => /^\d{4}_.*\.ts$/.test(name))
    .map((name) => name.slice(0, -3))
    .sort();
}

/** A path of the manifest that stays inside the backup (a crafted `../` would otherwise write anywhere on restore). */
function safePath(path: unknown): path is string {
  if (typeof path !== 'string' || path === '' || isAbsolute(path) || path.includes('\\')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function isEntry(value: unknown): value is FileEntry {
  const entry = value as FileEntry;
  return typeof entry === 'object' && entry !== null && safePath(entry.path) && Number.isInteger(entry.size) && /^[0-9a-f]{64}$/.test(String(entry.sha256)) && Number.isInteger(entry.mode);
}

/** Reads and checks the shape of a backup's manifest; refuses what this version cannot restore. */
export function readManifest(dir: string): Manifest {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST), 'utf8');
  } catch {
    throw new Failure(`${dir} is not a backup: it has no ${MANIFEST} (a backup interrupted before it finished has none)`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch (error) {
    throw new Failure(`${join(dir, MANIFEST)} is not valid JSON: ${(error as Error).message}`);
  }
  if (manifest.format !== FORMAT) throw new Failure(`${join(dir, MANIFEST)}: format ${String(manifest.format)} is not one this version restores (${FORMAT})`);
  if (manifest.store !== 'sqlite' && manifest.store !== 'postgres') throw new Failure(`${join(dir, MANIFEST)}: unknown store ${String(manifest.store)}`);
  if (!isEntry(manifest.database) || !Array.isArray(manifest.files) || !manifest.files.every(isEntry)) {
    throw new Failure(`${join(dir, MANIFEST)} is damaged: a file entry lacks its path, size, checksum or mode, or leaves the backup`);
  }
  return manifest;
}
