import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { startServer, type TestServer } from '../../support/server';
import { expectOk, expectRefused, type PageData, postParams, type Row } from './support';

const USER = '/api/blade-user';
const DEPT = '/api/blade-system/dept';
const POST = '/api/blade-system/post';
const DENIED = '数据不存在或无权操作';

interface Node {
  id: string;
  children?: Node[];
}
const ids = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.id, ...ids(n.children ?? [])]);

/** The administrator of tenant 100001 never sees nor changes tenant 000000's users, depts or posts. */
describe.each(await storeKinds())('people isolation on %s', (store) => {
  let server: TestServer;
  let platformAdmin: ApiClient;
  let tenantAdmin: ApiClient;
  let owner: Row; // tenant 000000's admin user
  let ownerDept: Row;
  let ownerPost: Row;

  beforeAll(async () => {
    server = await startServer(store);
    platformAdmin = await signedIn(server.url);
    tenantAdmin = await signedIn(server.url, 'admin', 'admin', '100001');
    owner = expectOk(await platformAdmin.get<Row>(`${USER}/info`));
    ownerDept = expectOk(await platformAdmin.post<Row>(`${DEPT}/submit`, { parentId: owner.deptId, deptName: '平台部门' }));
    ownerPost = expectOk(await platformAdmin.post<Row>(`${POST}/submit`, { postCode: 'platform_only', postName: '平台岗位' }));
  });
  afterAll(() => server.stop());

  it('shows a tenant only its own users', async () => {
    const page = expectOk(await tenantAdmin.get<PageData>(`${USER}/page`, { size: 100 }));
    expect(page.total).toBeGreaterThan(0);
    expect(page.records.every((r) => r.tenantId === '100001')).toBe(true);
    expect(expectOk(await tenantAdmin.get<PageData>(`${USER}/list`, { id_equal: owner.id })).total).toBe(0);
    expect((await tenantAdmin.get(`${USER}/detail`, { id: owner.id })).body.data).toBeNull();
    expectRefused(await tenantAdmin.get(`${USER}/platform-detail`, { userId: String(owner.id) }), DENIED);
    expect(expectOk(await tenantAdmin.get<PageData>(`${USER}/page`, { deptId: String(owner.deptId) })).total).toBe(0);
  });

  it('never changes another tenant users', async () => {
    const id = String(owner.id);
    expectRefused(await tenantAdmin.post(`${USER}/submit`, { id, realName: '篡改' }), DENIED);
    expectRefused(await tenantAdmin.post(`${USER}/update`, { id, status: 0 }), DENIED);
    expectRefused(await postParams(tenantAdmin, `${USER}/remove`, { ids: id }), DENIED);
    expectRefused(await postParams(tenantAdmin, `${USER}/reset-password`, { userIds: id }), DENIED);
    expectRefused(await postParams(tenantAdmin, `${USER}/unlock`, { userIds: id }), DENIED);
    expectRefused(await postParams(tenantAdmin, `${USER}/update-platform`, { userId: id, userType: '2' }), DENIED);
    const ownRole = expectOk(await tenantAdmin.get<Row>(`${USER}/info`)).roleId as string;
    expectRefused(await postParams(tenantAdmin, `${USER}/grant`, { userIds: id, roleIds: ownRole }), DENIED);
    const still = expectOk(await platformAdmin.get<Row>(`${USER}/detail`, { id }));
    expect(still).toMatchObject({ realName: owner.realName, status: 1, isDeleted: 0, userType: owner.userType });
    expect((await platformAdmin.login('admin', 'admin')).access_token).toBeTruthy();
  });

  it('keeps a tenant own users in its tenant and away from foreign roles, depts and posts', async () => {
    const created = expectOk(await tenantAdmin.post<Row>(`${USER}/submit`, { account: 'tenant_user', password: 'Pass@1234', tenantId: '000000' }));
    expect(created.tenantId).toBe('100001');
    expectRefused(await tenantAdmin.post(`${USER}/submit`, { id: created.id, roleId: owner.roleId }), '所选角色不存在或不属于该租户');
    expectRefused(await tenantAdmin.post(`${USER}/submit`, { id: created.id, deptId: ownerDept.id }), '所选部门不存在或不属于该租户');
    expectRefused(await tenantAdmin.post(`${USER}/submit`, { id: created.id, postId: ownerPost.id }), '所选岗位不存在或不属于该租户');
    expectRefused(await postParams(tenantAdmin, `${USER}/grant`, { userIds: created.id, roleIds: String(owner.roleId) }), '所选角色不存在或不属于该租户');
    // The same account name in the platform tenant is unaffected.
    expect(await platformAdmin.get<PageData>(`${USER}/page`, { account_equal: 'tenant_user', tenantId_equal: '000000' })).toMatchObject({ body: { data: { total: 0 } } });
  });

  it('shows and changes only the tenant own depts', async () => {
    const tree = expectOk(await tenantAdmin.get<Node[]>(`${DEPT}/tree`));
    const asked = expectOk(await tenantAdmin.get<Node[]>(`${DEPT}/tree`, { tenantId: '000000' }));
    expect(ids(asked)).toEqual(ids(tree));
    expect(ids(tree)).not.toContain(String(owner.deptId));
    for (const path of ['lazy-list', 'select']) {
      const rows = expectOk(await tenantAdmin.get<Row[]>(`${DEPT}/${path}`, { tenantId: '000000' }));
      expect(rows.length, path).toBeGreaterThan(0);
      expect(rows.every((r) => r.tenantId === '100001'), path).toBe(true);
    }
    expect(expectOk(await tenantAdmin.get<Node[]>(`${DEPT}/lazy-tree`, { parentId: String(owner.deptId) }))).toEqual([]);
    expect((await tenantAdmin.get(`${DEPT}/detail`, { id: ownerDept.id })).body.data).toBeNull();
    expect(expectOk(await tenantAdmin.get<PageData>(`${DEPT}/list`, { size: 100 })).records.every((r) => r.tenantId === '100001')).toBe(true);
    expectRefused(await tenantAdmin.get(`${DEPT}/select`, { userId: String(owner.id) }), DENIED);
    expectRefused(await tenantAdmin.post(`${DEPT}/submit`, { parentId: ownerDept.id, deptName: '寄生' }), '上级机构不存在');
    expectRefused(await tenantAdmin.post(`${DEPT}/submit`, { id: ownerDept.id, deptName: '篡改' }), DENIED);
    expectRefused(await postParams(tenantAdmin, `${DEPT}/remove`, { ids: ownerDept.id }), DENIED);
    const mine = expectOk(await tenantAdmin.post<Row>(`${DEPT}/submit`, { parentId: tree[0].id, deptName: '本租户部门' }));
    expectRefused(await tenantAdmin.post(`${DEPT}/submit`, { id: mine.id, parentId: ownerDept.id }), '上级机构不存在');
    expect(expectOk(await platformAdmin.get<Row>(`${DEPT}/detail`, { id: ownerDept.id }))).toMatchObject({ deptName: '平台部门', isDeleted: 0 });
  });

  it('shows and changes only the tenant own posts', async () => {
    const selected = expectOk(await tenantAdmin.get<Row[]>(`${POST}/select`, { tenantId: '000000' }));
    expect(selected.map((r) => r.tenantId)).toEqual(['100001']);
    expect(expectOk(await tenantAdmin.get<PageData>(`${POST}/list`, { postCode: 'platform_only' })).total).toBe(0);
    expect((await tenantAdmin.get(`${POST}/detail`, { id: ownerPost.id })).body.data).toBeNull();
    expectRefused(await tenantAdmin.post(`${POST}/submit`, { id: ownerPost.id, postCode: 'x', postName: '篡改' }), DENIED);
    expectRefused(await postParams(tenantAdmin, `${POST}/remove`, { ids: ownerPost.id }), DENIED);
    // Post codes are unique per tenant only.
    expectOk(await tenantAdmin.post(`${POST}/submit`, { postCode: 'platform_only', postName: '租户岗位' }));
    expect(expectOk(await platformAdmin.get<Row>(`${POST}/detail`, { id: ownerPost.id }))).toMatchObject({ postName: '平台岗位', isDeleted: 0 });
  });
});
