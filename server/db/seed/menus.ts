import type { Db } from '../database';

/**
 * The seeded menu tree: one entry per module of the spec. Menu codes are the i18n keys the console translates;
 * leaves get the standard buttons (`<code>_add`, `_edit`, `_delete`, `_view`) plus their own.
 * The console shows only menus whose screen it has, so a module appears once it is built.
 */
export interface MenuSeed {
  code: string;
  name: string;
  path: string;
  source?: string;
  /** Buttons beyond the standard four, as [code suffix, name]. */
  buttons?: ReadonlyArray<readonly [string, string]>;
  /** Leaves without the standard buttons (read-only screens). */
  readOnly?: boolean;
  children?: readonly MenuSeed[];
}

/**
 * Each leaf's own icon (Blueprint icon names; the console bundles exactly these, src/ui/icons.ts), so that a collapsed
 * sidebar, which shows icons only, tells the screens apart.
 */
export const LEAF_ICONS: Readonly<Record<string, string>> = {
  notice: 'notifications',
  project_list: 'projects', project_category: 'tag', project_customer: 'people', user_project: 'person',
  device_list: 'list', device_type: 'cube', device_model: 'box', device_point: 'pin', gateway: 'cell-tower', gateway_state: 'pulse',
  protocol_list: 'th-list', protocol_modbus: 'code-block', model_agreement: 'link', temperature_coefficient: 'temperature',
  monitor_type: 'layers', monitor_factors: 'variable', monitor_point: 'map-marker', monitor_item: 'th',
  device_threshold: 'settings', alarm_list: 'error', alarm_recipient: 'people', alarm_strategy: 'notifications-updated', alarm_send_log: 'send-message',
  collect_data: 'database', collect_strategy: 'time', collect_calculation_log: 'calculator', device_log: 'timeline-line-chart', api_send_log: 'send-to',
  data_comparison: 'comparison',
  mqtt_user: 'person', mqtt_acl: 'key', mqtt_param: 'cog', tenant_project: 'send-to-graph',
  third_project: 'link', third_param: 'settings',
  report_rules: 'manual', report_factors: 'variable', report_item: 'th-list', report_designer: 'edit',
  pl_line: 'route', pl_monitor_point: 'map-marker', pl_device: 'camera', pl_check_plan: 'calendar', pl_check_record: 'clipboard', pl_work_order: 'wrench',
  screen: 'dashboard',
  work_start: 'add', work_claim: 'hand-up', work_todo: 'inbox', work_send: 'export', work_done: 'tick-circle',
  flow_model: 'diagram-tree', flow_deploy: 'upload', flow_follow: 'path-search',
  user: 'person', dept: 'office', post: 'id-number', dict: 'book', dictbiz: 'manual', menu: 'menu', topmenu: 'menu-open', param: 'properties',
  tenant: 'globe-network', tenant_package: 'box', client: 'application', region: 'map', role: 'people', data_scope: 'filter', api_scope: 'key',
  log_usual: 'history', log_api: 'exchange', log_error: 'error',
  oss: 'cloud', sms: 'chat', attach: 'paperclip', code: 'code', datasource: 'database',
};

/** 流程跟踪 is read-only but for ending an instance (seed step 0008 adds it to stores seeded before). */
export const FLOW_FOLLOW_BUTTONS: ReadonlyArray<readonly [string, string]> = [['delete', '删除']];

/** The buttons of 监测大屏 beyond the standard four (seed step 0006 adds all five to stores seeded before). */
export const SCREEN_BUTTONS: ReadonlyArray<readonly [string, string]> = [['layout', '布局']];

const leaf = (code: string, name: string, path: string, extra: Partial<MenuSeed> = {}): MenuSeed => ({ code, name, path, source: LEAF_ICONS[code], ...extra });

export const MENUS: readonly MenuSeed[] = [
  {
    code: 'desk', name: '工作台', path: '/desk', source: 'desktop',
    children: [leaf('notice', '通知公告', '/desk/notice')],
  },
  {
    code: 'project', name: '项目管理', path: '/project', source: 'office',
    children: [
      leaf('project_list', '项目列表', '/xinde/project', { buttons: [['recovery', '回收站'], ['adjust', '调整租户']] }),
      leaf('project_category', '项目分类', '/xinde/projectcategory'),
      leaf('project_customer', '项目客户', '/xinde/projectcustomer', { buttons: [['sync', '同步']] }),
      leaf('user_project', '用户项目', '/xinde/userproject'),
    ],
  },
  {
    code: 'device', name: '设备管理', path: '/device', source: 'mobile-phone',
    children: [
      leaf('device_list', '设备列表', '/xinde/device', { buttons: [['debug', '调试'], ['chart', '历史曲线'], ['command', '下发指令'], ['init', '初始值']] }),
      leaf('device_type', '设备类型', '/xinde/devicetype'),
      leaf('device_model', '设备型号', '/xinde/devicemodel'),
      leaf('device_point', '设备点位', '/xinde/devicepoint', { buttons: [['upload', '导入']] }),
      leaf('gateway', '网关管理', '/xinde/gateway', { buttons: [['debug', '调试'], ['command', '下发指令']] }),
      leaf('gateway_state', '网关状态', '/xinde/gatewaystate', { readOnly: true }),
    ],
  },
  {
    code: 'protocol', name: '协议管理', path: '/protocol', source: 'exchange',
    children: [
      leaf('protocol_list', '协议列表', '/xinde/protocol'),
      leaf('protocol_modbus', 'Modbus变量', '/xinde/protocolmodbus'),
      leaf('model_agreement', '型号协议', '/xinde/modelagreement'),
      leaf('temperature_coefficient', '温度系数', '/xinde/temperaturecoefficient'),
    ],
  },
  {
    code: 'monitor', name: '监测管理', path: '/monitor', source: 'timeline-line-chart',
    children: [
      leaf('monitor_type', '监测类型', '/xinde/monitortype'),
      leaf('monitor_factors', '监测因素', '/xinde/monitorfactors'),
      leaf('monitor_point', '监测点', '/xinde/monitorpoint', { buttons: [['bind', '绑定设备']] }),
      leaf('monitor_item', '监测项', '/xinde/monitoritem'),
    ],
  },
  {
    code: 'alarm', name: '告警管理', path: '/alarm', source: 'warning-sign',
    children: [
      leaf('device_threshold', '阈值设置', '/xinde/devicethreshold'),
      leaf('alarm_list', '告警列表', '/xinde/alarm', { buttons: [['handle', '处理']] }),
      leaf('alarm_recipient', '告警接收人', '/xinde/alarmrecipient'),
      leaf('alarm_strategy', '通知策略', '/xinde/alarmnoticestrategy'),
      leaf('alarm_send_log', '告警发送日志', '/xinde/alarmsendlog', { readOnly: true }),
    ],
  },
  {
    code: 'data', name: '数据管理', path: '/data', source: 'database',
    children: [
      leaf('collect_data', '采集数据', '/xinde/collectdata', { readOnly: true }),
      leaf('collect_strategy', '采集策略', '/xinde/collectstrategy', { buttons: [['start', '启动'], ['stop', '停止']] }),
      leaf('collect_calculation_log', '计算日志', '/xinde/collectcalculationlog', { readOnly: true }),
      leaf('device_log', '监测数据', '/xinde/devicelog', { buttons: [['correct', '数据修正']] }),
      leaf('api_send_log', '推送日志', '/xinde/apisendlog', { readOnly: true }),
      leaf('data_comparison', '数据对比', '/xinde/datacomparison'),
    ],
  },
  {
    code: 'mqtt', name: 'MQTT管理', path: '/mqtt', source: 'satellite',
    children: [
      leaf('mqtt_user', 'MQTT用户', '/xinde/mqttuser'),
      leaf('mqtt_acl', 'MQTT权限', '/xinde/mqttacl'),
      leaf('mqtt_param', '推送参数', '/xinde/mqttparam'),
      leaf('tenant_project', '租户项目推送', '/xinde/tenantproject', { buttons: [['push', '推送']] }),
    ],
  },
  {
    code: 'third', name: '第三方平台', path: '/third', source: 'link',
    children: [
      leaf('third_project', '第三方项目', '/xinde/thirdmonitorproject', { buttons: [['bind', '绑定']] }),
      leaf('third_param', '第三方参数', '/xinde/thirdmonitorparam'),
    ],
  },
  {
    code: 'report', name: '报表管理', path: '/report', source: 'document',
    children: [
      leaf('report_rules', '报表规则', '/xinde/reportrules'),
      leaf('report_factors', '报表因子', '/xinde/reportfactors'),
      leaf('report_item', '报表项', '/xinde/reportitem', { buttons: [['export', '导出']] }),
      leaf('report_designer', '报表设计', '/report/reportlist'),
    ],
  },
  {
    code: 'power_line', name: '电力巡检', path: '/powerline', source: 'flash',
    children: [
      leaf('pl_line', '线路管理', '/powerline/line'),
      leaf('pl_monitor_point', '杆塔监测点', '/powerline/monitorpoint'),
      leaf('pl_device', '巡检设备', '/powerline/device'),
      leaf('pl_check_plan', '巡检计划', '/powerline/checkplan'),
      leaf('pl_check_record', '巡检记录', '/powerline/checkrecord'),
      leaf('pl_work_order', '工单管理', '/powerline/workorder'),
    ],
  },
  {
    code: 'statistics', name: '数据大屏', path: '/statistics', source: 'dashboard',
    // The wall screen's link manager (docs/wall-screen.md); 布局 places a project's monitor points on its image.
    children: [leaf('screen', '监测大屏', '/xinde/screen', { buttons: SCREEN_BUTTONS })],
  },
  {
    code: 'work', name: '我的事务', path: '/work', source: 'inbox',
    children: [
      leaf('work_start', '发起事务', '/work/start', { readOnly: true }),
      leaf('work_claim', '待签事务', '/work/claim', { readOnly: true }),
      leaf('work_todo', '待办事务', '/work/todo', { readOnly: true }),
      leaf('work_send', '已发事务', '/work/send', { readOnly: true }),
      leaf('work_done', '办结事务', '/work/done', { readOnly: true }),
    ],
  },
  {
    code: 'flow', name: '流程管理', path: '/flow', source: 'flows',
    children: [
      leaf('flow_model', '模型管理', '/flow/model', { buttons: [['deploy', '部署']] }),
      leaf('flow_deploy', '部署管理', '/flow/deploy', { buttons: [['upload', '上传']] }),
      leaf('flow_follow', '流程跟踪', '/flow/follow', { readOnly: true, buttons: FLOW_FOLLOW_BUTTONS }),
    ],
  },
  {
    code: 'system', name: '系统管理', path: '/system', source: 'cog',
    children: [
      leaf('user', '用户管理', '/system/user', { buttons: [['reset', '重置密码'], ['role', '角色配置'], ['unlock', '账号解封'], ['platform', '平台配置']] }),
      leaf('dept', '部门管理', '/system/dept'),
      leaf('post', '岗位管理', '/system/post'),
      leaf('dict', '系统字典', '/system/dict'),
      leaf('dictbiz', '业务字典', '/system/dictbiz'),
      leaf('menu', '菜单管理', '/system/menu'),
      leaf('topmenu', '顶部菜单', '/system/topmenu', { buttons: [['setting', '菜单配置']] }),
      leaf('param', '参数管理', '/system/param'),
      leaf('tenant', '租户管理', '/system/tenant', { buttons: [['setting', '授权配置'], ['datasource', '数据源'], ['package_setting', '产品包配置'], ['recovery', '回收站']] }),
      leaf('tenant_package', '租户产品包', '/system/tenantpackage'),
      leaf('client', '应用管理', '/system/client'),
      leaf('region', '行政区划', '/system/region'),
    ],
  },
  {
    code: 'authority', name: '权限管理', path: '/authority', source: 'shield',
    children: [
      leaf('role', '角色管理', '/authority/role', { buttons: [['setting', '权限设置']] }),
      leaf('data_scope', '数据权限', '/authority/datascope'),
      leaf('api_scope', '接口权限', '/authority/apiscope'),
    ],
  },
  {
    code: 'monitor_log', name: '日志管理', path: '/monitor/log', source: 'history',
    children: [
      leaf('log_usual', '通用日志', '/monitor/log/usual', { readOnly: true }),
      leaf('log_api', '接口日志', '/monitor/log/api', { readOnly: true }),
      leaf('log_error', '错误日志', '/monitor/log/error', { readOnly: true }),
    ],
  },
  {
    code: 'resource', name: '资源管理', path: '/resource', source: 'folder-close',
    children: [
      leaf('oss', '对象存储', '/resource/oss', { buttons: [['enable', '启用']] }),
      leaf('sms', '短信配置', '/resource/sms', { buttons: [['enable', '启用'], ['send', '发送测试']] }),
      leaf('attach', '附件管理', '/resource/attach', { buttons: [['upload', '上传'], ['download', '下载']] }),
    ],
  },
  {
    code: 'tool', name: '研发工具', path: '/tool', source: 'code',
    children: [
      leaf('code', '代码生成', '/tool/code', { buttons: [['gen', '生成'], ['copy', '复制']] }),
      leaf('datasource', '数据源管理', '/tool/datasource'),
    ],
  },
];

export const STANDARD_BUTTONS: ReadonlyArray<readonly [string, string, number]> = [
  ['add', '新增', 1],
  ['edit', '修改', 2],
  ['delete', '删除', 3],
  ['view', '查看', 2],
];

/**
 * Step 0005: the leaves' icons (LEAF_ICONS) on stores seeded before leaves had them. Only menus still without an icon:
 * one an administrator chose stays.
 */
export async function seedMenuIcons(db: Db): Promise<void> {
  for (const [code, icon] of Object.entries(LEAF_ICONS)) {
    await db.updateTable('blade_menu').set({ source: icon }).where('code', '=', code).where((eb) => eb.or([eb('source', 'is', null), eb('source', '=', '')])).execute();
  }
}
