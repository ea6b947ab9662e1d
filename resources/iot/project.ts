import { z } from 'zod';
import { defineResource, type Resource } from '../define';
import { datetime, decimal, id, int, required, text } from '../fields';
import { REFERENCE_IDS } from './examples';

/** Where a project stands in its life (the base `status` column stays the enable flag). */
export const PROJECT_STATE = { planned: 1, monitoring: 2, paused: 3, finished: 4 } as const;

export const longitude = () => decimal().refine((v) => v >= -180 && v <= 180, '经度应在 -180 到 180 之间');
export const latitude = () => decimal().refine((v) => v >= -90 && v <= 90, '纬度应在 -90 到 90 之间');
/** Where a project, gateway, device or monitor point stands on the map, in degrees; both optional. */
export const coordinates = () => ({ longitude: longitude().nullish(), latitude: latitude().nullish() });
/** The coordinates and the height (elevation) of a device or monitor point. */
export const coordinatesWithElevation = () => ({ ...coordinates(), elevation: decimal().nullish() });
/** A code devices, gateways and sheets are matched by: letters, digits and _ . : - (MQTT client ids too). */
export const code = (missing: string, max = 64) =>
  required(missing, max).regex(/^[A-Za-z0-9_.:-]+$/, '编号只能包含字母、数字和 _ . : -');

/** The key a value travels under in device messages (`{"tilt_x": 0.12}`). */
export const pointKey = () => required('请输入点位标识', 64).regex(/^[A-Za-z][A-Za-z0-9_]*$/, '点位标识以字母开头,只能包含字母、数字和下划线');

/**
 * What removing projects takes out of sight with them (docs/data-model.md "Recycle bin"), counted as the caller sees
 * it: GET project/belongings (server/modules/wit-xinde/project-belongings.ts), shown under the delete confirmation
 * of the project list (src/features/project/RemoveNotice.tsx).
 */
export interface ProjectBelongings {
  projects: number;
  devices: number;
  onlineDevices: number;
  gateways: number;
  devicePoints: number;
  monitorPoints: number;
  thresholds: number;
  alarms: number;
  groups: number;
}

/** Project categories (项目分类): a tree per tenant. */
export const projectCategory = defineResource({
  service: 'wit-xinde',
  name: 'projectcategory',
  menu: 'project_category',
  table: 'wit_project_category',
  tenancy: 'tenant',
  fields: z.object({
    parentId: id().optional(),
    name: required('请输入分类名称', 64),
    code: text(64).nullish(),
    sort: int().nullish(),
    remark: text().nullish(),
  }),
  parentField: 'parentId',
  variants: ['selectlist'],
  orderBy: [{ field: 'sort' }],
  unique: [{ fields: ['parentId', 'name'], message: '同级分类名称已存在' }],
  // Child categories are refused by parentField (请先删除子节点), not by inUse.
  references: { parentId: { to: (): Resource => projectCategory, missing: '上级分类不存在', holds: false } },
  inUse: '分类下还有项目,不能删除',
  example: { parentId: '0', name: '公路桥梁', code: 'highway_bridge', sort: 1 },
});

/** The owner or client a project is run for (项目客户). */
export const projectCustomer = defineResource({
  service: 'wit-xinde',
  name: 'projectcustomer',
  menu: 'project_customer',
  table: 'wit_project_customer',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入客户名称', 128),
    linkman: text(64).nullish(),
    phone: text(32).nullish(),
    address: text().nullish(),
    remark: text().nullish(),
  }),
  unique: [{ fields: ['name'], message: '客户名称已存在' }],
  inUse: '客户下还有项目,不能删除',
  example: { name: '市交通投资集团', linkman: '李工', phone: '13800138000', address: '杭州市西湖区' },
});

/**
 * A monitored structure (项目). Removing it moves it to the recycle bin: it and every row that names it (devices,
 * gateways, monitor points…) leave all lists until `recovery`; `deleteProjectById` purges them.
 */
export const project = defineResource({
  service: 'wit-xinde',
  name: 'project',
  menu: 'project_list',
  table: 'wit_project',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入项目名称', 128),
    code: code('请输入项目编号'),
    categoryId: id().nullish(),
    structureType: int().min(1, '请选择结构类型').nullish(),
    regionCode: text(32).nullish(),
    address: text().nullish(),
    ...coordinates(),
    customerId: id().nullish(),
    projectState: int().min(1).max(4, '项目状态不正确').nullish(),
    startDate: datetime().nullish(),
    endDate: datetime().nullish(),
    ptProjectId: text(64).nullish(),
    remark: text(1000).nullish(),
    /** The wall screen's structure image: the link of an image attachment of the tenant (docs/wall-screen.md). */
    screenImage: text(2000).nullish(),
  }),
  projectField: 'id',
  variants: ['page', 'nopageList', 'select'],
  unique: [{ fields: ['code'], message: '项目编号已存在' }],
  references: {
    categoryId: { to: () => projectCategory, missing: '项目分类不存在', as: 'categoryName' },
    customerId: { to: () => projectCustomer, missing: '项目客户不存在', as: 'customerName' },
  },
  example: { name: '示例大桥健康监测', code: 'EX-BRIDGE', structureType: 1, address: '杭州市', longitude: 120.15, latitude: 30.28, projectState: 2, startDate: '2026-01-01' },
});

/** Which users see which projects: a user with any rows here sees only those projects and what belongs to them. */
export const userProject = defineResource({
  service: 'wit-xinde',
  name: 'userproject',
  menu: 'user_project',
  table: 'wit_user_project',
  tenancy: 'tenant',
  fields: z.object({
    userId: id('请选择用户'),
    projectId: id('请选择项目'),
  }),
  projectField: 'projectId',
  unique: [{ fields: ['userId', 'projectId'], message: '该用户已分配此项目' }],
  references: { projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' } },
  example: { userId: REFERENCE_IDS.adminUser, projectId: REFERENCE_IDS.project },
});
