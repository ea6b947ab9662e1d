import { hashPassword } from '../../auth/passwords';
import { nextId } from '../../ids';
import type { Db } from '../database';
import { seedId } from './ids';
import { DEMO_TENANT } from './system';
import { insertMissing } from './write';

export const OPERATOR_ACCOUNT = 'operator';
export const OPERATOR_PASSWORD = 'Operator@2026';

/**
 * What the demo tenant's duty operator works with (docs/authorisation.md): the live debug and history of devices and
 * gateways, the alarms to handle, the monitoring data — to watch, not to configure. Menus, then their buttons.
 */
export const OPERATOR_MENUS: readonly string[] = [
  'project', 'project_list',
  'device', 'device_list', 'device_list_view', 'device_list_debug', 'device_list_chart', 'gateway', 'gateway_view', 'gateway_debug', 'gateway_state',
  'monitor', 'monitor_point', 'monitor_point_view',
  'alarm', 'alarm_list', 'alarm_list_view', 'alarm_list_handle', 'device_threshold', 'device_threshold_view',
  'data', 'device_log', 'device_log_view', 'collect_data',
];

/**
 * Step 0004: the demo tenant's 值班员 role and its user `operator`, so the demo shows a user who is not an
 * administrator. Added by natural key; nothing when the demo tenant was purged.
 */
export async function seedOperator(db: Db): Promise<void> {
  const tenant = await db.selectFrom('blade_tenant').select('id').where('tenantId', '=', DEMO_TENANT).where('isDeleted', '=', 0).executeTakeFirst();
  if (!tenant) return;
  const roles = await insertMissing(db, 'blade_role', ['tenantId', 'roleAlias'], [
    { id: seedId(`role:${DEMO_TENANT}:operator`), tenantId: DEMO_TENANT, parentId: '0', roleName: '值班员', roleAlias: 'operator', sort: 2 },
  ]);
  const roleId = roles.get(DEMO_TENANT, 'operator') as string;
  const menus = await db.selectFrom('blade_menu').select(['id', 'code']).where('code', 'in', [...OPERATOR_MENUS]).where('isDeleted', '=', 0).execute();
  await insertMissing(db, 'blade_role_menu', ['roleId', 'menuId'], menus.map((m) => ({ id: nextId(), roleId, menuId: m.id })), false);
  await insertMissing(db, 'blade_user', ['tenantId', 'account'], [
    {
      id: seedId(`user:${DEMO_TENANT}:${OPERATOR_ACCOUNT}`), tenantId: DEMO_TENANT, code: OPERATOR_ACCOUNT, userType: 1, account: OPERATOR_ACCOUNT,
      password: await hashPassword(OPERATOR_PASSWORD), name: '值班员', realName: '值班员', roleId,
      deptId: seedId(`dept:${DEMO_TENANT}:root`), sex: 1,
    },
  ]);
}
