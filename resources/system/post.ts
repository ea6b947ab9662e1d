import { z } from 'zod';
import { defineResource } from '../define';
import { int, required, text } from '../fields';

/** Posts (job positions) a user can hold; category from the dictionary 'post_category'. */
export const post = defineResource({
  service: 'blade-system',
  name: 'post',
  menu: 'post',
  table: 'blade_post',
  tenancy: 'tenant',
  fields: z.object({
    category: int().nullish(),
    postCode: required('请输入岗位编号', 64),
    postName: required('请输入岗位名称', 64),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['postCode'], message: '岗位编号已存在' }],
  example: { category: 3, postCode: 'example_post', postName: '示例岗位', sort: 1 },
});
