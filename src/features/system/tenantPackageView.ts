import { msg } from '@lingui/core/macro';
import { tenantPackage } from '../../../resources/system/tenant-package';
import type { CrudView } from '../../crud/types';

/** Spec §2 "Tenant package page", §5 "Tenant package": no view button, page size 10, dialog width 600. */
export const tenantPackageView: CrudView<typeof tenantPackage> = {
  resource: tenantPackage,
  actions: { view: false },
  pageSize: 10,
  dialogWidth: 600,
  fields: [
    { name: 'packageName', label: msg`产品包名`, search: true, required: msg`请输入产品包名称`, span: 24, width: 240 },
    {
      name: 'menuId',
      label: msg`菜单列表`,
      widget: { type: 'tree', source: 'api/blade-system/tenant-package/menu-tree', multiple: true },
      hideInTable: true,
      required: msg`请选择菜单`,
    },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 3 }, width: 320 },
  ],
};
