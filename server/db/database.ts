import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { startCheckpointer } from './checkpointer';
import { Lock, TurnTakingSqliteDialect } from './sqlite-driver';
import type { Schema } from './tables';

/**
 * A row whose columns are known only at run time: what the generic CRUD layer validates and writes (module code
 * reading a declared table gets `RowOf<R>` through the scoped repository, or the table's row from the typed `db`).
 */
export type Row = Record<string, unknown>;
/** The tables, typed from the declarations and the migrations (server/db/tables.ts). */
export type { Schema };
export type Db = Kysely<Schema>;
export type DialectName = 'sqlite' | 'postgres';

/**
 * The driver under Kysely, for the few hot paths (time-series writes) that need it directly. SQLite's `writeLock` is
 * the turn every writer of this process takes before writing (server/db/sqlite-driver.ts).
 */
export type NativeDb = { dialect: 'sqlite'; sqlite: SQLite.Database; writeLock: Lock } | { dialect: 'postgres'; pool: pg.Pool; url: string };

export interface Database {
  db: Db;
  dialect: DialectName;
  native: NativeDb;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /**
   * PostgreSQL: an idle connection of the pool was lost (the server restarted, or ended it). The pool opens another on
   * the next query; without a listener the pool's `error` event would end the process.
   */
  onConnectionLost?: (error: Error) => void;
}

function pgPool(url: string): pg.Pool {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      // int8 holds epoch milliseconds and counts, all below 2^53; numeric holds measured values.
      if (oid === 20 || oid === 1700) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
  return new pg.Pool({ connectionString: url, max: 10, types });
}

/**
 * pool.end() resolves before its connections have finished closing; waits for each of them, so nothing of the
 * database outlives close() (a database dropped right after would otherwise kill them mid-goodbye).
 */
async function endPool(db: Kysely<Schema>, pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    pool.on('remove', () => {
      if (--open === 0) resolve();
    });
  });
  await db.destroy();
  await closed;
}

/** Settings of every SQLite connection of the server: Kysely's and the series writer's (server/ingest/store.ts). */
export const SQLITE_CONNECTION_PRAGMAS = [
  // FULL: a commit is on disk when it returns (QoS 1 readings are acknowledged only then); group commit keeps it cheap.
  'synchronous = FULL',
  // The WAL is checkpointed by a worker thread (checkpointer.ts) and by a committing connection only past 256 MB:
  // fewer, larger checkpoints copy a page written many times once. The file keeps its size once grown (~300 MB under
  // load): cutting it back after each checkpoint (journal_size_limit) cost an eighth of the ingest rate.
  'wal_autocheckpoint = 65536',
  'busy_timeout = 5000',
  'foreign_keys = ON',
];

export function openDatabase(options: DatabaseOptions): Database {
  const plugins = [new CamelCasePlugin()];
  if (options.databaseUrl) {
    const pool = pgPool(options.databaseUrl);
    const lost = options.onConnectionLost;
    pool.on('error', (error) => lost?.(error));
    // A client checked out when its connection dies (a transaction between two statements) emits 'error' itself, and
    // unheard that ended the process: its next statement fails instead, and the pool drops it at release. Idle
    // clients' failures reach the pool's 'error' above.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), plugins });
    return { db, dialect: 'postgres', native: { dialect: 'postgres', pool, url: options.databaseUrl }, close: () => endPool(db, pool) };
  }
  const file = join(options.dataDir, 'vigil.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  for (const pragma of SQLITE_CONNECTION_PRAGMAS) sqlite.pragma(pragma);
  // Keeps the query planner's statistics current (SQLite's advice: on open and before close).
  sqlite.pragma('optimize = 0x10002');
  const writeLock = new Lock();
  const db = new Kysely<Schema>({ dialect: new TurnTakingSqliteDialect(sqlite, writeLock), plugins });
  const checkpointer = startCheckpointer(file, (message) => process.emitWarning(`SQLite WAL checkpoint: ${message}`));
  const close = async () => {
    await checkpointer.stop();
    sqlite.pragma('optimize');
    await db.destroy();
  };
  return { db, dialect: 'sqlite', native: { dialect: 'sqlite', sqlite, writeLock }, close };
}
