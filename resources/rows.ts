import type { z } from 'zod';
import type { Resource } from './define';

/**
 * The row a declared resource's table holds, as the database drivers return it (camelCase through Kysely's
 * CamelCasePlugin). Derived from the declaration, so renaming a field is a compile error wherever its column is read.
 *
 * - Base columns (CONTRACT.md "Base columns"): ids and audit columns are text (snowflake ids are never numbers here),
 *   `status` and `isDeleted` integers; the audit columns are nullable in the migrations, so they are here too.
 * - `tenantId` for tenant resources.
 * - The declaration's fields as their zod output (what every write through the CRUD layer stores), an optional or
 *   nullish field as `T | null`: an absent value is stored as NULL and read back as null, never undefined.
 *   Numbers are numbers on both drivers (server/db/database.ts parses PostgreSQL int8 and numeric).
 * - A union of resources gives the union of their rows.
 */
export type RowOf<R extends Resource> = R extends Resource ? Flat<BaseRow & TenantColumn<R> & FieldColumns<R>> : never;

/**
 * A row as the repository returns it (`page`, `all`, `detail`, `byId`): the table's row without the declaration's
 * `hidden` fields (password hashes, secrets), which never leave the server. A declaration whose hidden names are not
 * known literally (code generic over any resource) gives the whole row.
 */
export type PresentedRowOf<R extends Resource> = R extends Resource
  ? string extends HiddenOf<R>
    ? RowOf<R>
    : Flat<Omit<RowOf<R>, HiddenOf<R>>>
  : never;

/** The names of a declaration's hidden fields. */
export type HiddenOf<R extends Resource> = NonNullable<R['hidden']>[number];

export type BaseRow = {
  id: string;
  createUser: string | null;
  createDept: string | null;
  createTime: string | null;
  updateUser: string | null;
  updateTime: string | null;
  status: number;
  isDeleted: number;
};

type TenantColumn<R extends Resource> = R['tenancy'] extends 'tenant' ? { tenantId: string } : unknown;

type FieldColumns<R extends Resource> = Stored<z.output<R['fields']>>;

/** Optional (or undefined-accepting) fields read back as null. */
type Stored<T> = {
  [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? Exclude<T[K], undefined> | null : undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K];
};

type Flat<T> = { [K in keyof T]: T[K] };
