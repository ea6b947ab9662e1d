import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { tenant } from '../../../resources/system/tenant';
import type { Row } from '../../crud/api';
import type { CrudView, FieldName, FieldView, RowAction } from '../../crud/types';

type TenantField = FieldView<FieldName<typeof tenant>>;

/** The dialogs a tenant row opens. */
export type TenantDialog = 'setting' | 'datasource' | 'package';

const columns: readonly TenantField[] = [
  { name: 'tenantId', label: msg`租户ID`, search: true, width: 90, disabled: (mode) => mode !== 'add' },
  { name: 'tenantName', label: msg`租户名称`, search: true, required: msg`请输入租户名称`, width: 160 },
  { name: 'linkman', label: msg`联系人`, search: true, width: 90 },
  { name: 'contactNumber', label: msg`联系电话`, width: 120 },
  { name: 'address', label: msg`联系地址`, span: 24, width: 160 },
  // Set through 授权配置 (tenant/setting), like BladeX: shown, not edited in the form.
  { name: 'accountNumber', label: msg`账号额度`, hideInForm: true, width: 90, cell: (row) => (Number(row.accountNumber ?? -1) === -1 ? i18n._(msg`不限`) : String(row.accountNumber)) },
  { name: 'expireTime', label: msg`过期时间`, hideInForm: true, width: 160 },
  { name: 'domain', label: msg`绑定域名`, span: 24, width: 160 },
  { name: 'backgroundUrl', label: msg`系统背景`, widget: { type: 'upload', accept: 'image' }, width: 100, sortable: false },
];

/** A tenant of the recycle bin whose purge has begun (tenant/recovery's `purging`: it cannot be restored). */
export const isPurging = (row: Row): boolean => Number(row.purging ?? 0) === 1;

/** How far a purge got: rows deleted so far, and whether its last run stopped short (it resumes at the next start). */
export function purgeProgress(row: Row): string {
  if (!isPurging(row)) return '';
  const deleted = Number(row.purgeDeleted ?? 0).toLocaleString();
  return row.purgeError ? i18n._(msg`已中断: 已删除 ${deleted} 行`) : i18n._(msg`删除中: 已删除 ${deleted} 行`);
}

/** The recycle bin: deleted tenants (tenant/recovery), restored or purged one by one; a purge under way shows its progress. */
export function recycleBinView(restore: RowAction['run'], purge: RowAction['run']): CrudView<typeof tenant> {
  return {
    resource: tenant,
    list: { call: 'recovery' },
    actions: { view: false, add: false, edit: false, delete: false },
    fields: [
      ...columns.filter((f) => ['tenantId', 'tenantName', 'linkman', 'contactNumber', 'expireTime'].includes(f.name)),
      { name: 'purgeDeleted', label: msg`彻底删除进度`, derived: true, hideInForm: true, width: 180, sortable: false, cell: purgeProgress },
    ],
    rowActions: [
      { key: 'restore', label: msg`恢复`, icon: 'history', permission: 'recovery', run: restore, visible: (row) => !isPurging(row) },
      // On a tenant whose purge stopped short: resumes it.
      { key: 'purge', label: msg`彻底删除`, icon: 'delete', permission: 'recovery', run: purge },
    ],
  };
}

/** Tenants (/system/tenant), platform administrator only; `open` shows a dialog, `recycleBin` the deleted tenants. */
export function tenantView(open: (dialog: TenantDialog, row: Row, refresh: () => void) => void, recycleBin: (refresh: () => void) => void): CrudView<typeof tenant> {
  return {
    resource: tenant,
    dialogWidth: 800,
    fields: columns,
    rowActions: [
      { key: 'setting', label: msg`授权配置`, icon: 'key', permission: 'setting', run: (row, context) => open('setting', row, context.refresh) },
      { key: 'datasource', label: msg`数据源`, icon: 'database', permission: 'datasource', run: (row, context) => open('datasource', row, context.refresh) },
      { key: 'package', label: msg`产品包配置`, icon: 'box', permission: 'package_setting', run: (row, context) => open('package', row, context.refresh) },
    ],
    toolbarActions: [{ key: 'recovery', label: msg`回收站`, icon: 'trash', permission: 'recovery', run: (context) => recycleBin(context.refresh) }],
  };
}
