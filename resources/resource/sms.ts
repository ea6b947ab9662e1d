import { z } from 'zod';
import { defineResource } from '../define';
import { required, text } from '../fields';

/** SMS categories (dictionary 'sms'): an HTTP gateway receiving JSON, or output to the usual log only. */
export const SMS_CATEGORY = { http: 1, log: 2 } as const;

/**
 * SMS configs (spec §7 "SMS, OSS and regions"); one per tenant is enabled (status 2) and sends every message.
 * An HTTP gateway needs its endpoint (checked on save). The secret key is write-only: never answered, kept when an
 * edit leaves it blank (server/modules/blade-resource/configs.ts).
 */
export const sms = defineResource({
  service: 'blade-resource',
  name: 'sms',
  menu: 'sms',
  table: 'blade_sms',
  tenancy: 'tenant',
  fields: z.object({
    category: z.coerce.number<unknown>({ error: '请选择分类' }).int('请选择分类').min(1, '请选择分类').max(2, '请选择分类'),
    smsCode: required('请输入资源编号', 64),
    templateId: required('请输入模板ID'),
    endpoint: text(1000).regex(/^https?:\/\//, '地址必须以 http 或 https 开头').nullish().or(z.literal('')),
    accessKey: text().nullish(),
    secretKey: text().nullish(),
    regionId: text().nullish(),
    signName: text().nullish(),
    remark: text().nullish(),
  }),
  // The secret key signs every message; the access key is sent in clear in each body (an identifier) and stays shown.
  hidden: ['secretKey'],
  secrets: ['secretKey'],
  unique: [{ fields: ['smsCode'], message: '资源编号已存在' }],
  example: { category: SMS_CATEGORY.log, smsCode: 'log', templateId: 'SMS_0001', signName: 'Vigil', remark: '日志输出' },
});
