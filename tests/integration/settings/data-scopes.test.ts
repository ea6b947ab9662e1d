import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { nextId } from '../../../server/ids';
import { type ApiClient, signedIn } from '../../support/client';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import { createStaff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';
import { grantScope } from './support';

/**
 * Data scopes 2 (own rows) and 4 (own dept and its children) on a generic resource (params), by list, detail and
 * export (server/auth/scopes.ts): each caller sees exactly the rows its scope gives — by author, or by the dept tree
 * (children and grandchildren, not a sibling, not a dept whose id merely contains the caller's), and never another
 * tenant's rows that happen to name the same dept.
 */

const DEMO = '100001';
const PARAM = '/api/blade-system/param';
const STAMP = '2026-01-01 00:00:00';

/** The param keys of an export's rows (its first row is the titles). */
async function exportedKeys(api: ApiClient): Promise<string[]> {
  const url = new URL(`${PARAM}/export`, api.baseUrl);
  for (const [k, v] of Object.entries({ columns: 'paramKey:键名', exportName: '参数', paramKey: 'scope.' })) url.searchParams.set(k, v);
  const response = await fetch(url, { headers: api.headers() });
  expect(response.headers.get('content-type')).toContain('spreadsheetml');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await response.arrayBuffer()) as ArrayBuffer);
  const keys: string[] = [];
  workbook.worksheets[0].eachRow((row, n) => n > 1 && keys.push(String((row.values as unknown[])[1])));
  return keys.sort();
}

onEveryStore('data scopes by author and by dept tree', { signIn: ['admin'] }, (ctx) => {
  const ids = new Map<string, string>();
  let lead: ApiClient;
  let author: ApiClient;

  const scope = async (scopeType: number, name: string) =>
    expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: '1', resourceCode: 'blade-system/param', scopeName: name, scopeType })).id;

  beforeAll(async () => {
    const db = ctx.server.app.platform.db;
    const base = { createTime: STAMP, updateTime: STAMP, status: 1, isDeleted: 0 };
    const leader = await createStaff(ctx.server, DEMO, 'scope_lead', { ownDept: true });
    const writer = await createStaff(ctx.server, DEMO, 'scope_author');
    const dept = String((await db.selectFrom('blade_user').select('deptId').where('id', '=', leader.userId).executeTakeFirstOrThrow()).deptId);
    // The author works in the lead's dept too: its rows are in the dept, and scope 2 shows it only its own.
    await db.updateTable('blade_user').set({ deptId: dept }).where('id', '=', writer.userId).execute();
    const [child, grandchild, sibling, lookalike, below] = [nextId(), nextId(), nextId(), `${dept}9`, nextId()];
    const depts = [
      { id: child, parentId: dept, ancestors: `0,${dept}` },
      { id: grandchild, parentId: child, ancestors: `0,${dept},${child}` },
      { id: sibling, parentId: '0', ancestors: '0' },
      { id: lookalike, parentId: '0', ancestors: '0' },
      { id: below, parentId: lookalike, ancestors: `0,${lookalike}` },
    ];
    await db.insertInto('blade_dept').values(depts.map((d, i) => ({ ...base, ...d, tenantId: DEMO, deptName: `范围部门${i}`, sort: i }))).execute();
    const rows: Array<[key: string, tenantId: string, createUser: string, createDept: string]> = [
      ['scope.lead', DEMO, leader.userId, dept],
      ['scope.author', DEMO, writer.userId, dept],
      ['scope.child', DEMO, '1', child],
      ['scope.grandchild', DEMO, '1', grandchild],
      ['scope.sibling', DEMO, '1', sibling],
      ['scope.lookalike', DEMO, '1', below],
      ['scope.foreign', '000000', writer.userId, dept],
    ];
    for (const [key, tenantId, createUser, createDept] of rows) {
      const id = nextId();
      ids.set(key, id);
      await db.insertInto('blade_param').values({ ...base, id, tenantId, createUser, createDept, paramName: key, paramKey: key, paramValue: 'v' }).execute();
    }
    await grantScope(ctx.server, leader.roleId, await scope(4, '本部门及下级可见'), 1);
    await grantScope(ctx.server, writer.roleId, await scope(2, '本人可见'), 1);
    lead = leader.client;
    author = await signedIn(ctx.server.url, 'scope_author', 'Staff@123', DEMO);
  });

  /** What a caller sees of the scope.* rows by list, by detail one by one, and by export. */
  const seen = async (api: ApiClient) => {
    const listed = expectOk(await api.get<PageData>(`${PARAM}/list`, { paramKey: 'scope.', size: 100 })).records.map((r) => String(r.paramKey)).sort();
    const opened: string[] = [];
    for (const [key, id] of ids) if (expectOk(await api.get<Row | null>(`${PARAM}/detail`, { id }))) opened.push(key);
    return { listed, opened: opened.sort(), exported: await exportedKeys(api) };
  };

  it('shows scope 4 its dept and every dept below it, by list, detail and export', async () => {
    const expected = ['scope.author', 'scope.child', 'scope.grandchild', 'scope.lead'];
    expect(await seen(lead)).toEqual({ listed: expected, opened: expected, exported: expected });
  });

  it('shows scope 2 only the rows it wrote, by list, detail and export', async () => {
    const expected = ['scope.author'];
    expect(await seen(author)).toEqual({ listed: expected, opened: expected, exported: expected });
  });
});
