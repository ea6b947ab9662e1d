import { beforeAll, expect, it } from 'vitest';
import type { ApiClient } from '../../support/client';
import { expectOk, expectRefusedExactly, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { type Node, treeIds } from './support';

const USER = '/api/blade-user';
const DEMO = '100001';
const ROLE = '所选角色不存在或不属于该租户';
const DEPT = '所选部门不存在或不属于该租户';
const POST = '所选岗位不存在或不属于该租户';

/**
 * The platform administrator edits users of other tenants (the user form's pickers list the chosen tenant's roles,
 * depts and posts): a user saved with a role, dept or post of any other tenant is refused with nothing written.
 */
onEveryStore('roles, depts and posts of a user’s own tenant', { signIn: ['admin', 'demo'] }, (ctx) => {
  /** Role, dept and post ids of the platform tenant and of the demo tenant, as the pickers list them. */
  const own = { roleId: '', deptId: '', postId: '' };
  const foreign = { roleId: '', deptId: '', postId: '' };

  const pickers = async (api: ApiClient, tenantId?: string) => {
    const query = tenantId ? { tenantId } : undefined;
    return {
      roles: treeIds(expectOk(await api.get<Node[]>('/api/blade-system/role/tree', query))),
      depts: treeIds(expectOk(await api.get<Node[]>('/api/blade-system/dept/tree', query))),
      posts: expectOk(await api.get<Row[]>('/api/blade-system/post/select', query)).map((p) => p.id),
    };
  };
  const usersNamed = async (account: string) =>
    expectOk(await ctx.admin.get<PageData>(`${USER}/page`, { account_equal: account, size: 100 })).records;

  beforeAll(async () => {
    expectOk(await ctx.admin.post('/api/blade-system/post/submit', { postCode: 'platform_post', postName: '平台岗位' }));
    expectOk(await ctx.demo.post('/api/blade-system/post/submit', { postCode: 'demo_post', postName: '租户岗位' }));
  });

  it('lists the asked tenant’s roles, depts and posts to the platform administrator only', async () => {
    const mine = await pickers(ctx.admin);
    const asked = await pickers(ctx.admin, DEMO);
    const theirs = await pickers(ctx.demo);
    expect(asked).toEqual(theirs);
    for (const kind of ['roles', 'depts', 'posts'] as const) {
      expect(asked[kind].length, kind).toBeGreaterThan(0);
      expect(asked[kind].some((id) => mine[kind].includes(id)), kind).toBe(false);
    }
    // A tenant administrator asking about the platform tenant gets its own.
    expect(await pickers(ctx.demo, '000000')).toEqual(theirs);
    Object.assign(own, { roleId: asked.roles[0], deptId: asked.depts[0], postId: asked.posts[0] });
    Object.assign(foreign, { roleId: mine.roles[0], deptId: mine.depts[0], postId: mine.posts[0] });
  });

  it('creates a user of another tenant with that tenant’s roles, depts and posts', async () => {
    const created = expectOk(await ctx.admin.post<Row>(`${USER}/submit`, { account: 'cross_ok', password: 'Pass@1234', name: '跨租户', realName: '跨租户', tenantId: DEMO, ...own }));
    expect(created).toMatchObject({ tenantId: DEMO, ...own });
    expect(expectOk(await ctx.demo.get<Row>(`${USER}/detail`, { id: created.id }))).toMatchObject({ account: 'cross_ok', ...own });
  });

  it('refuses a new user with a role, dept or post of another tenant, and writes nothing', async () => {
    const body = { password: 'Pass@1234', name: '越界', realName: '越界', tenantId: DEMO, ...own };
    const cases: Array<[string, Record<string, string>, string]> = [
      ['cross_role', { roleId: foreign.roleId }, ROLE],
      ['cross_roles', { roleId: `${own.roleId},${foreign.roleId}` }, ROLE],
      ['cross_dept', { deptId: foreign.deptId }, DEPT],
      ['cross_post', { postId: `${own.postId},${foreign.postId}` }, POST],
    ];
    for (const [account, wrong, message] of cases) {
      for (const path of ['submit', 'save']) {
        expectRefusedExactly(await ctx.admin.post(`${USER}/${path}`, { ...body, account, ...wrong }), message);
        expect(await usersNamed(account), `${path} ${account}`).toEqual([]);
      }
    }
    // The platform tenant's own ids are foreign to a user of the demo tenant even when the form sends them as a list.
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { ...body, account: 'cross_list', roleId: [foreign.roleId] }), ROLE);
    expect(await usersNamed('cross_list')).toEqual([]);
  });

  it('refuses to give an existing user of another tenant foreign roles, depts or posts, and leaves it as it was', async () => {
    const [user] = await usersNamed('cross_ok');
    const before = expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id: user.id }));
    for (const path of ['submit', 'update']) {
      expectRefusedExactly(await ctx.admin.post(`${USER}/${path}`, { id: user.id, realName: '改名', roleId: foreign.roleId }), ROLE);
      expectRefusedExactly(await ctx.admin.post(`${USER}/${path}`, { id: user.id, realName: '改名', deptId: `${own.deptId},${foreign.deptId}` }), DEPT);
      expectRefusedExactly(await ctx.admin.post(`${USER}/${path}`, { id: user.id, realName: '改名', postId: foreign.postId }), POST);
    }
    const after = expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id: user.id }));
    expect(after).toEqual(before);
    // Its own tenant's ids are fine.
    expectOk(await ctx.admin.post(`${USER}/update`, { id: user.id, realName: '改名', roleId: own.roleId, deptId: own.deptId, postId: own.postId }));
    expect(expectOk(await ctx.demo.get<Row>(`${USER}/detail`, { id: user.id }))).toMatchObject({ realName: '改名', tenantId: DEMO, ...own });
  });
});
