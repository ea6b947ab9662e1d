import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { seedId } from '../../../server/db/seed/ids';
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
  const deptOf = new Map<string, string>();
  let lead: ApiClient;
  let author: ApiClient;

  const scope = async (scopeType: number, name: string, rule: { scopeColumn?: string; scopeValue?: string; resourceCode?: string } = {}) =>
    expectOk(await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: '1', resourceCode: 'blade-system/param', scopeName: name, scopeType, ...rule })).id;

  beforeAll(async () => {
    const db = ctx.server.app.platform.db;
    const base = { createTime: STAMP, updateTime: STAMP, status: 1, isDeleted: 0 };
    const leader = await createStaff(ctx.server, DEMO, 'scope_lead', { ownDept: true });
    const writer = await createStaff(ctx.server, DEMO, 'scope_author');
    const dept = String((await db.selectFrom('blade_user').select('deptId').where('id', '=', leader.userId).executeTakeFirstOrThrow()).deptId);
    // The author works in the lead's dept too: its rows are in the dept, and scope 2 shows it only its own.
    await db.updateTable('blade_user').set({ deptId: dept }).where('id', '=', writer.userId).execute();
    const [child, grandchild, sibling, lookalike, below] = [nextId(), nextId(), nextId(), `${dept}9`, nextId()];
    for (const [name, id] of Object.entries({ dept, child, sibling })) deptOf.set(name, id);
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

  /** A staff user of the demo tenant in one of the depts above, granted these data scopes; signed in afresh. */
  const staffWith = async (account: string, dept: string, scopeIds: string[], extraRoles: string[] = []) => {
    const staff = await createStaff(ctx.server, DEMO, account);
    const db = ctx.server.app.platform.db;
    await db.updateTable('blade_user').set({ deptId: deptOf.get(dept), roleId: [...extraRoles, staff.roleId].join(',') }).where('id', '=', staff.userId).execute();
    for (const id of scopeIds) await grantScope(ctx.server, staff.roleId, id, 1);
    return { ...staff, client: await signedIn(ctx.server.url, account, 'Staff@123', DEMO) };
  };

  it('shows scope 3 its own dept alone, not the depts below it', async () => {
    const { client } = await staffWith('scope_dept', 'dept', [await scope(3, '本部门可见')]);
    const expected = ['scope.author', 'scope.lead'];
    expect(await seen(client)).toEqual({ listed: expected, opened: expected, exported: expected });
  });

  it('shows scope 5 the depts its rule lists, and nothing when its list names none', async () => {
    const listed = await staffWith('scope_custom', 'sibling', [await scope(5, '自定义可见', { scopeValue: `${deptOf.get('child')}, ${deptOf.get('sibling')}` })]);
    const expected = ['scope.child', 'scope.sibling'];
    expect(await seen(listed.client)).toEqual({ listed: expected, opened: expected, exported: expected });
    // A rule of separators only (the form requires a value) names no dept: nothing, not everything.
    const empty = await staffWith('scope_none', 'sibling', [await scope(5, '未配置部门', { scopeValue: ' , ' })]);
    expect(await seen(empty.client)).toEqual({ listed: [], opened: [], exported: [] });
  });

  it('filters by the column a rule names, in snake case, and by the author or dept when the resource lacks it', async () => {
    const updater = await staffWith('scope_updater', 'sibling', [await scope(2, '本人修改可见', { scopeColumn: 'update_user' })]);
    await ctx.server.app.platform.db.updateTable('blade_param').set({ updateUser: updater.userId }).where('id', '=', String(ids.get('scope.child'))).execute();
    expect((await seen(updater.client)).listed).toEqual(['scope.child']);
    // A column params do not have: the rule falls back to the author, as scope 2 without a column does.
    const fallback = await staffWith('scope_nocol', 'sibling', [await scope(2, '无此列', { scopeColumn: 'inspector_id' })]);
    expect(await seen(fallback.client)).toEqual({ listed: [], opened: [], exported: [] });
    expectOk(await fallback.client.post(`${PARAM}/submit`, { paramName: 'scope.nocol', paramKey: 'scope.nocol', paramValue: 'v' }));
    expect((await seen(fallback.client)).listed).toEqual(['scope.nocol']);
  });

  it('applies a scope to a list that joins a table of the same columns: the follow-up’s instances with their definitions', async () => {
    const follower = await staffWith('scope_follow', 'sibling', [await scope(2, '本人流程', { resourceCode: 'wf_instance' })]);
    const db = ctx.server.app.platform.db;
    const definition = await db.selectFrom('wf_definition').select(['id', 'processKey']).where('tenantId', '=', DEMO).executeTakeFirstOrThrow();
    const instance = (title: string, createUser: string) => ({
      id: nextId(), tenantId: DEMO, definitionId: definition.id, processKey: definition.processKey, title, state: 3, startTime: STAMP,
      createUser, createTime: STAMP, updateTime: STAMP, status: 1, isDeleted: 0,
    });
    const own = instance('本人发起', follower.userId);
    await db.insertInto('wf_instance').values([own, instance('他人发起', '1')]).execute();
    const listed = expectOk(await follower.client.get<PageData>('/api/blade-flow/follow/list', { size: 100 }));
    expect([listed.total, listed.records.map((r) => r.processInstanceId)]).toEqual([1, [own.id]]);
  });

  it('widens with every scope granted: own rows and all rows show all rows', async () => {
    const both = await staffWith('scope_both', 'sibling', [await scope(2, '本人可见二'), await scope(1, '全部可见')]);
    // Every scope.* row of the tenant, whichever tests above added some.
    const rows = await ctx.server.app.platform.db.selectFrom('blade_param').select('paramKey').where('tenantId', '=', DEMO).where('paramKey', 'like', 'scope.%').where('isDeleted', '=', 0).execute();
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect((await seen(both.client)).listed).toEqual(rows.map((r) => r.paramKey).sort());
  });

  it('restricts a user of two roles by the scope of the one granted it', async () => {
    const plainRole = (await createStaff(ctx.server, DEMO, 'scope_plainrole')).roleId;
    const twoRoles = await staffWith('scope_tworoles', 'child', [await scope(4, '本部门及下级可见二')], [plainRole]);
    expect((await seen(twoRoles.client)).listed).toEqual(['scope.child', 'scope.grandchild']);
  });

  it('shows the platform administrator every row, whatever scope its role is granted', async () => {
    const own = await scope(2, '平台本人可见');
    const adminRole = seedId('role:000000:administrator');
    await grantScope(ctx.server, adminRole, own, 1);
    try {
      const keys = expectOk(await ctx.admin.get<PageData>(`${PARAM}/list`, { paramKey: 'scope.foreign', size: 100 })).records.map((r) => r.paramKey);
      expect(keys).toEqual(['scope.foreign']);
    } finally {
      await ctx.server.app.platform.db.deleteFrom('blade_role_scope').where('scopeId', '=', own).execute();
      ctx.server.app.platform.events.emit('changed', 'blade_role_scope');
    }
  });
});
