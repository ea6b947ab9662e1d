import { beforeAll, expect, it } from 'vitest';
import { expectOk, expectRefused, expectRefusedExactly, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { expectEvery } from '../../support/lists';

const DEPT = '/api/blade-system/dept';
const POST = '/api/blade-system/post';

interface Node {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  hasChildren: boolean;
  children?: Node[];
}

/** `title` paths of a tree, e.g. ['Vigil', 'Vigil/工程部'], to compare shapes. */
const paths = (nodes: Node[], prefix = ''): string[] =>
  nodes.flatMap((n) => [`${prefix}${n.title}`, ...paths(n.children ?? [], `${prefix}${n.title}/`)]);

onEveryStore('departments and posts', { signIn: ['admin'] }, (ctx) => {
  let me: Row;
  let rootId: string;

  beforeAll(async () => {
    me = expectOk(await ctx.admin.get<Row>('/api/blade-user/info'));
    rootId = String(me.deptId);
  });

  const save = async (body: Record<string, unknown>) => expectOk(await ctx.admin.post<Row>(`${DEPT}/submit`, body));
  const detail = async (id: string) => expectOk(await ctx.admin.get<Row>(`${DEPT}/detail`, { id }));

  it('derives ancestors from the parent and nests the tree', async () => {
    const a = await save({ parentId: rootId, deptName: 'A部', deptCategory: 2, sort: 1 });
    const b = await save({ parentId: a.id, deptName: 'B组', deptCategory: 3, sort: 1 });
    const c = await save({ parentId: b.id, deptName: 'C班', sort: 1 });
    expect(a.ancestors).toBe(`0,${rootId}`);
    expect(b.ancestors).toBe(`0,${rootId},${a.id}`);
    expect(c.ancestors).toBe(`0,${rootId},${a.id},${b.id}`);
    expect(await detail(b.id)).toMatchObject({ parentName: 'A部', deptCategoryName: '小组', fullName: 'B组', hasChildren: true });
    expect(await detail(c.id)).toMatchObject({ parentName: 'B组', deptCategoryName: '公司', hasChildren: false });

    const tree = expectOk(await ctx.admin.get<Node[]>(`${DEPT}/tree`));
    expect(paths(tree)).toEqual(['Vigil', 'Vigil/A部', 'Vigil/A部/B组', 'Vigil/A部/B组/C班']);
    expect(tree[0]).toMatchObject({ id: rootId, parentId: '0', key: rootId, value: rootId, hasChildren: true });
  });

  it('moves a dept with its whole subtree and never below itself', async () => {
    const a = await save({ parentId: rootId, deptName: '移动A', sort: 2 });
    const b = await save({ parentId: a.id, deptName: '移动B' });
    const c = await save({ parentId: b.id, deptName: '移动C' });
    const d = await save({ parentId: c.id, deptName: '移动D' });

    expectRefusedExactly(await ctx.admin.post(`${DEPT}/submit`, { id: b.id, parentId: d.id }), '上级机构不能是自身或其下级机构');
    expectRefusedExactly(await ctx.admin.post(`${DEPT}/submit`, { id: b.id, parentId: b.id }), '上级机构不能是自身或其下级机构');
    expectRefusedExactly(await ctx.admin.post(`${DEPT}/submit`, { id: b.id, parentId: '123456' }), '上级机构不存在');
    expect((await detail(d.id)).ancestors).toBe(`0,${rootId},${a.id},${b.id},${c.id}`);

    // B (with C and D) becomes a top-level dept, then moves back below the root, renamed on the way.
    expectOk(await ctx.admin.post(`${DEPT}/submit`, { id: b.id, parentId: '0' }));
    expect(await detail(b.id)).toMatchObject({ parentId: '0', ancestors: '0' });
    expect((await detail(c.id)).ancestors).toBe(`0,${b.id}`);
    expect((await detail(d.id)).ancestors).toBe(`0,${b.id},${c.id}`);
    expectOk(await ctx.admin.post(`${DEPT}/update`, { id: b.id, parentId: rootId, deptName: '移动B2' }));
    expect(await detail(b.id)).toMatchObject({ parentId: rootId, ancestors: `0,${rootId}`, deptName: '移动B2' });
    expect((await detail(d.id)).ancestors).toBe(`0,${rootId},${b.id},${c.id}`);
    // Moving C below its former sibling subtree root A leaves A's other rows alone.
    expectOk(await ctx.admin.post(`${DEPT}/submit`, { id: c.id, parentId: a.id }));
    expect((await detail(d.id)).ancestors).toBe(`0,${rootId},${a.id},${c.id}`);
    expect(await detail(a.id)).toMatchObject({ ancestors: `0,${rootId}`, hasChildren: true });
    expect(await detail(b.id)).toMatchObject({ hasChildren: false });
  });

  it('lists one level lazily, searches the whole tree, and answers lazy trees', async () => {
    const top = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/lazy-list`));
    expect(top.map((r) => r.id)).toContain(rootId);
    expectEvery(top, (r) => r.parentId === '0');
    expect(top.find((r) => r.id === rootId)?.hasChildren).toBe(true);
    const level = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/lazy-list`, { parentId: rootId }));
    expect(level.map((r) => r.deptName)).toEqual(expect.arrayContaining(['A部', '移动A', '移动B2']));
    expectEvery(level, (r) => r.parentId === rootId);
    const found = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/lazy-list`, { deptName: 'C班' }));
    expect(found.map((r) => r.deptName)).toEqual(['C班']);

    const lazy = expectOk(await ctx.admin.get<Node[]>(`${DEPT}/lazy-tree`, { parentId: rootId }));
    expect(lazy.map((n) => n.title)).toEqual(expect.arrayContaining(['A部', '移动A']));
    expect(lazy.find((n) => n.title === 'A部')).toMatchObject({ parentId: rootId, hasChildren: true });
    expectEvery(lazy, (n) => n.children === undefined);
    expect(expectOk(await ctx.admin.get<Node[]>(`${DEPT}/lazy-tree`)).map((n) => n.id)).toEqual([rootId]);
    expect((await ctx.admin.get(`${DEPT}/lazy-tree`, { parentId: 'x' })).body.msg).toBe('请求参数类型错误: parentId');
  });

  it('lets the platform administrator read another tenant tree', async () => {
    const theirs = expectOk(await ctx.admin.get<Node[]>(`${DEPT}/tree`, { tenantId: '100001' }));
    expect(paths(theirs)).toEqual(['演示工程公司', '演示工程公司/监测部']);
    const level = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/lazy-list`, { tenantId: '100001' }));
    expect(level.map((r) => [r.tenantId, r.deptName])).toEqual([['100001', '演示工程公司']]);
    const everyTenant = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/lazy-list`));
    expect(new Set(everyTenant.map((r) => r.tenantId))).toEqual(new Set(['000000', '100001']));
    const lazy = expectOk(await ctx.admin.get<Node[]>(`${DEPT}/lazy-tree`, { tenantId: '100001' }));
    expect(lazy.map((n) => n.title)).toEqual(['演示工程公司']);
    expectRefusedExactly(await ctx.admin.post(`${DEPT}/submit`, { parentId: theirs[0].id, deptName: '跨租户' }), '上级机构不存在');
    const placed = await save({ parentId: theirs[0].id, deptName: '租户分部', tenantId: '100001' });
    expect(placed).toMatchObject({ tenantId: '100001', ancestors: `0,${theirs[0].id}` });
  });

  it('selects the depts of a user, named depts, or the tenant', async () => {
    const mine = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/select`, { userId: String(me.id) }));
    expect(mine.map((r) => r.id)).toEqual([rootId]);
    const all = expectOk(await ctx.admin.get<Row[]>(`${DEPT}/select`));
    expect(all.length).toBeGreaterThan(5);
    expectEvery(all, (r) => r.tenantId === '000000');
    expectRefusedExactly(await ctx.admin.get(`${DEPT}/select`, { userId: '42' }), '数据不存在或无权操作');
  });

  it('removes only leaves that no user belongs to', async () => {
    const parent = await save({ parentId: rootId, deptName: '待删父' });
    const child = await save({ parentId: parent.id, deptName: '待删子' });
    const leaf = await save({ parentId: parent.id, deptName: '先删子' });
    expectRefusedExactly(await postParams(ctx.admin, `${DEPT}/remove`, { ids: parent.id }), '请先删除子节点');
    // A child in the recycle bin holds its parent back no more.
    expectOk(await postParams(ctx.admin, `${DEPT}/remove`, { ids: leaf.id }));
    const member = expectOk(await ctx.admin.post<Row>('/api/blade-user/submit', { account: 'dept_member', password: 'Pass@1234', deptId: child.id }));
    expectRefusedExactly(await postParams(ctx.admin, `${DEPT}/remove`, { ids: child.id }), '该机构下仍有用户,不能删除');
    expectOk(await postParams(ctx.admin, '/api/blade-user/remove', { ids: member.id }));
    expectOk(await postParams(ctx.admin, `${DEPT}/remove`, { ids: `${parent.id},${child.id}` }));
    expect((await ctx.admin.get(`${DEPT}/detail`, { id: parent.id })).body.data).toBeNull();
    expectRefused(await ctx.admin.post(`${DEPT}/submit`, { parentId: rootId }), '请输入机构名称');
  });

  it('keeps posts: unique codes, select per tenant, no removal while held', async () => {
    const post = expectOk(await ctx.admin.post<Row>(`${POST}/submit`, { category: 2, postCode: 'engineer', postName: '工程师', sort: 2 }));
    expectRefusedExactly(await ctx.admin.post(`${POST}/submit`, { postCode: 'engineer', postName: '另一个' }), '岗位编号已存在');
    // Renaming another post's code to a taken one is refused too; a code in the recycle bin is free again.
    const other = expectOk(await ctx.admin.post<Row>(`${POST}/submit`, { category: 2, postCode: 'reviewer', postName: '审核员' }));
    expectRefusedExactly(await ctx.admin.post(`${POST}/update`, { id: other.id, postCode: 'engineer' }), '岗位编号已存在');
    expectOk(await postParams(ctx.admin, `${POST}/remove`, { ids: other.id }));
    const again = expectOk(await ctx.admin.post<Row>(`${POST}/submit`, { category: 2, postCode: 'reviewer', postName: '审核员' }));
    expectOk(await postParams(ctx.admin, `${POST}/remove`, { ids: again.id }));
    expectRefused(await ctx.admin.post(`${POST}/submit`, { postCode: 'x' }), '请输入岗位名称');
    const page = expectOk(await ctx.admin.get<PageData>(`${POST}/list`, { postName: '工程' }));
    expect(page.records).toEqual([expect.objectContaining({ id: post.id, categoryName: '中层' })]);
    expectOk(await ctx.admin.post(`${POST}/update`, { id: post.id, postName: '高级工程师' }));
    expect(expectOk(await ctx.admin.get<Row>(`${POST}/detail`, { id: post.id })).postName).toBe('高级工程师');

    const mine = expectOk(await ctx.admin.get<Row[]>(`${POST}/select`));
    expect(mine.map((r) => r.postCode).sort()).toEqual(['ceo', 'engineer']);
    const theirs = expectOk(await ctx.admin.get<Row[]>(`${POST}/select`, { tenantId: '100001' }));
    expect(theirs.map((r) => [r.tenantId, r.postCode])).toEqual([
      ['100001', 'ceo'],
      ['100001', 'manager'],
    ]);

    const holder = expectOk(await ctx.admin.post<Row>('/api/blade-user/submit', { account: 'post_holder', password: 'Pass@1234', postId: post.id }));
    expectRefusedExactly(await postParams(ctx.admin, `${POST}/remove`, { ids: post.id }), '该岗位下仍有用户,不能删除');
    expectOk(await postParams(ctx.admin, '/api/blade-user/remove', { ids: holder.id }));
    expectOk(await postParams(ctx.admin, `${POST}/remove`, { ids: post.id }));
    expect(expectOk(await ctx.admin.get<Row[]>(`${POST}/select`)).map((r) => r.postCode)).toEqual(['ceo']);
  });
});
