import { msg } from '@lingui/core/macro';
import { sms } from '../../../resources/resource/sms';
import { crudCalls, type Row } from '../../crud/api';
import type { CrudView } from '../../crud/types';
import { enableAction, statusTag } from './configs';

/** Spec §7 "SMS, OSS and regions": SMS configs; `sendTest` opens the 发送测试 dialog of a row. */
export function smsView(sendTest: (row: Row) => void): CrudView<typeof sms> {
  return {
    resource: sms,
    dialogWidth: 880,
    fields: [
      { name: 'category', label: msg`分类`, widget: { type: 'select', dict: 'sms' }, search: true, required: msg`请选择分类`, width: 120 },
      { name: 'smsCode', label: msg`资源编号`, search: true, required: msg`请输入资源编号`, width: 140 },
      { name: 'templateId', label: msg`模板ID`, search: true, required: msg`请输入模板ID`, width: 140 },
      { name: 'endpoint', label: msg`网关地址`, width: 220 },
      { name: 'accessKey', label: msg`accessKey`, hideInTable: true },
      // Write-only: the API never returns it; an edit that leaves it blank keeps the stored one.
      { name: 'secretKey', label: msg`secretKey(编辑时留空不修改)`, widget: { type: 'password' }, hideInTable: true, keepIfBlank: (mode) => mode === 'edit', hideInForm: (mode) => mode === 'view' },
      { name: 'regionId', label: msg`regionId`, hideInTable: true },
      { name: 'signName', label: msg`短信签名`, width: 120 },
      { name: 'remark', label: msg`备注`, span: 24, width: 140 },
      { name: 'status', label: msg`是否启用`, hideInForm: true, cell: statusTag, width: 100 },
    ],
    rowActions: [
      enableAction(crudCalls(sms).base),
      { key: 'send', label: msg`发送测试`, icon: 'send-message', permission: 'send', run: (row) => sendTest(row) },
    ],
  };
}
