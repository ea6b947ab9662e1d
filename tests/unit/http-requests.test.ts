import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../server/auth/principal';
import { bodyOf, contextOf, idsOf, paramsOf, requiredText, text } from '../../server/http/context';
import { attach, forest, subtree, treeNode, withAncestors } from '../../server/http/trees';

/** The parts of a request these helpers read: a plain object, as Fastify hands it over. */
const request = (parts: { query?: unknown; body?: unknown; contentType?: string; principal?: Principal }) =>
  ({ query: parts.query, body: parts.body, headers: parts.contentType ? { 'content-type': parts.contentType } : {}, principal: parts.principal }) as unknown as FastifyRequest;

const principal = (userId: string): Principal => ({
  userId, tenantId: '100001', account: 'a', userName: 'a', nickName: 'a', roleIds: [], roleNames: [], deptId: '', postId: '', clientId: 'saber', jti: 'j', sessionId: 's', exp: 0,
});

describe('request parameters (server/http/context.ts)', () => {
  it('gives a signed-in caller its context, and refuses no caller and a guest', () => {
    const user = principal('42');
    expect(contextOf(request({ principal: user }))).toEqual({ principal: user });
    expect(() => contextOf(request({}))).toThrow('请求未授权');
    expect(() => contextOf(request({ principal: principal('-1') }))).toThrow('请求未授权');
  });

  it('merges query and form fields, the form winning; a JSON body is no parameters', () => {
    const query = { a: '1', b: '2' };
    expect(paramsOf(request({ query, body: { b: '3', c: '4' }, contentType: 'application/x-www-form-urlencoded' }))).toEqual({ a: '1', b: '3', c: '4' });
    expect(paramsOf(request({ query, body: { b: '3' }, contentType: 'application/json; charset=utf-8' }))).toEqual(query);
    expect(paramsOf(request({ query, body: ['x'], contentType: 'multipart/form-data' }))).toEqual(query);
    // A body read as text (a content type with no parser of fields) holds no fields: its characters are none.
    expect(paramsOf(request({ query, body: 'c=4', contentType: 'text/plain' }))).toEqual(query);
    expect(paramsOf(request({ body: { c: '4' } }))).toEqual({ c: '4' });
  });

  it('reads a parameter as trimmed text, the first of repeated ones; blank is absent', () => {
    expect(text({ a: '  x y ' }, 'a')).toBe('x y');
    expect(text({ a: ['first', 'second'] }, 'a')).toBe('first');
    expect(text({ a: 7 }, 'a')).toBe('7');
    expect(text({ a: '   ' }, 'a')).toBeUndefined();
    expect(text({ a: null }, 'a')).toBeUndefined();
    expect(text({ a: [] }, 'a')).toBeUndefined();
    expect(text({}, 'a')).toBeUndefined();
    expect(requiredText({ name: ' v ' }, 'name')).toBe('v');
    expect(() => requiredText({ name: ' ' }, 'name')).toThrow('缺少必要的请求参数: name');
  });

  it('reads ids joined by commas or repeated, without blanks, and refuses none', () => {
    expect(idsOf({ ids: ' 1, 2,,3 ,' })).toEqual(['1', '2', '3']);
    expect(idsOf({ ids: ['1,2', '3'] })).toEqual(['1', '2', '3']);
    expect(idsOf({ userIds: 9 }, 'userIds')).toEqual(['9']);
    expect(() => idsOf({ ids: ' , ' })).toThrow('缺少必要的请求参数: ids');
    expect(() => idsOf({}, 'roleIds')).toThrow('缺少必要的请求参数: roleIds');
  });

  it('takes a JSON body as an object; nothing is an empty one, anything else a 400', () => {
    expect(bodyOf(request({ body: { a: 1 } }))).toEqual({ a: 1 });
    for (const body of [undefined, null, '']) expect(bodyOf(request({ body }))).toEqual({});
    for (const body of [[1], 'text', 5]) expect(() => bodyOf(request({ body }))).toThrow('参数校验失败: 请求体应为 JSON 对象');
  });
});

describe('trees (server/http/trees.ts)', () => {
  const node = (id: string, parentId: string) => ({ id, parentId, name: `n${id}` });

  it('makes a node whose key and value are its id, its own fields over the extra ones', () => {
    expect(treeNode('7', '0', '七', { sort: 1, id: 'x', title: 'y' })).toEqual({ sort: 1, id: '7', parentId: '0', title: '七', key: '7', value: '7' });
  });

  it('merges a flat list into a forest in the list order; an orphan or its own parent is a root', () => {
    const roots = forest([node('1', '0'), node('3', '1'), node('2', '1'), node('4', '3'), node('5', '99'), node('6', '6')]);
    expect(roots.map((r) => r.id)).toEqual(['1', '5', '6']);
    const [one, orphan, self] = roots;
    expect(one.hasChildren).toBe(true);
    expect(one.children?.map((c) => c.id)).toEqual(['3', '2']);
    expect(one.children?.[0].children?.map((c) => [c.id, c.hasChildren, c.children])).toEqual([['4', false, undefined]]);
    expect(one.children?.[1]).toEqual({ ...node('2', '1'), hasChildren: false });
    expect([orphan.hasChildren, self.hasChildren, self.children]).toEqual([false, false, undefined]);
  });

  it('leaves the list it merges as it was', () => {
    const list = [node('1', '0'), node('2', '1')];
    forest(list);
    expect(list).toEqual([node('1', '0'), node('2', '1')]);
  });

  it('hangs children under their parents in order, and leaves out children of no parent listed', () => {
    const parents: Array<{ id: string; parentId: string; children?: unknown[]; hasChildren?: boolean }> = [{ id: 'c1', parentId: '0' }, { id: 'c2', parentId: '0' }];
    const out = attach(parents, [node('p1', 'c1'), node('p2', 'c9'), node('p3', 'c1')]);
    expect(out).toBe(parents);
    expect(out).toEqual([
      { id: 'c1', parentId: '0', children: [node('p1', 'c1'), node('p3', 'c1')], hasChildren: true },
      { id: 'c2', parentId: '0' },
    ]);
  });

  it('adds every ancestor to a set of ids, once, and ends on a cycle', () => {
    const parentOf = new Map([['4', '3'], ['3', '1'], ['2', '1'], ['1', '0'], ['8', '9'], ['9', '8']]);
    expect([...withAncestors(['4', '2'], parentOf)].sort()).toEqual(['0', '1', '2', '3', '4']);
    expect([...withAncestors(['8'], parentOf)].sort()).toEqual(['8', '9']);
    expect([...withAncestors([], parentOf)]).toEqual([]);
  });

  it('takes a node and everything below it, and ends on a cycle', () => {
    const nodes = [node('1', '0'), node('2', '1'), node('3', '2'), node('4', '1'), node('5', '0'), node('6', '7'), node('7', '6')];
    expect([...subtree('1', nodes)].sort()).toEqual(['1', '2', '3', '4']);
    expect([...subtree('0', nodes)].sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    expect([...subtree('6', nodes)].sort()).toEqual(['6', '7']);
    expect([...subtree('3', nodes)]).toEqual(['3']);
  });
});
