import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Failure } from './cli';
import { copyHashing, type FileEntry, sha256Of, syncDir } from './manifest';

/**
 * The files of DATA_DIR beside the database: uploads (`upload/`), the generated JWT secret (`jwt-secret`), the demo's
 * wall-screen secret (`demo-wall-secret`) and whatever else a deployment keeps there. They are copied as they are, so a
 * key file added later is backed up without a change here.
 */

/** The SQLite database and its companions: the database is copied by SQLite's backup API, never file by file. */
export const DATABASE_NAMES = ['vigil.sqlite', 'vigil.sqlite-wal', 'vigil.sqlite-shm', 'vigil.sqlite-journal'];
/** Where uploads live (server/modules/blade-resource/storage.ts): replaced as a whole by a restore. */
export const UPLOAD_DIR = 'upload';
/** A restore's staging folder inside the target, so its renames stay on one file system. */
export const STAGING_PREFIX = '.restore-';

const toPosix = (path: string) => path.split(sep).join('/');

/** Whether `inner` is `outer` or inside it. */
const within = (inner: string, outer: string) => inner === outer || inner.startsWith(outer + sep);

/** Skipped: the database, a restore's leftovers, the backup folder itself when it lies inside DATA_DIR, and uploads still being written (`*.part`). */
function skipped(dataDir: string, path: string, exclude: readonly string[]): boolean {
  const rel = relative(dataDir, path);
  const top = rel.split(sep)[0];
  if (DATABASE_NAMES.includes(rel) || top.startsWith(STAGING_PREFIX)) return true;
  if (exclude.some((dir) => within(path, dir))) return true;
  return top === UPLOAD_DIR && path.endsWith('.part');
}

/** Every regular file under `dir` that a backup takes, as paths relative to `dataDir`. Symbolic links are not followed. */
async function listFiles(dataDir: string, dir: string, exclude: readonly string[], found: string[] = []): Promise<string[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skipped(dataDir, path, exclude)) continue;
    if (entry.isDirectory()) await listFiles(dataDir, path, exclude, found);
    else if (entry.isFile()) found.push(relative(dataDir, path));
    else console.warn(`skipped ${path}: not a regular file or folder`);
  }
  return found;
}

/**
 * Copies DATA_DIR's files into `target` (a backup's files/ folder), hashing each copy. A file removed while the backup
 * runs (an attachment deleted) is left out: the database snapshot, taken first, may still name it, as it would have
 * after the deletion.
 */
export async function backUpFiles(dataDir: string, target: string, exclude: readonly string[]): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for (const rel of (await listFiles(dataDir, dataDir, exclude.map((d) => resolve(d)))).sort()) {
    const from = join(dataDir, rel);
    const to = join(target, rel);
    await mkdir(dirname(to), { recursive: true, mode: 0o700 });
    try {
      const mode = (await lstat(from)).mode & 0o777;
      entries.push({ path: toPosix(rel), mode, ...(await copyHashing(from, to, mode)) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return entries;
}

/** Checks a file of the backup against its manifest entry, naming what differs. */
export async function verifyFile(path: string, entry: FileEntry): Promise<void> {
  let actual: { size: number; sha256: string };
  try {
    actual = await sha256Of(path);
  } catch (error) {
    throw new Failure(`the backup is incomplete: ${entry.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (actual.sha256 !== entry.sha256 || actual.size !== entry.size) {
    throw new Failure(`the backup is damaged: ${entry.path} does not match its checksum in the manifest (expected ${entry.size} bytes, sha256 ${entry.sha256}; found ${actual.size} bytes, sha256 ${actual.sha256}). Nothing was restored.`);
  }
}

/** Copies a file of the backup into the staging folder, failing when the copy differs from the manifest. */
export async function stageFile(from: string, to: string, entry: FileEntry): Promise<void> {
  await mkdir(dirname(to), { recursive: true, mode: 0o700 });
  const copied = await copyHashing(from, to, entry.mode);
  if (copied.sha256 !== entry.sha256 || copied.size !== entry.size) throw new Failure(`${entry.path} changed while it was restored: its copy does not match the manifest. Nothing was restored.`);
}

/** Whether a path exists (a broken symbolic link counts). */
export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Whether the folder holds anything at all. */
export async function hasEntries(dir: string): Promise<boolean> {
  return (await readdir(dir).catch(() => [])).length > 0;
}

/**
 * Puts each staged top-level entry in place with one rename; a file replaces its old self atomically (never half of
 * one). What cannot be renamed over — a folder, or a name the backup does not have — moves into `attic` first, which
 * is removed with the staging folder afterwards.
 */
export async function swapIn(staged: string, target: string, names: readonly string[], attic: string): Promise<void> {
  await mkdir(attic, { recursive: true });
  for (const name of names) {
    const current = join(target, name);
    const incoming = join(staged, name);
    const replacesInPlace = (await exists(incoming)) && (await lstat(incoming)).isFile() && !(await isDirectory(current));
    if (!replacesInPlace && (await exists(current))) await rename(current, join(attic, name));
    if (await exists(incoming)) await rename(incoming, current);
  }
  await syncDir(target);
}

const isDirectory = (path: string) => lstat(path).then(
  (stat) => stat.isDirectory(),
  () => false,
);

/** Removes a staging folder, whatever it holds (the replaced data in its attic included). */
export async function removeStaging(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
}
