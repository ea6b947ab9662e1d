import type { ColumnDataType, Kysely } from 'kysely';
import { sql } from 'kysely';

/** Column types that mean the same on SQLite and PostgreSQL. */
export type ColumnType = 'id' | 'text' | 'longtext' | 'int' | 'bigint' | 'double' | 'datetime';

const SQL_TYPES: Record<ColumnType, ColumnDataType> = {
  id: 'varchar(20)',
  text: 'varchar(255)',
  longtext: 'text',
  int: 'integer',
  bigint: 'bigint',
  double: 'double precision',
  datetime: 'varchar(19)',
};

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  notNull?: boolean;
  default?: string | number;
}

export const column = (name: string, type: ColumnType, options: Omit<ColumnSpec, 'name' | 'type'> = {}): ColumnSpec => ({
  name,
  type,
  ...options,
});

/**
 * Creates a table with the contract's base columns (id, audit columns, status, is_deleted, and tenant_id for
 * tenant-owned tables) and an index that serves the tenant filter of every list call. Names are snake_case.
 */
// Migrations run against whatever schema existed at their time, so they take an untyped Kysely.
export async function createTable(db: Kysely<any>, name: string, tenant: boolean, columns: ColumnSpec[]): Promise<void> {
  let builder = db.schema.createTable(name).addColumn('id', 'varchar(20)', (c) => c.primaryKey());
  if (tenant) builder = builder.addColumn('tenant_id', 'varchar(12)', (c) => c.notNull().defaultTo('000000'));
  for (const spec of columns) {
    builder = builder.addColumn(spec.name, SQL_TYPES[spec.type], (c) => {
      let out = spec.notNull ? c.notNull() : c;
      if (spec.default !== undefined) out = out.defaultTo(spec.default);
      return out;
    });
  }
  builder = builder
    .addColumn('create_user', 'varchar(20)')
    .addColumn('create_dept', 'varchar(20)')
    .addColumn('create_time', 'varchar(19)')
    .addColumn('update_user', 'varchar(20)')
    .addColumn('update_time', 'varchar(19)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0));
  await builder.execute();
  const scopeColumns = tenant ? ['tenant_id', 'is_deleted', 'id'] : ['is_deleted', 'id'];
  await db.schema.createIndex(`${name}_scope_idx`).on(name).columns(scopeColumns).execute();
}

/** A plain index; `unique` ones should include is_deleted only when soft-deleted duplicates must be allowed. */
export async function createIndex(db: Kysely<any>, table: string, columns: string[], unique = false): Promise<void> {
  let builder = db.schema.createIndex(`${table}_${columns.join('_')}_idx`).on(table).columns(columns);
  if (unique) builder = builder.unique();
  await builder.execute();
}

/** Link tables (role_menu, role_scope …) have only their own columns. */
export async function createLinkTable(db: Kysely<any>, name: string, left: string, right: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', 'varchar(20)', (c) => c.primaryKey())
    .addColumn(left, 'varchar(20)', (c) => c.notNull())
    .addColumn(right, 'varchar(20)', (c) => c.notNull())
    .execute();
  await createIndex(db, name, [left, right], true);
  await createIndex(db, name, [right]);
}

export { sql };
