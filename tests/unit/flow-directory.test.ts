// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileBpmn } from '../../server/flow/bpmn';
import { deptHeads, type Organisation } from '../../server/flow/directory';
import { SEEDED_PROCESSES } from '../../server/db/seed/workflow';

/** A company: 总部 (d0) above 监测部 (d1) and its 外业组 (d2); posts p-m (manager), p-e (engineer). */
function organisation(): Organisation {
  const people = [
    { id: 'boss', account: 'boss', name: '总经理', roles: [], depts: ['d0'], posts: ['p-m'] },
    { id: 'head', account: 'head', name: '部门经理', roles: [], depts: ['d1'], posts: ['p-m'] },
    { id: 'eng', account: 'eng', name: '工程师', roles: [], depts: ['d1'], posts: ['p-e'] },
    { id: 'field', account: 'field', name: '外业员', roles: [], depts: ['d2'], posts: [] },
  ];
  return {
    users: new Map(people.map((p) => [p.id, p])),
    byAccount: new Map(people.map((p) => [p.account, p])),
    roles: new Map(),
    depts: new Map([
      ['d0', { parentId: '0', name: '总部' }],
      ['d1', { parentId: 'd0', name: '监测部' }],
      ['d2', { parentId: 'd1', name: '外业组' }],
    ]),
    posts: new Map([
      ['p-m', { code: 'manager' }],
      ['p-e', { code: 'engineer' }],
    ]),
  };
}

describe('the department head', () => {
  it('is the manager of the user’s department, else of the one above', () => {
    const org = organisation();
    expect(deptHeads(org, 'eng')).toEqual(['head']);
    // 外业组 has no manager: its parent's.
    expect(deptHeads(org, 'field')).toEqual(['head']);
    // The head's own head is the one above, never the head itself; BladeX's taskUser_ form is read too.
    expect(deptHeads(org, 'taskUser_head')).toEqual(['boss']);
    expect(deptHeads(org, 'boss')).toEqual([]);
    expect(deptHeads(org, 'nobody')).toEqual([]);
  });
});

describe('the seeded processes', () => {
  it.each(SEEDED_PROCESSES.map((p) => [p.key, p.file]))('%s compiles, with its tasks and escalating timer', async (key, file) => {
    const process = await compileBpmn(readFileSync(new URL(`../../server/flow/processes/${file}`, import.meta.url), 'utf8'));
    expect(process.key).toBe(key);
    expect(process.userTasks.size).toBe(4);
    expect(process.boundaries.size).toBe(1);
  });
});
