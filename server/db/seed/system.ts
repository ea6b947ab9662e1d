import { hashPassword } from '../../auth/passwords';
import { ADMINISTRATOR, PLATFORM_TENANT } from '../../auth/principal';
import type { Db, Row } from '../database';
import { DICTIONARIES } from './dictionaries';
import { seedId } from './ids';
import { MENUS, type MenuSeed, STANDARD_BUTTONS } from './menus';
import { insertRows } from './write';

export const DEMO_TENANT = '100001';
export const INIT_PASSWORD_PARAM = 'account.initPassword';
export const DEFAULT_INIT_PASSWORD = 'Vigil@123456';

/** Menus only the platform administrator manages; other tenants' packages and roles never get them. */
export const PLATFORM_MENU_CODES = new Set(['tenant', 'tenant_package', 'client', 'menu', 'dict', 'code', 'datasource', 'region', 'data_scope', 'api_scope']);

function menuRows(): { menus: Row[]; platformIds: Set<string> } {
  const menus: Row[] = [];
  const platformIds = new Set<string>();
  const walk = (items: readonly MenuSeed[], parentId: string, platform: boolean) => {
    items.forEach((item, index) => {
      const id = seedId(`menu:${item.code}`);
      const isPlatform = platform || PLATFORM_MENU_CODES.has(item.code);
      if (isPlatform) platformIds.add(id);
      menus.push({ id, parentId, code: item.code, name: item.name, alias: 'menu', path: item.path, source: item.source ?? null, sort: index + 1, category: 1, action: 0, isOpen: 1 });
      if (item.children) {
        walk(item.children, id, isPlatform);
        return;
      }
      const buttons = [...(item.readOnly ? [] : STANDARD_BUTTONS), ...(item.buttons ?? []).map(([code, name]) => [code, name, 2] as const)];
      buttons.forEach(([suffix, name, action], i) => {
        const buttonId = seedId(`menu:${item.code}_${suffix}`);
        if (isPlatform) platformIds.add(buttonId);
        menus.push({ id: buttonId, parentId: id, code: `${item.code}_${suffix}`, name, alias: suffix, path: `${item.path}/${suffix}`, sort: i + 1, category: 2, action, isOpen: 1 });
      });
    });
  };
  walk(MENUS, '0', false);
  return { menus, platformIds };
}

function dictionaryRows(): Row[] {
  const rows: Row[] = [];
  DICTIONARIES.forEach(([code, name, entries], index) => {
    const parentId = seedId(`dict:${code}`);
    rows.push({ id: parentId, parentId: '0', code, dictKey: '-1', dictValue: name, sort: index + 1, isSealed: 0 });
    entries.forEach(([key, value], i) => {
      rows.push({ id: seedId(`dict:${code}:${key}`), parentId, code, dictKey: key, dictValue: value, sort: i + 1, isSealed: 0 });
    });
  });
  return rows;
}

interface TenantSeed {
  tenantId: string;
  tenantName: string;
  roleName: string;
  deptName: string;
  /** Menu ids its administrator role is granted. */
  menuIds: string[];
  packageId?: string;
}

async function seedTenant(db: Db, tenant: TenantSeed, adminPassword: string): Promise<void> {
  const { tenantId } = tenant;
  const roleId = seedId(`role:${tenantId}:administrator`);
  const deptId = seedId(`dept:${tenantId}:root`);
  const postId = seedId(`post:${tenantId}:ceo`);
  await insertRows(db, 'blade_tenant', [{ id: seedId(`tenant:${tenantId}`), tenantId, tenantName: tenant.tenantName, linkman: 'admin', accountNumber: -1, packageId: tenant.packageId ?? null }]);
  await insertRows(db, 'blade_dept', [{ id: deptId, tenantId, parentId: '0', ancestors: '0', deptCategory: 1, deptName: tenant.deptName, fullName: tenant.deptName, sort: 1 }]);
  await insertRows(db, 'blade_post', [{ id: postId, tenantId, category: 1, postCode: 'ceo', postName: '首席执行官', sort: 1 }]);
  await insertRows(db, 'blade_role', [{ id: roleId, tenantId, parentId: '0', roleName: tenant.roleName, roleAlias: ADMINISTRATOR, sort: 1 }]);
  await insertRows(db, 'blade_user', [
    { id: seedId(`user:${tenantId}:admin`), tenantId, code: 'admin', userType: 1, account: 'admin', password: adminPassword, name: '管理员', realName: '管理员', roleId, deptId, postId, sex: 1 },
  ]);
  await insertRows(db, 'blade_role_menu', tenant.menuIds.map((menuId) => ({ id: seedId(`role_menu:${roleId}:${menuId}`), roleId, menuId })), false);
  await insertRows(db, 'blade_param', [
    { id: seedId(`param:${tenantId}:${INIT_PASSWORD_PARAM}`), tenantId, paramName: '账号初始密码', paramKey: INIT_PASSWORD_PARAM, paramValue: DEFAULT_INIT_PASSWORD, remark: '重置密码时使用' },
  ]);
}

/**
 * Seed step 0001_system: OAuth clients, the menu tree, dictionaries, the standard package, and the platform and demo
 * tenants with their department, post, administrator role (granted every menu its tenant may have), administrator
 * and initial-password parameter. It runs on an empty store only (server/db/seed.ts).
 */
export async function seedSystem(db: Db): Promise<void> {
  await insertRows(db, 'blade_client', [
    { id: seedId('client:saber'), clientId: 'saber', clientSecret: 'saber_secret', scope: 'all', authorizedGrantTypes: 'refresh_token,password,captcha,social', accessTokenValidity: 3600, refreshTokenValidity: 604800 },
    { id: seedId('client:sword'), clientId: 'sword', clientSecret: 'sword_secret', scope: 'all', authorizedGrantTypes: 'refresh_token,password,captcha,social', accessTokenValidity: 3600, refreshTokenValidity: 604800 },
  ]);
  const { menus, platformIds } = menuRows();
  await insertRows(db, 'blade_menu', menus);
  await insertRows(db, 'blade_dict', dictionaryRows());
  const adminPassword = await hashPassword('admin');
  const allMenus = menus.map((m) => m.id as string);
  const tenantMenus = allMenus.filter((id) => !platformIds.has(id));
  await insertRows(db, 'blade_tenant_package', [{ id: seedId('package:standard'), packageName: '标准产品包', menuId: tenantMenus.join(','), remark: '除平台管理外的全部模块' }]);
  await seedTenant(db, { tenantId: PLATFORM_TENANT, tenantName: '管理组', roleName: '超级管理员', deptName: 'Vigil', menuIds: allMenus }, adminPassword);
  await seedTenant(db, { tenantId: DEMO_TENANT, tenantName: '演示租户', roleName: '租户管理员', deptName: '演示工程公司', menuIds: tenantMenus, packageId: seedId('package:standard') }, adminPassword);
}
