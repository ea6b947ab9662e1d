import { expect, it } from 'vitest';
import type { ApiClient } from '../../support/client';
import { expectOk, type PageData } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { expectEvery } from '../../support/lists';

type Entry = Record<string, unknown> & { id: string; code: string; dictKey: string; dictValue: string; sort: number };
type Node = Entry & { title: string; children: Node[]; hasChildren: boolean };

onEveryStore('dictionaries', { signIn: ['admin', 'demo'] }, (ctx) => {
  const submit = (client: ApiClient, body: Record<string, unknown>, kind = 'dict') => client.post<Entry>(`/api/blade-system/${kind}/submit`, body);

  it('answers the spec §5 messages for missing fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'x1', sort: 1, isSealed: 0 }, '请输入字典名称'],
      [{ code: 'x1', dictValue: 'X', isSealed: 0 }, '请输入字典排序'],
      [{ code: 'x1', dictValue: 'X', sort: 1 }, '请选择封存'],
      [{ dictValue: 'X', sort: 1, isSealed: 0 }, '请输入字典编号'],
    ];
    for (const [body, message] of cases) {
      const reply = await submit(ctx.admin, body);
      expect(reply.status).toBe(400);
      expect(reply.body.msg).toContain(message);
    }
    const parent = expectOk(await submit(ctx.admin, { code: 'msg_check', dictValue: '校验', sort: 1, isSealed: 0 }));
    const child = await submit(ctx.admin, { parentId: parent.id, dictValue: '无键', sort: 1, isSealed: 0 });
    expect(child.status).toBe(400);
    expect(child.body.msg).toContain('请输入字典键值');
  });

  it('keeps parents and entries: inherited code, unique keys, lists, lookups and trees', async () => {
    const parent = expectOk(await submit(ctx.admin, { code: 'bridge_kind', dictValue: '桥型', sort: 50, isSealed: 0, remark: '桥梁类型' }));
    expect(parent.parentId).toBe('0');
    expect(parent.dictKey).toBe('-1');
    expect((await submit(ctx.admin, { code: 'bridge_kind', dictValue: '重复', sort: 1, isSealed: 0 })).body.msg).toBe('当前字典编号已存在!');

    const arch = expectOk(await submit(ctx.admin, { parentId: parent.id, code: 'ignored', dictKey: 'arch', dictValue: '拱桥', sort: 2, isSealed: 0 }));
    expect(arch.code).toBe('bridge_kind');
    const beam = expectOk(await submit(ctx.admin, { parentId: parent.id, dictKey: 'beam', dictValue: '梁桥', sort: 1, isSealed: 0 }));
    const duplicate = await submit(ctx.admin, { parentId: parent.id, dictKey: 'beam', dictValue: '又一个梁桥', sort: 3, isSealed: 0 });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.msg).toBe('当前字典键值已存在!');
    const girder = expectOk(await submit(ctx.admin, { parentId: beam.id, dictKey: 'beam.box', dictValue: '箱梁', sort: 3, isSealed: 0 }));
    expect(girder.code).toBe('bridge_kind');

    const parents = expectOk(await ctx.admin.get<PageData<Entry>>('/api/blade-system/dict/parent-list', { code: 'bridge' }));
    expect(parents.records.map((r) => r.code)).toEqual(['bridge_kind']);
    const byName = expectOk(await ctx.admin.get<PageData<Entry>>('/api/blade-system/dict/parent-list', { dictValue: '通知类型' }));
    expect(byName.records.map((r) => r.code)).toEqual(['notice']);
    const allParents = expectOk(await ctx.admin.get<PageData<Entry>>('/api/blade-system/dict/parent-list', { size: 200 }));
    expectEvery(allParents.records, (r) => r.parentId === '0');

    const children = expectOk(await ctx.admin.get<PageData<Entry>>('/api/blade-system/dict/child-list', { parentId: parent.id, size: 1 }));
    expect(children.total).toBe(2);
    expect(children.records).toHaveLength(1);
    expect(children.records[0].dictKey).toBe('beam');
    expect(children.records[0].parentName).toBe('桥型');
    const missing = await ctx.admin.get('/api/blade-system/dict/child-list');
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('缺少必要的请求参数');

    const detail = expectOk(await ctx.admin.get<Entry>('/api/blade-system/dict/detail', { id: arch.id }));
    expect(detail).toMatchObject({ dictValue: '拱桥', parentName: '桥型' });

    const entries = expectOk(await ctx.admin.get<Entry[]>('/api/blade-system/dict/dictionary', { code: 'bridge_kind' }));
    expect(entries.map((e) => e.dictKey)).toEqual(['beam', 'arch', 'beam.box']);
    const notice = expectOk(await ctx.admin.get<Entry[]>('/api/blade-system/dict/dictionary', { code: 'notice' }));
    expect(notice[0]).toMatchObject({ dictKey: '1', dictValue: '发布通知' });
    expect((await ctx.admin.get('/api/blade-system/dict/dictionary')).status).toBe(400);

    const tree = expectOk(await ctx.admin.get<Node[]>('/api/blade-system/dict/tree', { code: 'bridge_kind' }));
    expect(tree.map((n) => n.title)).toEqual(['梁桥', '拱桥']);
    expect(tree[0].hasChildren).toBe(true);
    expect(tree[0].children[0]).toMatchObject({ title: '箱梁', value: girder.id, key: girder.id });
    const dictionaryTree = expectOk(await ctx.admin.get<Node[]>('/api/blade-system/dict/dictionary-tree', { code: 'bridge_kind' }));
    expect(dictionaryTree[0].children[0].dictKey).toBe('beam.box');
    const parentTree = expectOk(await ctx.admin.get<Node[]>('/api/blade-system/dict/parent-tree'));
    expect(parentTree.some((n) => n.code === 'bridge_kind' && !n.children && n.hasChildren === false)).toBe(true);
    const forest = expectOk(await ctx.admin.get<Node[]>('/api/blade-system/dict/tree'));
    expect(forest.find((n) => n.id === parent.id)?.children).toHaveLength(2);

    // Renaming the family's code reaches every entry, nested ones included.
    expectOk(await submit(ctx.admin, { id: parent.id, code: 'bridge_type' }));
    const renamed = expectOk(await ctx.admin.get<Entry[]>('/api/blade-system/dict/dictionary', { code: 'bridge_type' }));
    expect(renamed.map((e) => e.dictKey)).toEqual(['beam', 'arch', 'beam.box']);
    expect(expectOk(await ctx.admin.get<Entry[]>('/api/blade-system/dict/dictionary', { code: 'bridge_kind' }))).toEqual([]);

    const withChildren = await ctx.admin.post('/api/blade-system/dict/remove', undefined, { ids: parent.id });
    expect(withChildren.body.msg).toBe('请先删除子节点');
    expectOk(await ctx.admin.post('/api/blade-system/dict/remove', undefined, { ids: `${girder.id},${beam.id}` }));
    expect(expectOk(await ctx.admin.get<Entry[]>('/api/blade-system/dict/dictionary', { code: 'bridge_type' })).map((e) => e.dictKey)).toEqual(['arch']);
  });

  it('freezes sealed rows until they are unsealed', async () => {
    const parent = expectOk(await submit(ctx.admin, { code: 'sealed_case', dictValue: '封存测试', sort: 60, isSealed: 0 }));
    const entry = expectOk(await submit(ctx.admin, { parentId: parent.id, dictKey: 'a', dictValue: 'A', sort: 1, isSealed: 1 }));
    const change = await submit(ctx.admin, { ...entry, dictValue: 'B' });
    expect(change.status).toBe(400);
    expect(change.body.msg).toBe('封存的字典不可修改');
    const remove = await ctx.admin.post('/api/blade-system/dict/remove', undefined, { ids: entry.id });
    expect(remove.body.msg).toBe('封存的字典不可删除');
    expect(expectOk(await ctx.admin.get<Entry>('/api/blade-system/dict/detail', { id: entry.id })).dictValue).toBe('A');

    const unsealAndChange = await submit(ctx.admin, { ...entry, isSealed: 0, dictValue: 'C' });
    expect(unsealAndChange.body.msg).toBe('封存的字典不可修改');
    expectOk(await submit(ctx.admin, { ...entry, isSealed: 0 }));
    expect(expectOk(await submit(ctx.admin, { id: entry.id, dictValue: 'B' })).dictValue).toBe('B');

    expectOk(await submit(ctx.admin, { id: parent.id, isSealed: 1 }));
    const below = await submit(ctx.admin, { parentId: parent.id, dictKey: 'b', dictValue: 'B', sort: 2, isSealed: 0 });
    expect(below.body.msg).toBe('封存的字典不可修改');
  });

  it('keeps business dictionaries per tenant and system dictionaries to the platform administrator', async () => {
    const mine = expectOk(await submit(ctx.demo, { code: 'crew', dictValue: '班组', sort: 1, isSealed: 0 }, 'dict-biz'));
    expect(mine.tenantId).toBe('100001');
    expectOk(await submit(ctx.demo, { parentId: mine.id, dictKey: 'night', dictValue: '夜班', sort: 1, isSealed: 0 }, 'dict-biz'));
    const platformOwn = expectOk(await submit(ctx.admin, { code: 'crew', dictValue: '平台班组', sort: 1, isSealed: 0 }, 'dict-biz'));
    expectOk(await submit(ctx.admin, { parentId: platformOwn.id, dictKey: 'day', dictValue: '白班', sort: 1, isSealed: 0 }, 'dict-biz'));

    const tenantEntries = expectOk(await ctx.demo.get<Entry[]>('/api/blade-system/dict-biz/dictionary', { code: 'crew' }));
    expect(tenantEntries.map((e) => e.dictKey)).toEqual(['night']);
    const platformEntries = expectOk(await ctx.admin.get<Entry[]>('/api/blade-system/dict-biz/dictionary', { code: 'crew' }));
    expect(platformEntries.map((e) => e.dictKey)).toEqual(['day']);
    const tenantParents = expectOk(await ctx.demo.get<PageData<Entry>>('/api/blade-system/dict-biz/parent-list', { size: 100 }));
    expectEvery(tenantParents.records, (r) => r.tenantId === '100001');
    expect(expectOk(await ctx.demo.get('/api/blade-system/dict-biz/detail', { id: platformOwn.id }))).toBeNull();
    const foreignChild = await submit(ctx.demo, { parentId: platformOwn.id, dictKey: 'x', dictValue: 'X', sort: 1, isSealed: 0 }, 'dict-biz');
    expect(foreignChild.body.msg).toBe('上级字典不存在');
    expect((await ctx.demo.post('/api/blade-system/dict-biz/remove', undefined, { ids: platformOwn.id })).status).toBe(400);

    // System dictionaries: everyone reads, only the platform administrator writes.
    expect(expectOk(await ctx.demo.get<Entry[]>('/api/blade-system/dict/dictionary', { code: 'sex' }))).toHaveLength(3);
    const write = await submit(ctx.demo, { code: 'tenant_try', dictValue: '越权', sort: 1, isSealed: 0 });
    expect(write.status).toBe(403);
    const sex = expectOk(await ctx.admin.get<PageData<Entry>>('/api/blade-system/dict/parent-list', { code: 'sex' })).records[0];
    expect((await ctx.demo.post('/api/blade-system/dict/remove', undefined, { ids: sex.id })).status).toBe(403);
  });
});
