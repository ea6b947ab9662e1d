import { sql } from 'kysely';
import type { TestServer } from './server';

/** Puts a failure back as it was, through the server given (by default the one it was made on; a restarted one's). */
export type Restore = (on?: TestServer) => Promise<void>;

/**
 * Makes the store refuse inserts into `table` (or updates of it, `event`) of the rows `when` holds for (an SQL
 * condition on `new`, the same on both stores), as a full disk or a broken constraint would: a trigger that raises.
 * Resolves to what removes it again. The trigger stays with the store: a server restarted on it meets it too.
 */
export async function failWrites(server: TestServer, table: string, when: string, event: 'insert' | 'update' = 'insert'): Promise<Restore> {
  const db = server.app.platform.db;
  const name = sql.raw(`test_fail_${event}_${table}`);
  const target = sql.raw(table);
  const condition = sql.raw(when);
  const action = sql.raw(event);
  if (server.store === 'sqlite') {
    await sql`create trigger ${name} before ${action} on ${target} when ${condition} begin select raise(abort, 'storage failure'); end`.execute(db);
    return async (on = server) => {
      await sql`drop trigger ${name}`.execute(on.app.platform.db);
    };
  }
  await sql`create function ${name}() returns trigger language plpgsql as $$ begin if ${condition} then raise exception 'storage failure'; end if; return new; end $$`.execute(db);
  await sql`create trigger ${name} before ${action} on ${target} for each row execute function ${name}()`.execute(db);
  return async (on = server) => {
    await sql`drop trigger ${name} on ${target}`.execute(on.app.platform.db);
    await sql`drop function ${name}()`.execute(on.app.platform.db);
  };
}

/** The messages the error log holds of one kind (`exceptionName`: 'alarm', 'ingest' …), once its buffer is written. */
export async function loggedErrors(server: TestServer, kind: string): Promise<string[]> {
  await server.app.platform.logs.flush();
  const rows = await server.app.platform.db.selectFrom('blade_log_error').select('message').where('exceptionName', '=', kind).execute();
  return rows.map((row) => String(row.message));
}

/** The messages the error log holds of one kind, removed from it: a test that caused them leaves none behind. */
export async function takeLoggedErrors(server: TestServer, kind: string): Promise<string[]> {
  const messages = await loggedErrors(server, kind);
  await server.app.platform.db.deleteFrom('blade_log_error').where('exceptionName', '=', kind).execute();
  return messages;
}

/**
 * Makes every read and write of `table` fail, as a store that lost it would: the table is renamed aside. Resolves to
 * what puts it back. Callers tell the server's caches (`changed`) when they should read it again.
 */
export async function hideTable(server: TestServer, table: string): Promise<Restore> {
  const [name, aside] = [sql.raw(table), sql.raw(`${table}_hidden`)];
  await sql`alter table ${name} rename to ${aside}`.execute(server.app.platform.db);
  return async (on = server) => {
    await sql`alter table ${aside} rename to ${name}`.execute(on.app.platform.db);
  };
}
