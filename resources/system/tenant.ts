import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, id, int, required, text } from '../fields';

/**
 * Tenants (platform tenancy: only the platform administrator reads or writes them). `tenantId` is the 6-digit
 * code every tenant-owned row carries; generated as the next free number when a new tenant is submitted without one.
 */
export const tenant = defineResource({
  service: 'blade-system',
  name: 'tenant',
  menu: 'tenant',
  table: 'blade_tenant',
  tenancy: 'platform',
  fields: z.object({
    tenantId: z.string().regex(/^\d{6}$/, '租户编号应为6位数字').nullish(),
    tenantName: required('请输入租户名称'),
    domain: text().nullish(),
    backgroundUrl: text(1000).nullish(),
    linkman: text().nullish(),
    contactNumber: text().nullish(),
    address: text().nullish(),
    accountNumber: int().min(-1, '账号额度应为-1(不限)或正整数').nullish(),
    expireTime: datetime().nullish(),
    packageId: id().nullish(),
    datasourceId: id().nullish(),
    licenseKey: text(65535).nullish(),
  }),
  variants: ['page'],
  orderBy: [{ field: 'tenantId' }],
  example: { tenantName: '示例桥梁公司', linkman: '张工', contactNumber: '13800138000', address: '杭州市', accountNumber: -1 },
});
