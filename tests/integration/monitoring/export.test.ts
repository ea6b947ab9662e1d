import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { seedId } from '../../../server/db/seed/ids';
import { nextId } from '../../../server/ids';
import type { ApiClient, Envelope, Params } from '../../support/client';
import { expectOk, type PageData, refused } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { grantScope } from '../settings/support';
import { DEMO, demoId, staffUser, submit, X } from './support';
import { expectEvery } from '../../support/lists';

/** An export call's answer: the workbook when it is one, the envelope of a refusal otherwise. */
interface Exported {
  status: number;
  headers: Headers;
  rows: unknown[][];
  sheet?: ExcelJS.Worksheet;
  envelope?: Envelope;
}

async function exported(api: ApiClient, path: string, query: Params): Promise<Exported> {
  const url = new URL(path, api.baseUrl);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  const response = await fetch(url, { headers: api.headers() });
  const data = Buffer.from(await response.arrayBuffer());
  if (!response.headers.get('content-type')?.includes('spreadsheetml')) {
    return { status: response.status, headers: response.headers, rows: [], envelope: JSON.parse(data.toString('utf8')) as Envelope };
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { status: response.status, headers: response.headers, rows, sheet: workbook.worksheets[0] };
}

const refusal = (result: Exported) => ({ status: result.status, body: result.envelope as Envelope });

const COLUMNS = 'code:设备编号,name:设备名称,projectName:所属项目,online:在线状态,lastSeen:最后上报';
const LABELS = JSON.stringify({ online: { '1': '在线', '0': '离线' } });

onEveryStore('list export', { signIn: ['demo', 'admin'], config: { exports: { maxRows: 40, pageSize: 3 } } }, (ctx) => {
  const devices = (api: ApiClient, query: Params) => exported(api, `${X}/device/export`, { columns: COLUMNS, labels: LABELS, exportName: '设备列表', ...query });

  // Pages of 3 rows: every export below is read in several queries.
  it('exports the filtered, sorted list with the titles given and the referenced names', async () => {
    const query = { code: 'QJ-', descs: 'code' };
    const result = await devices(ctx.demo, query);
    expect(result.status).toBe(200);
    const list = expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { ...query, size: 100 }));
    expect(list.total).toBeGreaterThan(2);
    expect(result.headers.get('x-export-rows')).toBe(String(list.total));
    // An ASCII name for old clients, the real one in UTF-8 (RFC 6266).
    expect(result.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="____-\\d{8}-\\d{6}\\.xlsx"; filename\\*=UTF-8''${encodeURIComponent('设备列表')}-\\d{8}-\\d{6}\\.xlsx$`));
    expect(Object.fromEntries(['content-type', 'cache-control', 'access-control-expose-headers'].map((name) => [name, result.headers.get(name)]))).toEqual({
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'cache-control': 'no-store',
      'access-control-expose-headers': 'content-disposition, x-export-rows',
    });
    const [header, ...rows] = result.rows;
    expect(header).toEqual(['设备编号', '设备名称', '所属项目', '在线状态', '最后上报']);
    // The sheet is named after the screen, its titles bold and frozen above the rows, columns as wide as their titles.
    const sheet = result.sheet as ExcelJS.Worksheet;
    expect(sheet.name).toBe('设备列表');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).font).toMatchObject({ bold: true });
    expect(sheet.columns.map((column) => column.width)).toEqual([12, 12, 12, 12, 12]);
    const label = (online: unknown) => (online === 1 ? '在线' : online === 0 ? '离线' : undefined);
    // Empty cells come back as holes: compare value by value.
    const expected = list.records.map((r) => [r.code, r.name, r.projectName ?? undefined, label(r.online), r.lastSeen ?? undefined]);
    expect(rows.map((row) => [0, 1, 2, 3, 4].map((i) => row[i] ?? undefined))).toEqual(expected);
    expectEvery(rows, (row) => row[2] === '钱塘江大桥健康监测');
  });

  it("gives only the caller's tenant's rows; the platform administrator sees every tenant's", async () => {
    const db = ctx.server.app.platform.db;
    const now = '2026-03-01 08:00:00';
    await db
      .insertInto('wit_device')
      .values({ id: nextId(), tenantId: '000000', code: 'QJ-OTHER-TENANT', name: '别的租户的设备', createTime: now, updateTime: now, status: 1, isDeleted: 0 })
      .execute();
    const codes = (result: Exported) => result.rows.slice(1).map((row) => row[0]);
    const demo = await devices(ctx.demo, { code: 'QJ-' });
    expect(codes(demo)).not.toContain('QJ-OTHER-TENANT');
    expect(codes(await devices(ctx.admin, { code: 'QJ-' }))).toContain('QJ-OTHER-TENANT');
  });

  it("keeps to the caller's data scope", async () => {
    const staff = await staffUser(ctx.server, DEMO, 'exporter');
    // A staff member sees devices of projects only (server/db/project-scope.ts).
    const projectId = demoId('project:bridge');
    const own = await submit(staff.client, 'device', { code: 'EXP-OWN-01', name: '自己的设备', projectId });
    await submit(ctx.demo, 'device', { code: 'EXP-ADMIN-01', name: '管理员的设备', projectId });
    const scope = expectOk(
      await ctx.admin.post<{ id: string }>('/api/blade-system/data-scope/submit', { menuId: seedId('menu:device_list'), resourceCode: 'wit-xinde/device', scopeName: '本人可见', scopeType: 2 }),
    );
    await grantScope(ctx.server, staff.roleId, scope.id, 1);
    const result = await devices(staff.client, { code: 'EXP-' });
    expect(result.rows.slice(1).map((row) => row[0])).toEqual([own.code]);
    expect((await devices(ctx.demo, { code: 'EXP-' })).rows).toHaveLength(3);
  });

  it('refuses columns the list does not show, and callers without the menu', async () => {
    refused(refusal(await devices(ctx.demo, { columns: 'code:编号,nope:未知' })), 400, '导出字段 nope 不存在');
    refused(refusal(await devices(ctx.demo, { columns: '' })), 400, '请选择要导出的列');
    refused(refusal(await devices(ctx.demo, { columns: 'code;drop table:x' })), 400, '导出列格式错误');
    refused(refusal(await exported(ctx.admin, '/api/blade-user/export', { columns: 'account:账号,password:密码' })), 400, '字段 password 不能导出');
    refused(refusal(await devices(ctx.demo, { labels: '{"online":[1]}' })), 400, '导出的取值标签格式错误');

    const staff = await staffUser(ctx.server, DEMO, 'no-devices');
    const { db, events } = ctx.server.app.platform;
    await db.deleteFrom('blade_role_menu').where('roleId', '=', staff.roleId).where('menuId', '=', seedId('menu:device_list')).execute();
    events.emit('changed', 'blade_role_menu');
    expect((await devices(staff.client, {})).status).toBe(403);

    ctx.demo.language = 'en';
    try {
      refused(refusal(await devices(ctx.demo, { columns: 'nope' })), 400, 'Unknown export column nope');
    } finally {
      ctx.demo.language = undefined;
    }
  });

  it('exports the stored values (监测数据) through the same mechanism', async () => {
    const deviceId = demoId('device:QJ-RAIN-01');
    const start = Date.parse('2026-02-01T00:00:00Z');
    const values = Array.from({ length: 8 }, (_, i) => ({ deviceId, pointKey: 'rainfall', ts: start + i * 60_000, value: i / 2, raw: i }));
    await ctx.server.app.platform.db.insertInto('wit_device_log').values(values).execute();
    const query = { deviceId, pointKey: 'rainfall', columns: 'deviceCode:设备编号,pointKey:点位,time:采集时间,value:数值', exportName: "监测数据 (雨量's)" };
    const result = await exported(ctx.demo, `${X}/devicelog/export`, query);
    // Characters RFC 5987 leaves bare are encoded as well, as some browsers need.
    const encoded = '%E7%9B%91%E6%B5%8B%E6%95%B0%E6%8D%AE%20%28%E9%9B%A8%E9%87%8F%27s%29';
    expect(result.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="____ \\(__'s\\)-\\d{8}-\\d{6}\\.xlsx"; filename\\*=UTF-8''${encoded}-\\d{8}-\\d{6}\\.xlsx$`));
    expect(result.sheet?.columns.map((column) => column.width)).toEqual([12, 10, 12, 10]);
    const list = expectOk(await ctx.demo.get<PageData>(`${X}/devicelog/list`, { deviceId, pointKey: 'rainfall', size: 100 }));
    expect(result.rows).toEqual([['设备编号', '点位', '采集时间', '数值'], ...list.records.map((r) => [r.deviceCode, r.pointKey, r.time, r.value])]);
    expect(result.rows).toHaveLength(9);
    refused(refusal(await exported(ctx.demo, `${X}/devicelog/export`, { ...query, columns: 'secret' })), 400, '导出字段 secret 不存在');
  });

  it('refuses a list beyond the export limit, before sending anything', async () => {
    for (let i = 0; i < 41; i += 1) await submit(ctx.demo, 'device', { code: `CAP-${String(i).padStart(2, '0')}`, name: `上限 ${i}` });
    expect((await devices(ctx.demo, { code: 'CAP-3' })).rows).toHaveLength(11);
    // The number is the filtered list's, not the table's.
    refused(refusal(await devices(ctx.demo, { code: 'CAP-' })), 400, '共 41 条数据,超过导出上限 40 条');
  });

  it('names the file and sizes the columns from what the caller gives, and needs columns', async () => {
    const named = await devices(ctx.demo, { code: 'QJ-HLS', exportName: 'a~b 设备', columns: 'code:Identifier,name:ÿÿÿÿÿÿÿÿÿÿ' });
    // Printable ASCII (the tilde its last character) kept in the fallback name, anything else an underscore.
    expect(named.headers.get('content-disposition')).toMatch(/^attachment; filename="a~b __-\d{8}-\d{6}\.xlsx"; /);
    // A title's width in characters, two for each beyond Latin-1 (ÿ, U+00FF, is the last of one), and 4 more.
    expect(named.sheet?.columns.map((column) => column.width)).toEqual([14, 14]);
    // A name of spaces is no name: the file is named after the list.
    const unnamed = await devices(ctx.demo, { code: 'QJ-HLS', exportName: '   ' });
    expect(unnamed.headers.get('content-disposition')).toMatch(/^attachment; filename="device-\d{8}-\d{6}\.xlsx"; /);
    refused(refusal(await exported(ctx.demo, `${X}/device/export`, { code: 'QJ-HLS' })), 400, '请选择要导出的列');
  });

  it('exports an empty list as its titles alone, and a list that fills its pages exactly', async () => {
    const none = await devices(ctx.demo, { code: 'NO-SUCH-DEVICE' });
    expect([none.status, none.headers.get('x-export-rows'), none.rows]).toEqual([200, '0', [['设备编号', '设备名称', '所属项目', '在线状态', '最后上报']]]);
    // Pages of 3: six rows take two full pages and no read of an empty third.
    for (let i = 0; i < 6; i += 1) await submit(ctx.demo, 'device', { code: `PAGE-${i}`, name: `整页 ${i}` });
    const six = await devices(ctx.demo, { code: 'PAGE-', ascs: 'code' });
    expect(six.rows.slice(1).map((row) => row[0])).toEqual(['PAGE-0', 'PAGE-1', 'PAGE-2', 'PAGE-3', 'PAGE-4', 'PAGE-5']);
  });
});
