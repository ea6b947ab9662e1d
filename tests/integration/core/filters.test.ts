import { beforeAll, expect, it } from 'vitest';
import { formatDateTime } from '../../../server/time';
import type { Envelope } from '../../support/client';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { X } from '../monitoring/support';

/**
 * Every operator of CONTRACT.md "Query conditions" on a text, a number and a date column (params' key, status and
 * create time), and the paging bounds: each list answers exactly the rows its parameters name.
 */

const PARAMS = '/api/blade-system/param';
const NAME = '筛选测试';
/** Key, status, remark of the rows every query below is narrowed to (by their name). */
const ROWS: Array<[string, number, string | null]> = [
  ['flt.alpha', 1, null],
  ['flt.alphabet', 11, null],
  ['flt.beta', 1, null],
  ['x.flt.gamma', 3, '备注'],
];

onEveryStore('list filters', { signIn: ['demo'] }, (ctx) => {
  let day: string;

  beforeAll(async () => {
    for (const [paramKey, status, remark] of ROWS) expectOk(await ctx.demo.post(`${PARAMS}/submit`, { paramName: NAME, paramKey, paramValue: 'v', status, remark }));
    const [row] = expectOk(await ctx.demo.get<PageData>(`${PARAMS}/list`, { paramName_equal: NAME, size: 1 })).records;
    day = String(row.createTime).slice(0, 10);
  });

  /** The keys of the rows a filter leaves, sorted. */
  const keys = async (filter: Record<string, string | number>) => {
    const page = expectOk(await ctx.demo.get<PageData>(`${PARAMS}/list`, { paramName_equal: NAME, ...filter, size: 50 }));
    return page.records.map((r: Row) => String(r.paramKey)).sort();
  };
  const all = ROWS.map(([key]) => key).sort();

  it('filters a text column: contains (any case), not, starts, ends, equals', async () => {
    expect(await keys({ paramKey: 'ALPHA' })).toEqual(['flt.alpha', 'flt.alphabet']);
    expect(await keys({ paramKey_like: 'pha' })).toEqual(['flt.alpha', 'flt.alphabet']);
    expect(await keys({ paramKey_notlike: 'alpha' })).toEqual(['flt.beta', 'x.flt.gamma']);
    expect(await keys({ paramKey_likeright: 'flt.' })).toEqual(['flt.alpha', 'flt.alphabet', 'flt.beta']);
    expect(await keys({ paramKey_likeleft: 'a' })).toEqual(['flt.alpha', 'flt.beta', 'x.flt.gamma']);
    expect(await keys({ paramKey_equal: 'flt.alpha' })).toEqual(['flt.alpha']);
    expect(await keys({ paramKey_notequal: 'flt.alpha' })).toEqual(['flt.alphabet', 'flt.beta', 'x.flt.gamma']);
    expect(await keys({ paramKey_ignore: 'flt.alpha' })).toEqual(all);
  });

  it('takes a snake_case name as its field, and a value without the spaces around it', async () => {
    expect(await keys({ param_key_equal: 'flt.alpha' })).toEqual(['flt.alpha']);
    expect(await keys({ paramKey_equal: '  flt.beta  ' })).toEqual(['flt.beta']);
  });

  it('reads "not like" on a number column as "not equal", not as digits left out', async () => {
    expect(await keys({ status_notlike: 1 })).toEqual(['flt.alphabet', 'x.flt.gamma']);
  });

  /** The keys in the order the list answers them. */
  const ordered = async (query: Record<string, string>) =>
    expectOk(await ctx.demo.get<PageData>(`${PARAMS}/list`, { paramName_equal: NAME, ...query, size: 50 })).records.map((r: Row) => String(r.paramKey));

  it('sorts by ascs then descs, column lists with spaces and snake_case names; newest first unless told', async () => {
    expect(await ordered({ ascs: 'paramKey' })).toEqual(all);
    expect(await ordered({ descs: 'paramKey' })).toEqual([...all].reverse());
    // Status 11, 3, 1, 1: ties newest first.
    expect(await ordered({ descs: 'status' })).toEqual(['flt.alphabet', 'x.flt.gamma', 'flt.beta', 'flt.alpha']);
    // Status 1, 1, 3, 11: the ties by key, descending.
    expect(await ordered({ ascs: 'status', descs: 'param_key' })).toEqual(['flt.beta', 'flt.alpha', 'x.flt.gamma', 'flt.alphabet']);
    expect(await ordered({ ascs: 'status, paramKey' })).toEqual(['flt.alpha', 'flt.beta', 'x.flt.gamma', 'flt.alphabet']);
    // A param declares no order: the newest row first (ids grow with time), as made in the order of ROWS.
    expect(await ordered({})).toEqual(ROWS.map(([key]) => key).reverse());
  });

  it('lists in the order a resource declares unless told: project categories by their sort, notices newest first', async () => {
    for (const [code, sort] of [['ORDER-B', 2], ['ORDER-A', 1], ['ORDER-C', 3]] as const) {
      expectOk(await ctx.demo.post(`${X}/projectcategory/submit`, { parentId: '0', name: `排序 ${code}`, code, sort }));
    }
    const categories = expectOk(await ctx.demo.get<PageData>(`${X}/projectcategory/list`, { code_likeright: 'ORDER-', size: 10 })).records.map((r: Row) => r.code);
    expect(categories).toEqual(['ORDER-A', 'ORDER-B', 'ORDER-C']);
    for (const day of ['02', '03', '01']) {
      expectOk(await ctx.demo.post('/api/blade-desk/notice/submit', { title: `排序通知 ${day}`, category: 1, releaseTime: `2026-01-${day} 08:00:00`, content: '<p>排序</p>' }));
    }
    const notices = expectOk(await ctx.demo.get<PageData>('/api/blade-desk/notice/list', { title: '排序通知', size: 10 })).records.map((r: Row) => r.title);
    expect(notices).toEqual(['排序通知 03', '排序通知 02', '排序通知 01']);
  });

  it('takes the first of a repeated parameter', async () => {
    const query = `paramName_equal=${encodeURIComponent(NAME)}&paramKey_equal=flt.beta&paramKey_equal=flt.alpha&size=50`;
    const page = expectOk(await ctx.demo.request<Envelope<PageData>>('GET', `${PARAMS}/list?${query}`));
    expect(page.records.map((r: Row) => r.paramKey)).toEqual(['flt.beta']);
  });

  it('filters a number column by value, not by its digits, and drops an empty value', async () => {
    expect(await keys({ status: 1 })).toEqual(['flt.alpha', 'flt.beta']);
    expect(await keys({ status_notequal: 1 })).toEqual(['flt.alphabet', 'x.flt.gamma']);
    expect(await keys({ status_ge: 3 })).toEqual(['flt.alphabet', 'x.flt.gamma']);
    expect(await keys({ status_gt: 3 })).toEqual(['flt.alphabet']);
    expect(await keys({ status_le: 3 })).toEqual(['flt.alpha', 'flt.beta', 'x.flt.gamma']);
    expect(await keys({ status_lt: 3 })).toEqual(['flt.alpha', 'flt.beta']);
    expect(await keys({ status_equal: '' })).toEqual(all);
    expect(await keys({ remark_null: 1 })).toEqual(['flt.alpha', 'flt.alphabet', 'flt.beta']);
    expect(await keys({ remark_notnull: 1 })).toEqual(['x.flt.gamma']);
  });

  it('filters a date column by whole days, and by the time when one is given', async () => {
    const dayAfter = (days: number) => {
      const noon = new Date(`${day}T12:00:00`);
      noon.setDate(noon.getDate() + days);
      return formatDateTime(noon).slice(0, 10);
    };
    const [tomorrow, yesterday] = [dayAfter(1), dayAfter(-1)];
    expect(await keys({ createTime_datele: day })).toEqual(all);
    expect(await keys({ createTime_datele: `${day} 00:00:00` })).toEqual([]);
    expect(await keys({ createTime_datele: yesterday })).toEqual([]);
    expect(await keys({ createTime_dategt: day })).toEqual([]);
    expect(await keys({ createTime_dategt: yesterday })).toEqual(all);
    expect(await keys({ createTime_datege: day })).toEqual(all);
    expect(await keys({ createTime_datege: tomorrow })).toEqual([]);
    expect(await keys({ createTime_datelt: day })).toEqual([]);
    expect(await keys({ createTime_datelt: tomorrow })).toEqual(all);
    expect(await keys({ createTime_dateequal: day })).toEqual(all);
    expect(await keys({ createTime_dateequal: yesterday })).toEqual([]);
    // The day of a moment: its time is not a bound.
    expect(await keys({ createTime_dateequal: `${day} 23:59:59` })).toEqual(all);
    expect(await keys({ createTime_dateequal: `${day} 00:00:00` })).toEqual(all);
  });

  it('pages from the first page, ten rows unless told, at most 1000', async () => {
    const page = (query: Record<string, number>) => ctx.demo.get<PageData & { size: number; current: number }>(`${PARAMS}/list`, query);
    expect(expectOk(await page({ current: 0, size: 0 }))).toMatchObject({ current: 1, size: 10 });
    expect(expectOk(await page({ size: 5000 }))).toMatchObject({ size: 1000 });
    const second = expectOk(await page({ current: 2, size: 2 }));
    expect(second.records).toHaveLength(2);
    // The page says how many pages of its size the list has, and that the total was counted.
    expect(second.total).toBeGreaterThan(4);
    expect(second).toMatchObject({ current: 2, size: 2, pages: Math.ceil(second.total / 2), searchCount: true });
  });

  it('neither filters nor sorts by a hidden field', async () => {
    const USERS = '/api/blade-user/list';
    const ids = async (query: Record<string, string>) => expectOk(await ctx.demo.get<PageData>(USERS, { ...query, size: 50 })).records.map((r: Row) => r.id);
    const plain = await ids({});
    expect(plain.length).toBeGreaterThan(1);
    expect(await ids({ password_equal: 'x' })).toEqual(plain);
    expect(await ids({ password_null: '1' })).toEqual(plain);
    expect(await ids({ ascs: 'password' })).toEqual(plain);
  });
});
