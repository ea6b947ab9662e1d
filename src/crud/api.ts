import type { Resource } from '../../resources/define';
import { type Envelope, http } from '../api/client';

/** A node of a tree select as the server sends it (BladeX TreeNode: title shown, id kept). */
export interface TreeOption {
  id: string;
  title: string;
  children?: TreeOption[];
  /** A heading of its children that is not itself a choice (a project above its devices' channels). */
  group?: boolean;
}

/** A row as the server sends it: ids are strings, the rest depends on the resource. */
export type Row = Record<string, unknown> & { id: string };

/** The paged list envelope's data (spec §3). */
export interface Page<T = Row> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
  /** The call answered a plain array (a lazy tree level): one page holds every row. */
  unpaged?: boolean;
}

export type Params = Record<string, string | number | undefined>;

/** A list answer as a page; lazy-list calls answer the rows of one tree level as a plain array. */
const pageOf = (data: Page | Row[]): Page =>
  Array.isArray(data) ? { records: data, total: data.length, size: data.length, current: 1, pages: 1, unpaged: true } : data;

/** The GET path prefix of a declared resource's calls: `api/service/name`, or its declared path. */
export const resourceBase = (resource: Resource) => `api${resource.path ?? `/${resource.service}/${resource.name}`}`;

/** The generic calls of a declared resource (spec §7 "Generic resource pattern"), at its declared path. */
export function crudCalls(resource: Resource) {
  const base = resourceBase(resource);
  return {
    base,
    list: (params: Params, call = 'list') => http.get<Envelope<Page | Row[]>>(`${base}/${call}`, { searchParams: params }).then((r) => pageOf(r.data)),
    /** `key` names the column the detail call looks the row up by (regions: code). */
    detail: (id: string, key = 'id') => http.get<Envelope<Row | null>>(`${base}/detail`, { searchParams: { [key]: id } }).then((r) => r.data),
    /** `ownRefusals`: a 400 is not toasted, the form shows it at its fields. */
    submit: (row: Record<string, unknown>, ownRefusals = false) => http.post<Envelope<Row>>(`${base}/submit`, { json: row, ownRefusals }).then((r) => r.data),
    remove: (ids: readonly string[]) => http.post<Envelope<unknown>>(`${base}/remove`, { searchParams: { ids: ids.join(',') } }),
  };
}

export type CrudCalls = ReturnType<typeof crudCalls>;

/** A dictionary entry as GET dict/dictionary answers it. */
export interface DictEntry {
  dictKey: string;
  dictValue: string;
}

const dictionaries = new Map<string, Promise<DictEntry[]>>();

/** The entries of a dictionary code, fetched once per page load (a failure is retried next time). */
export function dictionary(code: string, service: 'dict' | 'dict-biz' = 'dict'): Promise<DictEntry[]> {
  const key = `${service}:${code}`;
  let entries = dictionaries.get(key);
  if (!entries) {
    entries = http
      .get<Envelope<DictEntry[]>>(`api/blade-system/${service}/dictionary`, { searchParams: { code } })
      .then((r) => (r.data ?? []).map((e) => ({ dictKey: String(e.dictKey), dictValue: String(e.dictValue) })));
    entries.catch(() => dictionaries.delete(key));
    dictionaries.set(key, entries);
  }
  return entries;
}

/** A tree answered by a GET path (menu/tree, tenant-package/menu-tree, dept/tree…). */
export function treeOf(path: string): Promise<TreeOption[]> {
  const normalise = (nodes: Array<Record<string, unknown>>): TreeOption[] =>
    nodes.map((n) => ({
      id: String(n.id ?? n.value ?? n.key),
      title: String(n.title ?? n.name ?? n.label ?? ''),
      children: Array.isArray(n.children) && n.children.length ? normalise(n.children as Array<Record<string, unknown>>) : undefined,
    }));
  return http.get<Envelope<Array<Record<string, unknown>>>>(path.replace(/^\//, '')).then((r) => normalise(r.data ?? []));
}
