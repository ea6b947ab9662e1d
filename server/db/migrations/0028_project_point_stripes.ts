import { type Kysely, SqliteAdapter, sql } from 'kysely';

const DAYS = Array.from({ length: 31 }, (_, i) => `d${i + 1}`);

/**
 * wit_project_points gets a `stripe` in its key: each connection of PostgreSQL's series writer adds to a row of its
 * own (server/db/tally.cjs). Every batch of a project's devices adds to the project's row of the month, and with one
 * row the four connections' transactions waited for each other's commits there: a live reading behind up to three
 * catching-up batches while a fleet reconnects (bench:connections, docs/benchmarks.md). Readers sum the stripes.
 * SQLite's one writer and the main thread add to stripe 0. The table is rebuilt (its key changes); its rows go to
 * stripe 0.
 */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  // SQLite runs a migration outside any transaction (Kysely's Migrator): this one is all or nothing there too. On
  // PostgreSQL the Migrator has opened one already.
  if (db.getExecutor().adapter instanceof SqliteAdapter) await db.transaction().execute((trx) => run(trx, true));
  else await run(db, false);
}

async function run(db: Kysely<any>, sqlite: boolean): Promise<void> {
  const columns = ['tenant_id', 'project_id', 'month', 'total', ...DAYS];
  let table = db.schema
    .createTable('wit_project_points_striped')
    .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
    .addColumn('project_id', 'varchar(20)', (col) => col.notNull())
    .addColumn('month', 'varchar(7)', (col) => col.notNull())
    .addColumn('stripe', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('total', 'bigint', (col) => col.notNull().defaultTo(0));
  for (const day of DAYS) table = table.addColumn(day, 'bigint', (col) => col.notNull().defaultTo(0));
  table = table.addPrimaryKeyConstraint('wit_project_points_striped_pk', ['tenant_id', 'project_id', 'month', 'stripe']);
  // Read by its key prefix, as migration 0016 made it: SQLite stores it in key order.
  await (sqlite ? table.modifyEnd(sql`without rowid`) : table).execute();
  const list = sql.raw(columns.join(', '));
  await sql`insert into wit_project_points_striped (${list}) select ${list} from wit_project_points`.execute(db);
  await db.schema.dropTable('wit_project_points').execute();
  await db.schema.alterTable('wit_project_points_striped').renameTo('wit_project_points').execute();
  // The names the table had: the key's, and the purge's index by project (migration 0020).
  if (!sqlite) await sql`alter table wit_project_points rename constraint wit_project_points_striped_pk to wit_project_points_pk`.execute(db);
  await db.schema.createIndex('wit_project_points_project_id_idx').on('wit_project_points').column('project_id').execute();
}
