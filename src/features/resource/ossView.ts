import { msg } from '@lingui/core/macro';
import { oss } from '../../../resources/resource/oss';
import { crudCalls } from '../../crud/api';
import type { CrudView } from '../../crud/types';
import { enableAction, statusTag } from './configs';

/** Spec §7 "SMS, OSS and regions": storage configs; the server checks an S3 config's address, keys and bucket. */
export const ossView: CrudView<typeof oss> = {
  resource: oss,
  dialogWidth: 880,
  fields: [
    { name: 'category', label: msg`分类`, widget: { type: 'select', dict: 'oss' }, search: true, required: msg`请选择分类`, width: 140 },
    { name: 'ossCode', label: msg`资源编号`, search: true, required: msg`请输入资源编号`, width: 140 },
    { name: 'endpoint', label: msg`资源地址`, width: 220 },
    { name: 'accessKey', label: msg`accessKey`, hideInTable: true },
    // Write-only: the API never returns it; an edit that leaves it blank keeps the stored one.
    { name: 'secretKey', label: msg`secretKey(编辑时留空不修改)`, widget: { type: 'password' }, hideInTable: true, keepIfBlank: (mode) => mode === 'edit', hideInForm: (mode) => mode === 'view' },
    { name: 'bucketName', label: msg`空间名`, width: 140 },
    { name: 'region', label: msg`区域`, hideInTable: true },
    { name: 'remark', label: msg`备注`, span: 24, width: 160 },
    { name: 'status', label: msg`是否启用`, hideInForm: true, cell: statusTag, width: 100 },
  ],
  rowActions: [enableAction(crudCalls(oss).base)],
};
