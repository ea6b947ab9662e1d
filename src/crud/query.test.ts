import { describe, expect, it } from 'vitest';
import type { Row } from './api';
import { filtersBeyond, initialListState, listParams, listPartOf, listQuery, listStateFromQuery, nextListState, nextSort, treeLines } from './query';

describe('list query', () => {
  it('starts on page 1 with 10 rows', () => {
    expect(listParams(initialListState())).toEqual({ current: 1, size: 10 });
  });

  it('drops empty values, joins lists, adds the date range and the sort', () => {
    const state = { ...initialListState(30), search: { a: '', b: '  x ', c: [], d: ['1', '2'], e: null, f: 0 }, range: ['2026-01-01', ''] as [string, string], sort: { field: 'paramKey', desc: true } };
    expect(listParams(state, { parentId: '7' })).toEqual({ parentId: '7', current: 1, size: 30, b: 'x', d: '1,2', f: '0', createTime_dategt: '2026-01-01', descs: 'paramKey' });
    expect(listParams({ ...state, range: ['', '2026-02-01'], sort: { field: 'sort', desc: false } })).toMatchObject({ createTime_datelt: '2026-02-01', ascs: 'sort' });
  });

  it('goes back to page 1 on search, date and size changes, not on sort', () => {
    const on3 = nextListState(initialListState(), { type: 'page', current: 3 });
    expect(on3.current).toBe(3);
    expect(nextListState(on3, { type: 'search', search: { a: 'b' } }).current).toBe(1);
    expect(nextListState(on3, { type: 'range', range: ['2026-01-01', ''] }).current).toBe(1);
    expect(nextListState(on3, { type: 'size', size: 50 })).toMatchObject({ current: 1, size: 50 });
    expect(nextListState(on3, { type: 'sort', sort: { field: 'a', desc: false } }).current).toBe(3);
    expect(nextListState(on3, { type: 'page', current: 0 }).current).toBe(1);
  });

  it('cycles a column sort: ascending, descending, none', () => {
    const asc = nextSort(undefined, 'a');
    expect(asc).toEqual({ field: 'a', desc: false });
    const desc = nextSort(asc, 'a');
    expect(desc).toEqual({ field: 'a', desc: true });
    expect(nextSort(desc, 'a')).toBeUndefined();
    expect(nextSort(desc, 'b')).toEqual({ field: 'b', desc: false });
  });
});

describe('tree lines', () => {
  const row = (id: string, extra: Record<string, unknown> = {}): Row => ({ id, ...extra });

  it('shows loaded children of open rows, indented, and hides closed ones', () => {
    const rows = [row('1'), row('2', { hasChildren: false })];
    const loaded = new Map([['1', [row('11'), row('12')]], ['11', []]]);
    expect(treeLines(rows, new Set(), loaded).map((l) => [l.row.id, l.depth, l.expandable])).toEqual([['1', 0, true], ['2', 0, false]]);
    const open = treeLines(rows, new Set(['1', '11']), loaded);
    expect(open.map((l) => [l.row.id, l.depth, l.expandable, l.expanded])).toEqual([
      ['1', 0, true, true],
      ['11', 1, false, false],
      ['12', 1, true, false],
      ['2', 0, false, false],
    ]);
  });

  it('uses children a row carries (menu and dept trees)', () => {
    const rows = [row('1', { children: [row('11', { hasChildren: false })] })];
    expect(treeLines(rows, new Set(['1']), new Map()).map((l) => l.row.id)).toEqual(['1', '11']);
  });
});

describe('lists from a link', () => {
  it("reads filters, the date range and the sort from a query, leaving the shell's keys and paging", () => {
    const query = { online: '0', lastSeen_null: '1', createTime_dategt: '2026-01-01', descs: 'lastSeen,name', name: '离线', current: '3', src: '' };
    expect(listStateFromQuery(query, true, 30)).toEqual({
      current: 1,
      size: 30,
      search: { online: '0', lastSeen_null: '1' },
      range: ['2026-01-01', ''],
      sort: { field: 'lastSeen', desc: true },
    });
    // Without a date range in the search bar the date keys stay filters.
    expect(listStateFromQuery({ createTime_datelt: '2026-02-01' }, false).search).toEqual({ createTime_datelt: '2026-02-01' });
  });

  it('writes a view back as the query it was read from, in a fixed order and without empty values', () => {
    const query = { online: '0', ascs: 'code', projectId: '7', createTime_dategt: '2026-01-01' };
    const state = listStateFromQuery(query, true);
    expect(listQuery(state)).toEqual(listPartOf(query));
    expect(Object.keys(listQuery(state))).toEqual(['ascs', 'createTime_dategt', 'online', 'projectId']);
    expect(listQuery({ ...state, current: 4, search: { online: '', projectId: ['1', '2'] } })).toEqual({ ascs: 'code', createTime_dategt: '2026-01-01', projectId: '1,2' });
  });

  it('names the filters the search bar does not show, with their column and suffix', () => {
    const beyond = filtersBeyond({ online: '0', lastSeen_null: '1', id: 'a1', projectId: '' }, new Set(['online']));
    expect(beyond).toEqual([
      { key: 'lastSeen_null', name: 'lastSeen', suffix: '_null', value: '1' },
      { key: 'id', name: 'id', suffix: '', value: 'a1' },
    ]);
  });
});
