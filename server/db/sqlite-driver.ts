import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
  type Kysely,
} from 'kysely';

/** A first-come first-served lock: whoever asks first is served first, so no side can starve the other. */
export class Lock {
  private held = false;
  private readonly queue: Array<() => void> = [];

  /** How many wait for the lock. */
  get waiting(): number {
    return this.queue.length;
  }

  async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.held = false;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

/** Statements kept prepared, by SQL text: preparing is a good part of a small query's cost. */
const STATEMENT_CACHE = 500;

/** How long Kysely's connection may keep its turn to write for the callers queued behind it. */
const WRITE_TURN_MS = 50;

/**
 * Kysely's one connection to SQLite, which takes the process's write lock before it writes.
 *
 * Several connections of this process write to the file (this one, the series writer's thread). In WAL mode readers
 * never wait for a writer, but two writers do — and this connection waiting for SQLite's write lock would wait in the
 * busy handler, blocking the main thread for a whole series commit. So writers take turns on `writeLock` first,
 * asynchronously: statements that only read run at once; a statement that writes, outside a transaction, runs under
 * the lock; a transaction holds it from `begin immediate` to its end (immediate: a transaction that read first and
 * then wrote after another connection's commit would fail with SQLITE_BUSY_SNAPSHOT).
 *
 * Once it has its turn, the connection keeps it for the Kysely callers queued behind it, up to WRITE_TURN_MS: a burst
 * of small writes (400 devices coming online at once) then costs one turn, not one series commit each (8 s measured).
 */
class SqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SQLite.Statement>();
  private inTransaction = false;
  /** When this connection took its turn to write; undefined while it has none. */
  private turnSince?: number;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly writeLock: Lock,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(query.sql);
    if (!statement.readonly) await this.takeTurn();
    return run<R>(statement, query.parameters);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.prepare(query.sql);
    if (!statement.reader) throw new Error('SQLite streams only queries that return rows');
    if (!statement.readonly && !this.inTransaction) throw new Error('SQLite streams a writing query only inside a transaction');
    for (const row of statement.iterate(query.parameters)) yield { rows: [row as R] };
  }

  async begin(): Promise<void> {
    await this.takeTurn();
    this.sqlite.exec('begin immediate');
    this.inTransaction = true;
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    try {
      this.sqlite.exec(command);
    } finally {
      // A failed commit leaves the transaction open (SQLITE_BUSY): roll it back rather than keep it.
      if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
      this.inTransaction = false;
    }
  }

  /** Called as a Kysely caller lets the connection go (the driver's releaseConnection). */
  endTurn(othersWaiting: boolean): void {
    if (this.turnSince === undefined || this.inTransaction) return;
    if (othersWaiting && performance.now() - this.turnSince < WRITE_TURN_MS) return;
    this.turnSince = undefined;
    this.writeLock.release();
  }

  private async takeTurn(): Promise<void> {
    if (this.turnSince !== undefined) return;
    await this.writeLock.acquire();
    this.turnSince = performance.now();
  }

  private prepare(sql: string): SQLite.Statement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    statement = this.sqlite.prepare(sql);
    if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value as string);
    this.statements.set(sql, statement);
    return statement;
  }
}

function run<R>(statement: SQLite.Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class TurnTakingSqliteDriver implements Driver {
  private readonly connectionLock = new Lock();
  private readonly connection: SqliteConnection;

  constructor(
    private readonly sqlite: SQLite.Database,
    writeLock: Lock,
  ) {
    this.connection = new SqliteConnection(sqlite, writeLock);
  }

  async init(): Promise<void> {}

  /** One connection, used by one Kysely caller (a query or a transaction) at a time. */
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.connectionLock.acquire();
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    this.connection.endTurn(this.connectionLock.waiting > 0);
    this.connectionLock.release();
  }

  beginTransaction = (connection: DatabaseConnection) => (connection as SqliteConnection).begin();
  commitTransaction = (connection: DatabaseConnection) => (connection as SqliteConnection).end('commit');
  rollbackTransaction = (connection: DatabaseConnection) => (connection as SqliteConnection).end('rollback');

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoted(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoted(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoted(name)}`));
  }

  async destroy(): Promise<void> {
    this.sqlite.close();
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Kysely's SQLite dialect on our turn-taking driver (above); named apart from Kysely's own `SqliteDialect`, which it replaces. */
export class TurnTakingSqliteDialect implements Dialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly writeLock: Lock,
  ) {}

  createDriver(): Driver {
    return new TurnTakingSqliteDriver(this.sqlite, this.writeLock);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): SqliteAdapter {
    return new SqliteAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect signature takes Kysely<any>
  createIntrospector(db: Kysely<any>): SqliteIntrospector {
    return new SqliteIntrospector(db);
  }
}
