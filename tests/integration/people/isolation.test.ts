import { beforeAll, expect, it } from 'vitest';
import { expectOk, expectRefusedExactly, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { type Node, treeIds } from './support';
import { expectEvery } from '../../support/lists';

const USER = '/api/blade-user';
const DEPT = '/api/blade-system/dept';
const POST = '/api/blade-system/post';
const DENIED = '数据不存在或无权操作';

/** The administrator of tenant 100001 never sees nor changes tenant 000000's users, depts or posts. */
onEveryStore('people isolation', { signIn: ['admin', 'demo'] }, (ctx) => {
  let owner: Row; // tenant 000000's admin user
  let ownerDept: Row;
  let ownerPost: Row;

  beforeAll(async () => {
    owner = expectOk(await ctx.admin.get<Row>(`${USER}/info`));
    ownerDept = expectOk(await ctx.admin.post<Row>(`${DEPT}/submit`, { parentId: owner.deptId, deptName: '平台部门' }));
    ownerPost = expectOk(await ctx.admin.post<Row>(`${POST}/submit`, { postCode: 'platform_only', postName: '平台岗位' }));
  });

  it('shows a tenant only its own users', async () => {
    const page = expectOk(await ctx.demo.get<PageData>(`${USER}/page`, { size: 100 }));
    expect(page.total).toBeGreaterThan(0);
    expectEvery(page.records, (r) => r.tenantId === '100001');
    expect(expectOk(await ctx.demo.get<PageData>(`${USER}/list`, { id_equal: owner.id })).total).toBe(0);
    expect((await ctx.demo.get(`${USER}/detail`, { id: owner.id })).body.data).toBeNull();
    expectRefusedExactly(await ctx.demo.get(`${USER}/platform-detail`, { userId: String(owner.id) }), DENIED);
    expect(expectOk(await ctx.demo.get<PageData>(`${USER}/page`, { deptId: String(owner.deptId) })).total).toBe(0);
  });

  it('never changes another tenant users', async () => {
    const id = String(owner.id);
    expectRefusedExactly(await ctx.demo.post(`${USER}/submit`, { id, realName: '篡改' }), DENIED);
    expectRefusedExactly(await ctx.demo.post(`${USER}/update`, { id, status: 0 }), DENIED);
    expectRefusedExactly(await postParams(ctx.demo, `${USER}/remove`, { ids: id }), DENIED);
    expectRefusedExactly(await postParams(ctx.demo, `${USER}/reset-password`, { userIds: id }), DENIED);
    expectRefusedExactly(await postParams(ctx.demo, `${USER}/unlock`, { userIds: id }), DENIED);
    expectRefusedExactly(await postParams(ctx.demo, `${USER}/update-platform`, { userId: id, userType: '2' }), DENIED);
    const ownRole = expectOk(await ctx.demo.get<Row>(`${USER}/info`)).roleId as string;
    expectRefusedExactly(await postParams(ctx.demo, `${USER}/grant`, { userIds: id, roleIds: ownRole }), DENIED);
    const still = expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id }));
    expect(still).toMatchObject({ realName: owner.realName, status: 1, isDeleted: 0, userType: owner.userType });
    expect((await ctx.admin.login('admin', 'admin')).access_token).toBeTruthy();
  });

  it('keeps a tenant own users in its tenant and away from foreign roles, depts and posts', async () => {
    const created = expectOk(await ctx.demo.post<Row>(`${USER}/submit`, { account: 'tenant_user', password: 'Pass@1234', tenantId: '000000' }));
    expect(created.tenantId).toBe('100001');
    expectRefusedExactly(await ctx.demo.post(`${USER}/submit`, { id: created.id, roleId: owner.roleId }), '所选角色不存在或不属于该租户');
    expectRefusedExactly(await ctx.demo.post(`${USER}/submit`, { id: created.id, deptId: ownerDept.id }), '所选部门不存在或不属于该租户');
    expectRefusedExactly(await ctx.demo.post(`${USER}/submit`, { id: created.id, postId: ownerPost.id }), '所选岗位不存在或不属于该租户');
    expectRefusedExactly(await postParams(ctx.demo, `${USER}/grant`, { userIds: created.id, roleIds: String(owner.roleId) }), '所选角色不存在或不属于该租户');
    // The same account name in the platform tenant is unaffected.
    expect(await ctx.admin.get<PageData>(`${USER}/page`, { account_equal: 'tenant_user', tenantId_equal: '000000' })).toMatchObject({ body: { data: { total: 0 } } });
  });

  it('shows and changes only the tenant own depts', async () => {
    const tree = expectOk(await ctx.demo.get<Node[]>(`${DEPT}/tree`));
    const asked = expectOk(await ctx.demo.get<Node[]>(`${DEPT}/tree`, { tenantId: '000000' }));
    expect(treeIds(asked)).toEqual(treeIds(tree));
    expect(treeIds(tree)).not.toContain(String(owner.deptId));
    for (const path of ['lazy-list', 'select']) {
      const rows = expectOk(await ctx.demo.get<Row[]>(`${DEPT}/${path}`, { tenantId: '000000' }));
      expect(rows.length, path).toBeGreaterThan(0);
      expectEvery(rows, (r) => r.tenantId === '100001', path);
    }
    expect(expectOk(await ctx.demo.get<Node[]>(`${DEPT}/lazy-tree`, { parentId: String(owner.deptId) }))).toEqual([]);
    expect((await ctx.demo.get(`${DEPT}/detail`, { id: ownerDept.id })).body.data).toBeNull();
    expectEvery(expectOk(await ctx.demo.get<PageData>(`${DEPT}/list`, { size: 100 })).records, (r) => r.tenantId === '100001');
    expectRefusedExactly(await ctx.demo.get(`${DEPT}/select`, { userId: String(owner.id) }), DENIED);
    expectRefusedExactly(await ctx.demo.post(`${DEPT}/submit`, { parentId: ownerDept.id, deptName: '寄生' }), '上级机构不存在');
    expectRefusedExactly(await ctx.demo.post(`${DEPT}/submit`, { id: ownerDept.id, deptName: '篡改' }), DENIED);
    expectRefusedExactly(await postParams(ctx.demo, `${DEPT}/remove`, { ids: ownerDept.id }), DENIED);
    const mine = expectOk(await ctx.demo.post<Row>(`${DEPT}/submit`, { parentId: tree[0].id, deptName: '本租户部门' }));
    expectRefusedExactly(await ctx.demo.post(`${DEPT}/submit`, { id: mine.id, parentId: ownerDept.id }), '上级机构不存在');
    expect(expectOk(await ctx.admin.get<Row>(`${DEPT}/detail`, { id: ownerDept.id }))).toMatchObject({ deptName: '平台部门', isDeleted: 0 });
  });

  it('shows and changes only the tenant own posts', async () => {
    const selected = expectOk(await ctx.demo.get<Row[]>(`${POST}/select`, { tenantId: '000000' }));
    expect(selected.map((r) => r.tenantId)).toEqual(['100001', '100001']); // its ceo and manager posts, not the platform's
    expect(expectOk(await ctx.demo.get<PageData>(`${POST}/list`, { postCode: 'platform_only' })).total).toBe(0);
    expect((await ctx.demo.get(`${POST}/detail`, { id: ownerPost.id })).body.data).toBeNull();
    expectRefusedExactly(await ctx.demo.post(`${POST}/submit`, { id: ownerPost.id, postCode: 'x', postName: '篡改' }), DENIED);
    expectRefusedExactly(await postParams(ctx.demo, `${POST}/remove`, { ids: ownerPost.id }), DENIED);
    // Post codes are unique per tenant only.
    expectOk(await ctx.demo.post(`${POST}/submit`, { postCode: 'platform_only', postName: '租户岗位' }));
    expect(expectOk(await ctx.admin.get<Row>(`${POST}/detail`, { id: ownerPost.id }))).toMatchObject({ postName: '平台岗位', isDeleted: 0 });
  });
});
