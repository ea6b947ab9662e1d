import { msg } from '@lingui/core/macro';
import { param } from '../../../resources/system/param';
import type { CrudView } from '../../crud/types';

/** Spec §2 "Param page", §5 "Param form". */
export const paramView: CrudView<typeof param> = {
  resource: param,
  dateRange: true,
  fields: [
    { name: 'paramName', label: msg`参数名称`, search: true, required: msg`请输入参数名称` },
    { name: 'paramKey', label: msg`参数键名`, search: true, required: msg`请输入参数键名` },
    { name: 'paramValue', label: msg`参数键值`, widget: { type: 'textarea', rows: 6 }, required: msg`请输入参数键值`, width: 240 },
    { name: 'remark', label: msg`备注`, span: 24 },
  ],
};
