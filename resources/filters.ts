/**
 * The filter suffixes of list calls (CONTRACT.md "Query conditions"): `name_suffix=value` compares the column `name`.
 * The server builds its conditions from them; the console names them where a list shows a filter it did not type
 * (a link's `lastSeen_null=1`).
 */

/** Longest first, so `_notequal` is not read as `_equal` nor `_datege` as `_ge`. */
export const FILTER_SUFFIXES = [
  '_likeright', '_notequal', '_likeleft', '_dateequal', '_notlike', '_notnull', '_datege', '_dategt', '_datelt',
  '_datele', '_ignore', '_equal', '_like', '_null', '_ge', '_le', '_gt', '_lt',
] as const;

export type FilterSuffix = (typeof FILTER_SUFFIXES)[number] | '';

/** A filter key as its column name and suffix (`lastSeen_null` → `lastSeen`, `_null`; `name` → `name`, ''). */
export function splitFilterKey(key: string): [string, FilterSuffix] {
  for (const suffix of FILTER_SUFFIXES) if (key.endsWith(suffix) && key.length > suffix.length) return [key.slice(0, -suffix.length), suffix];
  return [key, ''];
}
