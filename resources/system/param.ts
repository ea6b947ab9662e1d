import { z } from 'zod';
import { defineResource } from '../define';
import { required, text } from '../fields';

/** The param holding the password of the tenant's SMTP server (server/alarms/channels.ts). */
export const SMTP_PASSWORD_PARAM = 'alarm.smtp.password';

/** Params whose value is a secret the server uses to connect: sealed at rest, answered masked (docs/security.md). */
export const SECRET_PARAM_KEYS: readonly string[] = [SMTP_PASSWORD_PARAM];

/** System parameters (spec §2 "Param page", §5 messages). Each tenant keeps its own. */
export const param = defineResource({
  service: 'blade-system',
  name: 'param',
  menu: 'param',
  table: 'blade_param',
  tenancy: 'tenant',
  fields: z.object({
    paramName: required('请输入参数名称'),
    paramKey: required('请输入参数键名'),
    paramValue: required('请输入参数键值', 65535),
    remark: text().nullish(),
  }),
  unique: [{ fields: ['paramKey'], message: '参数键名已存在' }],
  secretRows: { field: 'paramValue', keyField: 'paramKey', keys: SECRET_PARAM_KEYS },
  example: { paramName: '告警声音', paramKey: 'alarm.sound', paramValue: 'on', remark: '控制台告警提示音' },
});
