import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { type ComponentType, createElement } from 'react';
import { lazyPage } from '../app/lazyPage';
import type { Resource } from '../../resources/define';
import type { CrudView } from '../crud/types';
import { processPageHeld } from './work/processRoutes';

/** A screen reached from the menu tree, keyed by its menu path (without the /index suffix). */
export interface Screen {
  path: string;
  title: MessageDescriptor;
  component: ComponentType;
  /** A screen opened from another screen's buttons, not from the menu: the menu path it belongs to. */
  from?: string;
  /**
   * Query keys of the screen's view state: changing them updates its tab (RouteMeta.viewQuery). By default every key
   * is (a list's filters, docs/console-screens.md "Lists from a link"); a screen whose query names what it shows (the
   * debug console's `?id=`) lists its view keys, none at all when it has none.
   */
  viewQuery?: readonly string[];
}

/**
 * A screen that is the generic list/edit page of one view: the view and the page load together, as one lazy chunk
 * each (a screen with more than the generic page has a component of its own).
 */
function crudScreen<R extends Resource>(loadView: () => Promise<CrudView<R>>): ComponentType {
  return lazyPage(async () => {
    const [{ CrudPage }, view] = await Promise.all([import('../crud/CrudPage'), loadView()]);
    return { default: () => createElement(CrudPage<R>, { view }) };
  });
}

/**
 * The screens the console has. The seed holds menus for every module; a menu is shown only once its screen is
 * listed here, so each module's issue adds its entries: a generic list/edit screen names its view
 * (`{ path: '/system/param', title: msg`参数管理`, component: crudScreen(() => import('./system/paramView').then((m) =>
 * m.paramView)) }`), a screen of its own its page (`component: lazyPage(() => import('./system/UserPage'))`).
 */
export const SCREENS: readonly Screen[] = [
  { path: '/system/dict', title: msg`系统字典`, component: lazyPage(() => import('./system/DictPage')) },
  { path: '/system/dictbiz', title: msg`业务字典`, component: lazyPage(() => import('./system/DictBizPage')) },
  { path: '/system/param', title: msg`参数管理`, component: crudScreen(() => import('./system/paramView').then((m) => m.paramView)) },
  { path: '/system/user', title: msg`用户管理`, component: lazyPage(() => import('./system/UserPage')) },
  { path: '/system/dept', title: msg`部门管理`, component: crudScreen(() => import('./system/deptView').then((m) => m.deptView)) },
  { path: '/system/post', title: msg`岗位管理`, component: crudScreen(() => import('./system/postView').then((m) => m.postView)) },
  { path: '/authority/role', title: msg`角色管理`, component: lazyPage(() => import('./authority/RolePage')) },
  { path: '/authority/datascope', title: msg`数据权限`, component: lazyPage(() => import('./authority/DataScopePage')) },
  { path: '/authority/apiscope', title: msg`接口权限`, component: lazyPage(() => import('./authority/ApiScopePage')) },
  { path: '/system/menu', title: msg`菜单管理`, component: crudScreen(() => import('./system/menuView').then((m) => m.menuView)) },
  { path: '/system/topmenu', title: msg`顶部菜单`, component: lazyPage(() => import('./system/TopMenuPage')) },
  { path: '/system/tenant', title: msg`租户管理`, component: lazyPage(() => import('./system/TenantPage')) },
  { path: '/system/client', title: msg`应用管理`, component: crudScreen(() => import('./system/clientView').then((m) => m.clientView)) },
  { path: '/system/tenantpackage', title: msg`租户产品包`, component: crudScreen(() => import('./system/tenantPackageView').then((m) => m.tenantPackageView)) },
  { path: '/system/region', title: msg`行政区划`, component: crudScreen(() => import('./system/regionView').then((m) => m.regionView)) },
  { path: '/resource/oss', title: msg`对象存储`, component: crudScreen(() => import('./resource/ossView').then((m) => m.ossView)) },
  { path: '/resource/sms', title: msg`短信配置`, component: lazyPage(() => import('./resource/SmsPage')) },
  { path: '/resource/attach', title: msg`附件管理`, component: crudScreen(() => import('./resource/attachView').then((m) => m.attachView)) },
  { path: '/monitor/log/usual', title: msg`通用日志`, component: crudScreen(() => import('./monitor/logViews').then((m) => m.usualLogView)) },
  { path: '/monitor/log/api', title: msg`接口日志`, component: crudScreen(() => import('./monitor/logViews').then((m) => m.apiLogView)) },
  { path: '/monitor/log/error', title: msg`错误日志`, component: crudScreen(() => import('./monitor/logViews').then((m) => m.errorLogView)) },
  { path: '/desk/notice', title: msg`通知公告`, component: crudScreen(() => import('./desk/noticeView').then((m) => m.noticeView)) },
  // Monitoring domain (docs/data-model.md): projects, devices, gateways, broker identities.
  { path: '/xinde/project', title: msg`项目列表`, component: lazyPage(() => import('./project/ProjectPage')) },
  { path: '/xinde/projectcategory', title: msg`项目分类`, component: crudScreen(() => import('./project/projectViews').then((m) => m.categoryView)) },
  { path: '/xinde/projectcustomer', title: msg`项目客户`, component: crudScreen(() => import('./project/projectViews').then((m) => m.customerView)) },
  { path: '/xinde/userproject', title: msg`用户项目`, component: lazyPage(() => import('./project/UserProjectPage')) },
  { path: '/xinde/device', title: msg`设备列表`, component: lazyPage(() => import('./device/DevicePage')) },
  { path: '/xinde/gateway', title: msg`网关管理`, component: lazyPage(() => import('./device/GatewayPage')) },
  { path: '/xinde/gatewaystate', title: msg`网关状态`, component: crudScreen(() => import('./device/deviceViews').then((m) => m.gatewayStateView)) },
  { path: '/xinde/mqttuser', title: msg`MQTT用户`, component: crudScreen(() => import('./mqtt/mqttViews').then((m) => m.mqttUserView)) },
  { path: '/xinde/mqttacl', title: msg`MQTT权限`, component: crudScreen(() => import('./mqtt/mqttViews').then((m) => m.mqttAclView)) },
  // Onward data (docs/push.md): push targets, project bindings, the push log.
  { path: '/xinde/mqttparam', title: msg`推送参数`, component: lazyPage(() => import('./push/MqttParamPage')) },
  { path: '/xinde/tenantproject', title: msg`租户项目推送`, component: lazyPage(() => import('./push/TenantProjectPage')) },
  { path: '/xinde/apisendlog', title: msg`推送日志`, component: crudScreen(() => import('./push/pushViews').then((m) => m.apiSendLogView)) },
  // Opened from the device and gateway lists' 调试 / 历史曲线 buttons with `?id=`; without it they offer a picker.
  { path: '/xinde/device/debug', title: msg`设备调试`, component: lazyPage(() => import('./device/DebugConsole')), from: '/xinde/device', viewQuery: [] },
  { path: '/xinde/device/history', title: msg`历史曲线`, component: lazyPage(() => import('./device/HistoryChart')), from: '/xinde/device', viewQuery: ['range', 'start', 'end'] },
  { path: '/xinde/gateway/debug', title: msg`网关调试`, component: lazyPage(() => import('./device/GatewayDebugPage')), from: '/xinde/gateway', viewQuery: [] },
  // Device catalogue, monitoring model and device data (docs/data-model.md).
  { path: '/xinde/devicetype', title: msg`设备类型`, component: lazyPage(() => import('./catalogue/DeviceTypePage')) },
  { path: '/xinde/devicemodel', title: msg`设备型号`, component: crudScreen(() => import('./catalogue/catalogueViews').then((m) => m.deviceModelView)) },
  { path: '/xinde/devicepoint', title: msg`设备点位`, component: lazyPage(() => import('./catalogue/DevicePointPage')) },
  { path: '/xinde/protocol', title: msg`协议列表`, component: lazyPage(() => import('./catalogue/ProtocolPage')) },
  { path: '/xinde/protocolmodbus', title: msg`Modbus变量`, component: crudScreen(() => import('./catalogue/catalogueViews').then((m) => m.protocolModbusView)) },
  { path: '/xinde/modelagreement', title: msg`型号协议`, component: crudScreen(() => import('./catalogue/catalogueViews').then((m) => m.modelAgreementView)) },
  { path: '/xinde/temperaturecoefficient', title: msg`温度系数`, component: crudScreen(() => import('./catalogue/catalogueViews').then((m) => m.temperatureCoefficientView)) },
  { path: '/xinde/monitortype', title: msg`监测类型`, component: crudScreen(() => import('./monitoring/monitoringViews').then((m) => m.monitorTypeView)) },
  { path: '/xinde/monitorfactors', title: msg`监测因素`, component: lazyPage(() => import('./monitoring/MonitorFactorsPage')) },
  { path: '/xinde/monitorpoint', title: msg`监测点`, component: lazyPage(() => import('./monitoring/MonitorPointPage')) },
  { path: '/xinde/monitoritem', title: msg`监测项`, component: crudScreen(() => import('./monitoring/monitoringViews').then((m) => m.monitorItemView)) },
  { path: '/xinde/devicelog', title: msg`监测数据`, component: lazyPage(() => import('./data/DeviceLogPage')) },
  { path: '/xinde/collectdata', title: msg`采集数据`, component: crudScreen(() => import('./data/dataViews').then((m) => m.collectDataView)) },
  { path: '/xinde/collectstrategy', title: msg`采集策略`, component: lazyPage(() => import('./data/CollectStrategyPage')) },
  { path: '/xinde/collectcalculationlog', title: msg`计算日志`, component: crudScreen(() => import('./data/dataViews').then((m) => m.calculationLogView)) },
  { path: '/xinde/datacomparison', title: msg`数据对比`, component: lazyPage(() => import('./data/DataComparisonPage')) },
  // Alarm menu (docs/alarms.md); /xinde/alarm?id= is where the notice centre's alarm links lead.
  { path: '/xinde/devicethreshold', title: msg`阈值设置`, component: crudScreen(() => import('./alarm/alarmViews').then((m) => m.thresholdView)) },
  { path: '/xinde/alarm', title: msg`告警列表`, component: lazyPage(() => import('./alarm/AlarmPage')) },
  { path: '/xinde/alarmrecipient', title: msg`告警接收人`, component: crudScreen(() => import('./alarm/alarmViews').then((m) => m.recipientView)) },
  { path: '/xinde/alarmnoticestrategy', title: msg`通知策略`, component: crudScreen(() => import('./alarm/alarmViews').then((m) => m.strategyView)) },
  { path: '/xinde/alarmsendlog', title: msg`告警发送日志`, component: crudScreen(() => import('./alarm/alarmViews').then((m) => m.sendLogView)) },
  // The wall screen's display links and the projects' layouts (docs/console-screens.md "The wall screen"); /wall itself is a static route.
  { path: '/xinde/screen', title: msg`监测大屏`, component: lazyPage(() => import('./screen/DisplayLinkPage')) },
  // Third-party platforms (docs/third-party.md): connections, and projects bound to remote ones.
  { path: '/xinde/thirdmonitorparam', title: msg`第三方参数`, component: lazyPage(() => import('./third/ThirdParamPage')) },
  { path: '/xinde/thirdmonitorproject', title: msg`第三方项目`, component: lazyPage(() => import('./third/ThirdProjectPage')) },
  // Workflow (docs/workflow.md): models and their designer, deployments (process definitions).
  { path: '/flow/model', title: msg`模型管理`, component: lazyPage(() => import('./flow/ModelPage')) },
  { path: '/flow/model/design', title: msg`流程设计`, component: lazyPage(() => import('./flow/DesignerPage')), from: '/flow/model', viewQuery: [] },
  { path: '/flow/deploy', title: msg`部署管理`, component: lazyPage(() => import('./flow/DeployPage')) },
  // My work (docs/workflow.md): what the caller may start, claim, has to do, has sent and has done; the tenant's instances.
  { path: '/work/start', title: msg`发起事务`, component: lazyPage(() => import('./work/StartPage')) },
  { path: '/work/claim', title: msg`待签事务`, component: lazyPage(() => import('./work/ClaimPage')) },
  { path: '/work/todo', title: msg`待办事务`, component: lazyPage(() => import('./work/TodoPage')) },
  { path: '/work/send', title: msg`已发事务`, component: lazyPage(() => import('./work/SendPage')) },
  { path: '/work/done', title: msg`办结事务`, component: lazyPage(() => import('./work/DonePage')) },
  { path: '/flow/follow', title: msg`流程跟踪`, component: lazyPage(() => import('./flow/FollowPage')) },
];

const byPath = new Map(SCREENS.map((screen) => [screen.path, screen]));

export const screenFor = (path: string): Screen | undefined => byPath.get(path);
export const hasScreen = (path: string): boolean => byPath.has(path);

/**
 * Whether the user's menu leaves open this screen (directly, or the menu its buttons belong to): a screen typed into
 * the address bar that the user's menus do not hold shows 403, as the server would refuse its data.
 */
export function screenHeld(path: string, leafPaths: ReadonlySet<string>): boolean {
  // A process page (/work/process/leave/handle/…) belongs to the work menus whose lists lead to it.
  const process = processPageHeld(path, leafPaths);
  if (process !== undefined) return process;
  const screen = byPath.get(path);
  return !screen || leafPaths.has(screen.path) || (screen.from !== undefined && leafPaths.has(screen.from));
}
