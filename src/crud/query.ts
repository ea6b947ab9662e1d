import { type FilterSuffix, splitFilterKey } from '../../resources/filters';
import { SHELL_QUERY_KEYS } from '../app/guard';
import type { Params, Row } from './api';

/** Page sizes offered and the default (spec §9 "Paging"). */
export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const FIRST_PAGE = 1;

/** Date-range search keys (spec §9). */
export const DATE_FROM_KEY = 'createTime_dategt';
export const DATE_TO_KEY = 'createTime_datelt';

export interface Sort {
  field: string;
  desc: boolean;
}

export interface ListState {
  current: number;
  size: number;
  search: Record<string, unknown>;
  /** yyyy-MM-dd bounds of the createTime range. */
  range: [string, string];
  sort?: Sort;
}

export const initialListState = (size = DEFAULT_PAGE_SIZE): ListState => ({ current: FIRST_PAGE, size, search: {}, range: ['', ''] });

/** Empty means absent: undefined, null, blank text and empty lists are dropped from filters (spec §5 "Search"). */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The parameters of one list call: paging, non-empty filters, the date range and the sort. */
export function listParams(state: ListState, fixed: Params = {}): Params {
  const params: Params = { ...fixed, current: state.current, size: state.size };
  for (const [key, value] of Object.entries(state.search)) {
    if (isEmpty(value)) continue;
    params[key] = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value.trim() : String(value);
  }
  const [from, to] = state.range;
  if (from) params[DATE_FROM_KEY] = from;
  if (to) params[DATE_TO_KEY] = to;
  if (state.sort) params[state.sort.desc ? 'descs' : 'ascs'] = state.sort.field;
  return params;
}

/** State transitions of a list (spec §4 "Lists": search and date changes go back to page 1). */
export type ListEvent =
  | { type: 'search'; search: Record<string, unknown> }
  | { type: 'range'; range: [string, string] }
  | { type: 'page'; current: number }
  | { type: 'size'; size: number }
  | { type: 'sort'; sort?: Sort }
  /** A new view from outside (a link to the list with other filters): replaces the whole state. */
  | { type: 'reset'; state: ListState };

export function nextListState(state: ListState, event: ListEvent): ListState {
  switch (event.type) {
    case 'search':
      return { ...state, search: event.search, current: FIRST_PAGE };
    case 'range':
      return { ...state, range: event.range, current: FIRST_PAGE };
    case 'page':
      return { ...state, current: Math.max(FIRST_PAGE, event.current) };
    case 'size':
      return { ...state, size: event.size, current: FIRST_PAGE };
    case 'sort':
      return { ...state, sort: event.sort };
    case 'reset':
      return event.state;
  }
}

const byKey = (entries: Array<[string, string]>) => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * A list's view as a URL query: its filters, date range and sort, not its page (docs/console-screens.md "Lists
 * from a link"). Keys in a fixed order, so two equal views give the same query.
 */
export function listQuery(state: ListState): Record<string, string> {
  const { current: _current, size: _size, ...rest } = listParams(state);
  return byKey(Object.entries(rest).map(([key, value]) => [key, String(value)]));
}

/** The keys of a URL query that are a list's view (everything but the shell's own and paging), in listQuery's order. */
export function listPartOf(query: Readonly<Record<string, string>>): Record<string, string> {
  return byKey(Object.entries(query).filter(([key, value]) => !SHELL_QUERY_KEYS.includes(key) && key !== 'current' && key !== 'size' && !isEmpty(value)));
}

/**
 * A list's view from a URL query (`/xinde/device?online=0`, `/xinde/alarm?alarmLevel=1&alarmState=1`): `ascs` /
 * `descs` sort (by their first column), the date-range keys fill the date range where the list has one, and every
 * other key is a filter, sent as it is — the server knows the contract's suffixes (`lastSeen_null=1`) and ignores
 * keys that name no column of the list.
 */
export function listStateFromQuery(query: Readonly<Record<string, string>>, dateRange: boolean, size?: number): ListState {
  const state = initialListState(size);
  const range: [string, string] = ['', ''];
  const search: Record<string, unknown> = {};
  let sort: Sort | undefined;
  for (const [key, value] of Object.entries(listPartOf(query))) {
    if (key === 'ascs' || key === 'descs') sort = { field: value.split(',')[0], desc: key === 'descs' };
    else if (dateRange && key === DATE_FROM_KEY) range[0] = value;
    else if (dateRange && key === DATE_TO_KEY) range[1] = value;
    else search[key] = value;
  }
  return { ...state, search, range, ...(sort ? { sort } : {}) };
}

/** A filter the list applies that its search bar does not show (a link's `lastSeen_null=1`): named for a tag. */
export interface ShownFilter {
  key: string;
  /** The column it compares. */
  name: string;
  suffix: FilterSuffix;
  value: string;
}

/** The list's filters that no search field shows, so the page can name them and let them be removed. */
export function filtersBeyond(search: Readonly<Record<string, unknown>>, shownFields: ReadonlySet<string>): ShownFilter[] {
  return Object.entries(search)
    .filter(([key, value]) => !shownFields.has(key) && !isEmpty(value))
    .map(([key, value]) => {
      const [name, suffix] = splitFilterKey(key);
      return { key, name, suffix, value: Array.isArray(value) ? value.join(',') : String(value) };
    });
}

/** Sort cycle of a column header: ascending, descending, none. */
export function nextSort(current: Sort | undefined, field: string): Sort | undefined {
  if (current?.field !== field) return { field, desc: false };
  return current.desc ? undefined : { field, desc: true };
}

/** A row of a tree table as displayed. */
export interface TreeLine {
  row: Row;
  depth: number;
  expandable: boolean;
  expanded: boolean;
}

/**
 * The visible lines of a tree table. Children come from the row itself (`children`) or from lazily loaded lists;
 * a row can expand unless it says hasChildren false or its loaded children are empty.
 */
export function treeLines(rows: readonly Row[], expanded: ReadonlySet<string>, loaded: ReadonlyMap<string, readonly Row[]>, depth = 0): TreeLine[] {
  const out: TreeLine[] = [];
  for (const row of rows) {
    const children = loaded.get(row.id) ?? (Array.isArray(row.children) ? (row.children as Row[]) : undefined);
    const expandable = children ? children.length > 0 : row.hasChildren !== false;
    const open = expandable && expanded.has(row.id);
    out.push({ row, depth, expandable, expanded: open });
    if (open && children) out.push(...treeLines(children, expanded, loaded, depth + 1));
  }
  return out;
}
