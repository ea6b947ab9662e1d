import { readFileSync } from 'node:fs';
import { hashPassword } from '../../auth/passwords';
import { serverFile } from '../../files';
import { HEAD_POST } from '../../flow/directory';
import { nextId } from '../../ids';
import { formatDateTime } from '../../time';
import type { Db } from '../database';
import { addMenuButtons } from './buttons';
import { seedId } from './ids';
import { FLOW_FOLLOW_BUTTONS } from './menus';
import { DEMO_TENANT } from './system';
import { insertMissing } from './write';

/** The processes every tenant starts with (server/flow/processes): the spec's leave request and alarm disposal. */
export const SEEDED_PROCESSES = [
  { key: 'leave', file: 'leave.bpmn20.xml', name: '请假流程', category: 'flow_leave', description: '请假申请与审批' },
  { key: 'alarm_disposal', file: 'alarm_disposal.bpmn20.xml', name: '告警处置', category: 'flow_alarm', description: '告警确认、现场核查、复核与关闭' },
] as const;

/** The routes of the dictionary `flow` (spec §3 "Flow route"): `flow_<dictKey>` opens /work/process/<remark>/…. */
const FLOW_ROUTES: ReadonlyArray<readonly [key: string, name: string, route: string]> = [
  ['leave', '请假流程', 'leave'],
  ['alarm', '告警处置', 'alarm'],
];

/** The demo tenant's staff who take part in processes: an engineer and his department head (README). */
export const DEMO_STAFF_PASSWORD = 'Vigil@2026';
const ENGINEER_MENUS = [
  'desk', 'notice',
  'work', 'work_start', 'work_claim', 'work_todo', 'work_send', 'work_done',
  'project', 'project_list',
  'monitor', 'monitor_point', 'monitor_point_view',
  'alarm', 'alarm_list', 'alarm_list_view', 'alarm_list_handle',
  'data', 'device_log', 'device_log_view',
];
/** The duty operator takes part in alarm disposal. */
export const OPERATOR_WORK_MENUS = ['work', 'work_claim', 'work_todo', 'work_send', 'work_done'];

/** A seeded process's document (server/flow/processes/). */
export const processXml = (file: string): string => readFileSync(serverFile(`flow/processes/${file}`), 'utf8');

/**
 * Step 0008: workflow (docs/workflow.md). The 流程跟踪 menu's 删除 button; the routes of the dictionary `flow`; the
 * leave and alarm-disposal processes, deployed as version 1 and kept as models, in every live tenant; in the demo
 * tenant a monitoring department with an engineer (zhangsan) and its head (lisi), the operator's work menus, and red
 * alarms disposed of through the process (param `alarm.flow.1`).
 */
export async function seedWorkflow(db: Db): Promise<void> {
  await addMenuButtons(db, 'flow_follow', FLOW_FOLLOW_BUTTONS.map(([suffix, name]) => [suffix, name, 2] as const));
  await seedFlowRoutes(db);
  const tenants = await db.selectFrom('blade_tenant').select('tenantId').where('isDeleted', '=', 0).execute();
  for (const { tenantId } of tenants) if (tenantId) await seedProcesses(db, tenantId);
  if (tenants.some((t) => t.tenantId === DEMO_TENANT)) await seedDemoStaff(db);
}

async function seedFlowRoutes(db: Db): Promise<void> {
  const parent = await db.selectFrom('blade_dict').select('id').where('code', '=', 'flow').where('parentId', '=', '0').where('isDeleted', '=', 0).executeTakeFirst();
  if (!parent) return;
  await insertMissing(
    db,
    'blade_dict',
    ['code', 'dictKey'],
    FLOW_ROUTES.map(([key, name, route], i) => ({ id: seedId(`dict:flow:${key}`), parentId: parent.id, code: 'flow', dictKey: key, dictValue: name, remark: route, sort: i + 1, isSealed: 0 })),
  );
  // Entries seeded before they had a route get theirs; one an administrator gave stays.
  for (const [key, , route] of FLOW_ROUTES) {
    await db.updateTable('blade_dict').set({ remark: route }).where('code', '=', 'flow').where('dictKey', '=', key).where((eb) => eb.or([eb('remark', 'is', null), eb('remark', '=', '')])).execute();
  }
}

async function seedProcesses(db: Db, tenantId: string): Promise<void> {
  const now = formatDateTime();
  const models = SEEDED_PROCESSES.map((p) => ({
    id: seedId(`wf_model:${tenantId}:${p.key}`),
    tenantId,
    modelKey: p.key,
    name: p.name,
    description: p.description,
    category: p.category,
    xml: processXml(p.file),
    version: 1,
    deployedVersion: 1,
  }));
  const modelIds = await insertMissing(db, 'wf_model', ['tenantId', 'modelKey'], models);
  await insertMissing(
    db,
    'wf_definition',
    ['tenantId', 'processKey', 'version'],
    SEEDED_PROCESSES.map((p) => ({
      id: seedId(`wf_definition:${tenantId}:${p.key}:1`),
      tenantId,
      processKey: p.key,
      name: p.name,
      version: 1,
      category: p.category,
      description: p.description,
      resourceName: p.file,
      xml: processXml(p.file),
      suspensionState: 1,
      modelId: modelIds.get(tenantId, p.key) ?? null,
      deployTime: now,
    })),
  );
}

async function seedDemoStaff(db: Db): Promise<void> {
  const tenantId = DEMO_TENANT;
  const root = seedId(`dept:${tenantId}:root`);
  const depts = await insertMissing(db, 'blade_dept', ['tenantId', 'deptName'], [
    { id: seedId(`dept:${tenantId}:monitoring`), tenantId, parentId: root, ancestors: `0,${root}`, deptCategory: 2, deptName: '监测部', fullName: '监测部', sort: 2 },
  ]);
  const posts = await insertMissing(db, 'blade_post', ['tenantId', 'postCode'], [
    { id: seedId(`post:${tenantId}:${HEAD_POST}`), tenantId, category: 2, postCode: HEAD_POST, postName: '部门经理', sort: 2 },
  ]);
  const roles = await insertMissing(db, 'blade_role', ['tenantId', 'roleAlias'], [
    { id: seedId(`role:${tenantId}:engineer`), tenantId, parentId: '0', roleName: '监测工程师', roleAlias: 'engineer', sort: 3 },
  ]);
  const engineer = roles.get(tenantId, 'engineer') as string;
  const operator = (await db.selectFrom('blade_role').select('id').where('tenantId', '=', tenantId).where('roleAlias', '=', 'operator').where('isDeleted', '=', 0).executeTakeFirst())?.id;
  const menus = await db.selectFrom('blade_menu').select(['id', 'code']).where('code', 'in', [...ENGINEER_MENUS, ...OPERATOR_WORK_MENUS]).where('isDeleted', '=', 0).execute();
  const grant = (roleId: string, codes: readonly string[]) => menus.filter((m) => codes.includes(m.code)).map((m) => ({ id: nextId(), roleId, menuId: m.id }));
  await insertMissing(db, 'blade_role_menu', ['roleId', 'menuId'], [...grant(engineer, ENGINEER_MENUS), ...(operator ? grant(operator, OPERATOR_WORK_MENUS) : [])], false);

  const password = await hashPassword(DEMO_STAFF_PASSWORD);
  const dept = depts.get(tenantId, '监测部') as string;
  const manager = posts.get(tenantId, HEAD_POST) as string;
  await insertMissing(db, 'blade_user', ['tenantId', 'account'], [
    { id: seedId(`user:${tenantId}:lisi`), tenantId, code: 'lisi', userType: 1, account: 'lisi', password, name: '李四', realName: '李四', roleId: engineer, deptId: dept, postId: manager, sex: 1 },
    { id: seedId(`user:${tenantId}:zhangsan`), tenantId, code: 'zhangsan', userType: 1, account: 'zhangsan', password, name: '张三', realName: '张三', roleId: engineer, deptId: dept, sex: 1 },
  ]);
  // Red alarms are disposed of through the process (docs/alarms.md "Disposal").
  await insertMissing(db, 'blade_param', ['tenantId', 'paramKey'], [
    { id: seedId(`param:${tenantId}:alarm.flow.1`), tenantId, paramName: '红色告警处置流程', paramKey: 'alarm.flow.1', paramValue: 'alarm_disposal', remark: '该等级的告警产生时发起此流程(流程标识)' },
  ]);
}
