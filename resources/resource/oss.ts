import { z } from 'zod';
import { defineResource } from '../define';
import { required, text } from '../fields';

/** Storage categories (dictionary 'oss'). */
export const OSS_CATEGORY = { local: 1, s3: 2 } as const;

/** A config row is in use when its status is 2 (BladeX: 1 disabled, 2 enabled); at most one per tenant. */
export const ENABLED = 2;
export const DISABLED = 1;

/**
 * Object storage configs (spec §7 "SMS, OSS and regions"). Local storage keeps files under the server's data
 * directory and needs no address; S3-compatible storage needs endpoint, keys and bucket (checked on save). The secret
 * key is write-only: never answered, kept when an edit leaves it blank (server/modules/blade-resource/configs.ts).
 */
export const oss = defineResource({
  service: 'blade-resource',
  name: 'oss',
  menu: 'oss',
  table: 'blade_oss',
  tenancy: 'tenant',
  fields: z.object({
    category: z.coerce.number<unknown>({ error: '请选择分类' }).int('请选择分类').min(1, '请选择分类').max(2, '请选择分类'),
    ossCode: required('请输入资源编号', 64),
    endpoint: text(1000).nullish(),
    accessKey: text().nullish(),
    secretKey: text().nullish(),
    bucketName: text().nullish(),
    appId: text().nullish(),
    region: text().nullish(),
    remark: text().nullish(),
  }),
  // The S3 secret key signs every request; the access key id is sent in clear in each one (an identifier) and stays shown.
  hidden: ['secretKey'],
  secrets: ['secretKey'],
  unique: [{ fields: ['ossCode'], message: '资源编号已存在' }],
  example: { category: OSS_CATEGORY.local, ossCode: 'local', remark: '本地存储' },
});
