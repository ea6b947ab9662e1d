import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { FieldKind, Resource } from '../../resources/define';
import { type FilterSuffix, splitFilterKey } from '../../resources/filters';
import type { DialectName } from '../db/database';
import { formatDateTime, parseDateTime } from '../time';
import { paramType } from './envelope';

/**
 * CONTRACT.md "Query conditions": every list parameter other than paging and sorting is a filter on a whitelisted
 * field. The value is always bound as a parameter; only whitelisted column names reach the SQL text.
 */

export type Query = Record<string, unknown>;
/**
 * A where condition built from declarations and requests at run time, so it sees the database untyped; it applies to
 * the repository's builders and to a module's typed query of any table alike.
 */
// biome-ignore lint/suspicious/noExplicitAny: a condition names its columns at run time and fits a builder of any table
export type Condition = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>;

export const PAGING_KEYS = new Set(['current', 'size', 'ascs', 'descs']);

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

/** The whitelisted camelCase column a parameter names (camelCase or snake_case), if any. */
export function columnOf(resource: Resource, name: string): string | undefined {
  const field = camel(name);
  return resource.kinds[field] ? field : undefined;
}

function scalar(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  const text = String(first).trim();
  return text === '' ? undefined : text;
}

function numberValue(key: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw paramType(key);
  return n;
}

function dateValue(key: string, text: string, endOfDay = false): string {
  const date = parseDateTime(text);
  if (!date) throw paramType(key);
  if (endOfDay && !text.includes(' ')) date.setHours(23, 59, 59);
  return formatDateTime(date);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

function like(dialect: DialectName, column: string, pattern: string, negate: boolean): Condition {
  const op = sql.raw(`${negate ? 'not ' : ''}${dialect === 'postgres' ? 'ilike' : 'like'}`);
  return () => sql<SqlBool>`${sql.ref(column)} ${op} ${pattern} escape '\\'`;
}

function condition(dialect: DialectName, key: string, column: string, kind: FieldKind, suffix: FilterSuffix, text: string): Condition | undefined {
  const value = kind === 'number' ? numberValue(key, text) : text;
  const compare = (op: '=' | '<>' | '>=' | '<=' | '>' | '<', v: unknown): Condition => (eb) => eb(column, op, v);
  switch (suffix) {
    case '':
    case '_like':
      return kind === 'text' ? like(dialect, column, `%${escapeLike(text)}%`, false) : compare('=', value);
    case '_notlike':
      return kind === 'text' ? like(dialect, column, `%${escapeLike(text)}%`, true) : compare('<>', value);
    case '_likeleft':
      return like(dialect, column, `%${escapeLike(text)}`, false);
    case '_likeright':
      return like(dialect, column, `${escapeLike(text)}%`, false);
    case '_equal':
      return compare('=', value);
    case '_notequal':
      return compare('<>', value);
    case '_ge':
      return compare('>=', value);
    case '_le':
      return compare('<=', value);
    case '_gt':
      return compare('>', value);
    case '_lt':
      return compare('<', value);
    case '_datege':
      return compare('>=', dateValue(key, text));
    case '_dategt':
      return compare('>', dateValue(key, text, true));
    case '_datelt':
      return compare('<', dateValue(key, text));
    case '_datele':
      return compare('<=', dateValue(key, text, true));
    case '_dateequal': {
      const from = dateValue(key, text.slice(0, 10));
      const to = dateValue(key, text.slice(0, 10), true);
      return (eb) => eb.and([eb(column, '>=', from), eb(column, '<=', to)]);
    }
    case '_null':
      return (eb) => eb(column, 'is', null);
    case '_notnull':
      return (eb) => eb(column, 'is not', null);
    case '_ignore':
      return undefined;
  }
}

/** Filters of a list query. Unknown keys and empty values are dropped; malformed values are a 400. */
export function filtersOf(resource: Resource, dialect: DialectName, query: Query, skip: ReadonlySet<string> = new Set()): Condition[] {
  const out: Condition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (PAGING_KEYS.has(key) || skip.has(key)) continue;
    const [name, suffix] = splitFilterKey(key);
    const column = columnOf(resource, name);
    const text = scalar(raw);
    if (!column || text === undefined || resource.hidden?.includes(column)) continue;
    const made = condition(dialect, key, column, resource.kinds[column], suffix, text);
    if (made) out.push(made);
  }
  return out;
}

export interface Sort {
  column: string;
  desc: boolean;
}

/** `ascs` / `descs`, comma-joined column names; names outside the whitelist and hidden fields are ignored. */
export function sortsOf(resource: Resource, query: Query): Sort[] {
  const pick = (key: string, desc: boolean): Sort[] =>
    (scalar(query[key]) ?? '')
      .split(',')
      .map((name) => columnOf(resource, name.trim()))
      // A hidden field sorts nothing: the order of rows saved with chosen values would give a stored one away.
      .filter((column): column is string => column !== undefined && !resource.hidden?.includes(column))
      .map((column) => ({ column, desc }));
  const sorts = [...pick('ascs', false), ...pick('descs', true)];
  if (sorts.length) return sorts;
  // Without a declared order, the repository's last order (the newest first, which also breaks ties) is the only one.
  return (resource.orderBy ?? []).map((s) => ({ column: s.field, desc: !!s.desc }));
}

export const MAX_PAGE_SIZE = 1000;

export function pagingOf(query: Query): { current: number; size: number } {
  const read = (key: string, fallback: number) => {
    const text = scalar(query[key]);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n)) throw paramType(key);
    return n;
  };
  const current = Math.max(1, read('current', 1));
  const size = read('size', 10);
  return { current, size: size <= 0 ? 10 : Math.min(size, MAX_PAGE_SIZE) };
}
