import { z } from 'zod';
import { defineResource } from '../define';
import { id, int, required, text } from '../fields';

/** The parent id of top-level departments, and the first element of every ancestors path. */
export const DEPT_ROOT = '0';

/**
 * Departments (spec §7 "Departments"): a tree per tenant. `ancestors` is derived by the server from the parent
 * ('0' for a top-level dept, '0,<root id>,…,<parent id>' below it) and rewritten for the whole subtree on a move.
 */
export const dept = defineResource({
  service: 'blade-system',
  name: 'dept',
  menu: 'dept',
  table: 'blade_dept',
  tenancy: 'tenant',
  fields: z.object({
    parentId: id().nullish(),
    ancestors: text(2000).nullish(),
    deptName: required('请输入机构名称', 64),
    fullName: text(128).nullish(),
    deptCategory: int().nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  orderBy: [{ field: 'sort' }],
  parentField: 'parentId',
  example: { parentId: DEPT_ROOT, deptName: '示例部门', fullName: '示例部门', deptCategory: 2, sort: 1 },
});
