import { msg } from '@lingui/core/macro';
import { post } from '../../../resources/system/post';
import type { CrudView } from '../../crud/types';

/** Spec §2 "Post management". */
export const postView: CrudView<typeof post> = {
  resource: post,
  fields: [
    { name: 'category', label: msg`岗位类型`, widget: { type: 'select', dict: 'post_category' }, search: true, width: 120 },
    { name: 'postCode', label: msg`岗位编号`, search: true, required: msg`请输入岗位编号` },
    { name: 'postName', label: msg`岗位名称`, search: true, required: msg`请输入岗位名称` },
    { name: 'sort', label: msg`岗位排序`, widget: { type: 'number', min: 0 }, width: 100 },
    { name: 'remark', label: msg`岗位描述`, widget: { type: 'textarea', rows: 3 } },
  ],
};
