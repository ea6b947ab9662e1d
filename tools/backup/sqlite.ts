import SQLite from 'better-sqlite3';
import { Failure } from './cli';
import { type DatabaseFacts, KEY_TABLES } from './manifest';

/**
 * The SQLite side: a consistent copy of a database another process has open and writes (the server, in WAL mode),
 * the facts of the copy, and whether a server has a database open.
 */

/** better-sqlite3's largest step: the whole database in one step (below). */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the live database with SQLite's online backup API. All pages go in one step, inside one read transaction:
 * the copy is the database as of one commit. In WAL mode that read never blocks the server's writers; copying in
 * small steps instead would restart whenever another process commits in between, and never end under steady ingest.
 */
export async function snapshotSqlite(file: string, destination: string): Promise<void> {
  // Not opened read-only: a read-only connection cannot remove the -wal and -shm it creates beside a stopped server's
  // database. query_only refuses any write all the same.
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('query_only = ON');
    source.pragma('busy_timeout = 5000');
    await source.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
}

/**
 * Makes the copy a self-contained file (rollback journal: no -wal beside it; the server switches it back to WAL when it
 * opens it), checks it, and reads its facts. Run on the copy, so the facts are those of the snapshot.
 */
export function sealSqliteCopy(file: string): DatabaseFacts {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    // quick_check: every page and record readable, in O(N); integrity_check would also cross-check each index.
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Failure(`the copied database fails SQLite's quick_check: ${String(check)}`);
    return factsOf(copy);
  } finally {
    copy.close();
  }
}

function factsOf(db: SQLite.Database): DatabaseFacts {
  const tables = new Set((db.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]));
  const migration = tables.has('kysely_migration') ? ((db.prepare('select max(name) from kysely_migration').pluck().get() as string | null) ?? null) : null;
  const rows: Record<string, number> = {};
  for (const table of KEY_TABLES) {
    if (tables.has(table)) rows[table] = Number(db.prepare(`select count(*) from ${table}`).pluck().get());
  }
  return { migration, rows };
}

/**
 * Whether a process (a running server) has the database open. A WAL-mode connection keeps a shared lock on the
 * database file for as long as it is open, idle or not; so an exclusive lock, asked for without waiting, is refused
 * exactly while another connection exists. The probe changes nothing: it begins and commits an empty transaction.
 */
export function sqliteInUse(file: string): boolean {
  const probe = new SQLite(file, { fileMustExist: true });
  try {
    probe.pragma('busy_timeout = 0');
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('begin exclusive');
    probe.exec('commit');
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    if (code === 'SQLITE_NOTADB') return false; // not a database: nothing can be serving it
    throw new Failure(`cannot check whether ${file} is in use: ${(error as Error).message}`);
  } finally {
    probe.close();
  }
}
