import { z } from 'zod';
import { defineResource } from '../define';
import { int, text } from '../fields';

/** Who an MQTT identity speaks for; decides its default topic rights (docs/mqtt.md). */
export const MQTT_CLIENT_TYPE = { device: 1, gateway: 2, application: 3 } as const;
export const MQTT_ACTION = { subscribe: 1, publish: 2, both: 3 } as const;

const clientType = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '请选择客户端类型' });

/**
 * Broker identities (spec §1 "MQTT users"). The username is unique on the whole broker; the password is stored as a
 * salted hash. A device or gateway identity is bound to its code through clientId.
 */
export const mqttUser = defineResource({
  service: 'wit-xinde',
  name: 'mqttuser',
  menu: 'mqtt_user',
  table: 'wit_mqtt_user',
  tenancy: 'tenant',
  fields: z.object({
    username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(64).regex(/^[A-Za-z0-9_.:-]+$/, '用户名只能包含字母、数字和 _ . : -'),
    password: z.string({ error: '请输入密码' }).min(8, '密码至少8位').max(128),
    clientType,
    clientId: z.string().trim().max(64).regex(/^[A-Za-z0-9_.:-]*$/, '客户端编号只能包含字母、数字和 _ . : -').nullish(),
    isSuperuser: int().min(0).max(1).optional(),
    remark: text().nullish(),
  }),
  hidden: ['password'],
  unique: [{ fields: ['username'], message: 'MQTT用户名已存在', acrossTenants: true }],
  example: { username: 'gw-demo-01', password: 'Gateway#Secret01', clientType: 2, clientId: 'GW-DEMO-01', remark: '演示网关' },
});

/** Extra topic rules (allow or deny) on top of the defaults of the identity's type. */
export const mqttAcl = defineResource({
  service: 'wit-xinde',
  name: 'mqttacl',
  menu: 'mqtt_acl',
  table: 'wit_mqtt_acl',
  tenancy: 'tenant',
  fields: z.object({
    username: z.string().trim().max(64).nullish(),
    topic: z.string({ error: '请输入主题' }).trim().min(1, '请输入主题').max(255).refine((t) => !t.includes('\u0000'), '主题不合法'),
    action: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: '请选择操作' }),
    allow: int().min(0).max(1),
    sort: int().optional(),
    remark: text().nullish(),
  }),
  orderBy: [{ field: 'sort' }],
  example: { username: 'gw-demo-01', topic: 'vigil/%t/gateway/%c/debug', action: 2, allow: 1, sort: 1, remark: '调试主题' },
});
