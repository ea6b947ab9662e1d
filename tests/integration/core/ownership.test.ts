import { expect, it } from 'vitest';
import type { ApiClient } from '../../support/client';
import { expectOk, expectRefused, type Row } from '../../support/envelope';
import { createStaff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, X } from '../monitoring/support';

/**
 * A row's owners — its tenant, author and author's dept, a device's project — are not the caller's to change by
 * update: a tenant's administrator or staff member sending them gets the row back unchanged (or a refusal), for a
 * generic resource (param, post), a project and a device. Only the platform administrator moves rows between
 * tenants (server/db/repository.ts `update`), and a row it moves names no row of the tenant it left.
 */

const PLATFORM = '000000';
/** Ownership columns as a caller of another tenant, user and dept would like them. */
const FORGED = { tenantId: PLATFORM, createUser: '1', createDept: '1', createTime: '2000-01-01 00:00:00' };
const OWNERSHIP = ['tenantId', 'createUser', 'createDept', 'createTime'] as const;

interface Case {
  path: string;
  body: Record<string, unknown>;
  change: Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  param: { path: '/api/blade-system/param', body: { paramName: '归属参数', paramKey: 'owner.param', paramValue: 'a' }, change: { paramValue: 'b' } },
  post: { path: '/api/blade-system/post', body: { category: 3, postCode: 'owner_post', postName: '归属岗位', sort: 1 }, change: { postName: '归属岗位2' } },
  project: { path: `${X}/project`, body: { name: '归属项目', code: 'OWNER-PROJECT' }, change: { name: '归属项目2' } },
  device: { path: `${X}/device`, body: { code: 'OWNER-DEV-01', name: '归属设备', projectId: demoId('project:bridge') }, change: { name: '归属设备2' } },
};

const ownership = (row: Row) => Object.fromEntries(OWNERSHIP.map((k) => [k, row[k]]));

onEveryStore('ownership of rows under update', { signIn: ['admin', 'demo'] }, (ctx) => {
  const detail = async (path: string, id: string) => expectOk(await ctx.admin.get<Row>(`${path}/detail`, { id }));

  /** Creates the case's row as `author`, then updates it as `editor` with forged owners: only the change lands. */
  const forgeAs = async (name: string, author: ApiClient, editor: ApiClient, suffix: string) => {
    const { path, body, change } = CASES[name];
    const unique = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, /code|Key|Code/.test(k) ? `${String(v)}-${suffix}` : v]));
    const created = expectOk(await author.post<Row>(`${path}/submit`, unique));
    const before = await detail(path, created.id);
    // Enabled unless the body says otherwise.
    expect(before).toMatchObject({ tenantId: DEMO, status: 1 });
    for (const mode of ['submit', 'update']) expectOk(await editor.post(`${path}/${mode}`, { id: created.id, ...change, ...FORGED }));
    const after = await detail(path, created.id);
    expect(after, name).toMatchObject(change);
    expect(ownership(after), name).toEqual(ownership(before));
  };

  for (const name of Object.keys(CASES)) {
    it(`keeps a ${name}'s tenant, author and dept when its tenant's administrator sends others`, async () => {
      await forgeAs(name, ctx.demo, ctx.demo, 'admin');
    });
  }

  it("keeps them when a staff member edits a colleague's row, and when it edits its own", async () => {
    const staff = await createStaff(ctx.server, DEMO, 'owner_staff', { ownDept: true });
    await forgeAs('param', ctx.demo, staff.client, 'colleague');
    await forgeAs('post', staff.client, staff.client, 'own');
  });

  it("refuses moving a device to another tenant's project, and keeps its project", async () => {
    const foreign = expectOk(await ctx.admin.post<Row>(`${X}/project/submit`, { name: '平台项目', code: 'OWNER-FOREIGN' }));
    expect(foreign.tenantId).toBe(PLATFORM);
    const device = demoId('device:QJ-TH-01');
    for (const mode of ['submit', 'update']) {
      expectRefused(await ctx.demo.post(`${X}/device/${mode}`, { id: device, projectId: foreign.id }), '项目不存在或无权操作');
    }
    expect(await detail(`${X}/device`, device)).toMatchObject({ tenantId: DEMO, projectId: demoId('project:bridge') });
  });

  it('lets the platform administrator move a row to another tenant, keeping its author', async () => {
    const { path, body } = CASES.param;
    const created = expectOk(await ctx.demo.post<Row>(`${path}/submit`, { ...body, paramKey: 'owner.moved' }));
    const before = await detail(path, created.id);
    // A new row's audit columns: its author is its last editor, at the same time.
    expect([before.updateUser, before.updateTime, before.status, before.isDeleted]).toEqual([before.createUser, before.createTime, 1, 0]);
    // A tenant is named by its six digits, nothing around them.
    for (const tenantId of ['0000001', '000000x', 'x000000']) {
      expectRefused(await ctx.admin.post(`${path}/update`, { id: created.id, tenantId }), 'tenantId: 租户编号应为6位数字');
    }
    expect(ownership(await detail(path, created.id))).toEqual(ownership(before));
    expectOk(await ctx.admin.post(`${path}/update`, { id: created.id, ...FORGED }));
    const after = await detail(path, created.id);
    expect(ownership(after)).toEqual({ ...ownership(before), tenantId: PLATFORM });
  });

  it("refuses a platform administrator's move that would leave a device naming its old tenant's project", async () => {
    const device = expectOk(await ctx.demo.post<Row>(`${X}/device/submit`, { code: 'OWNER-DEV-MOVE', name: '搬家设备', projectId: demoId('project:bridge') }));
    expectRefused(await ctx.admin.post(`${X}/device/update`, { id: device.id, tenantId: PLATFORM }), '项目不存在或无权操作');
    expect(await detail(`${X}/device`, device.id)).toMatchObject({ tenantId: DEMO, projectId: demoId('project:bridge') });
    // Moved together with a project of the new tenant, it is fine.
    const platformProject = expectOk(await ctx.admin.post<Row>(`${X}/project/submit`, { name: '平台新家', code: 'OWNER-HOME' }));
    expectOk(await ctx.admin.post(`${X}/device/update`, { id: device.id, tenantId: PLATFORM, projectId: platformProject.id }));
    expect(await detail(`${X}/device`, device.id)).toMatchObject({ tenantId: PLATFORM, projectId: platformProject.id });
  });
});
