import { msg } from '@lingui/core/macro';
import { REGION_ROOT, region } from '../../../resources/system/region';
import { crudCalls } from '../../crud/api';
import type { CrudView } from '../../crud/types';

const calls = crudCalls(region);
/** Every region of one parent: lazy-list answers one tree level with full rows (lazy-tree nodes lack sort and remark). */
const levelOf = (parentCode: string) => calls.list({ parentCode }, 'lazy-list').then((page) => page.records);

/** Spec §7 "SMS, OSS and regions": a lazy code tree under 00; level and ancestors are derived by the server. */
export const regionView: CrudView<typeof region> = {
  resource: region,
  list: { call: 'lazy-list', params: { parentCode: REGION_ROOT } },
  tree: { children: (row) => levelOf(String(row.code)) },
  detailBy: 'code',
  fields: [
    { name: 'code', label: msg`区划编号`, required: msg`请输入区划编号`, disabled: (mode) => mode !== 'add', width: 220, sortable: false },
    { name: 'parentCode', label: msg`上级区划`, initial: REGION_ROOT, disabled: true, hideInTable: true },
    { name: 'name', label: msg`区划名称`, required: msg`请输入区划名称`, sortable: false },
    { name: 'regionLevel', label: msg`区划等级`, widget: { type: 'select', dict: 'region' }, hideInForm: true, width: 120, sortable: false },
    { name: 'sort', label: msg`排序`, widget: { type: 'number' }, width: 100, sortable: false },
    { name: 'remark', label: msg`备注`, span: 24, sortable: false },
  ],
  rowActions: [
    {
      key: 'add-child',
      label: msg`新增子项`,
      icon: 'add',
      permission: 'add',
      visible: (row) => Number(row.regionLevel) < 5,
      run: (row, context) => context.openForm('add', undefined, { parentCode: row.code }),
    },
  ],
};
