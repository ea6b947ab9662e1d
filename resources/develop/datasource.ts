import { z } from 'zod';
import { defineResource } from '../define';
import { required, text } from '../fields';

/** Data sources tenants may be bound to (platform configuration); the password never leaves the server. */
export const datasource = defineResource({
  service: 'blade-develop',
  name: 'datasource',
  menu: 'datasource',
  table: 'blade_datasource',
  tenancy: 'platform',
  fields: z.object({
    name: required('请输入名称'),
    driverClass: required('请输入驱动类'),
    url: required('请输入连接地址', 1000),
    username: required('请输入用户名'),
    // Required on insert only (checked on save): an edit that leaves it blank keeps the stored one.
    password: text().nullish(),
    remark: text().nullish(),
  }),
  hidden: ['password'],
  secrets: ['password'],
  unique: [{ fields: ['name'], message: '数据源名称已存在' }],
  example: { name: 'reporting', driverClass: 'org.postgresql.Driver', url: 'jdbc:postgresql://127.0.0.1:5432/reporting', username: 'report', password: 'secret-pass' },
});
