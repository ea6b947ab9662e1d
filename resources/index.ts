import type { Resource } from './define';
import { notice } from './desk/notice';
import { flowDefinition, flowHistory, flowInstance, flowModel, flowTask, processLeave } from './flow/flow';
import { datasource } from './develop/datasource';
import { alarm, alarmLog, alarmNoticeStrategy, alarmRecipient, alarmSendLog, deviceThreshold } from './iot/alarm';
import { deviceAttribute, deviceModel, deviceType, modelAgreement, protocol, protocolModbus, protocolPoint, temperatureCoefficient } from './iot/catalogue';
import { dataComparison } from './iot/comparison';
import { collectCalculationLog, collectData, collectStrategy, deviceLogUpdateLog, devicePushLog, jobInfo, viewCollect, viewStrateg } from './iot/data';
import { device, deviceGroup, devicePoint, devicePointAtt, gateway, gatewayState, viewDevice } from './iot/device';
import { monitorFactors, monitorFactorsItem, monitorItem, monitorPoint, monitorType, pointRelationDevice } from './iot/monitoring';
import { mqttAcl, mqttUser } from './iot/mqtt';
import { project, projectCategory, projectCustomer, userProject } from './iot/project';
import { apiSendLog, mqttParam, subTable, tenantProject } from './iot/push';
import { displayLink } from './iot/screen';
import { deviceCustomer, pointCustomer, thirdMonitorParam, thirdMonitorProject } from './iot/third';
import { apiLog } from './log/api';
import { errorLog } from './log/error';
import { usualLog } from './log/usual';
import { attach } from './resource/attach';
import { oss } from './resource/oss';
import { sms } from './resource/sms';
import { apiScope } from './system/api-scope';
import { client } from './system/client';
import { dataScope } from './system/data-scope';
import { dept } from './system/dept';
import { dict } from './system/dict';
import { dictBiz } from './system/dict-biz';
import { menu } from './system/menu';
import { param } from './system/param';
import { post } from './system/post';
import { region } from './system/region';
import { role } from './system/role';
import { tenant } from './system/tenant';
import { tenantPackage } from './system/tenant-package';
import { topmenu } from './system/topmenu';
import { user } from './system/user';

/**
 * Every declared resource, one line each: the server gives each the generic routes (a module adds hooks where a
 * resource is special, server/http/registry.ts). Adding a CRUD resource is its declaration plus a line here.
 * Kept literal (`as const`): the database's table types are derived from it (server/db/tables.ts).
 */
export const RESOURCES = [
  // blade-system, blade-user, blade-desk, blade-resource, blade-log, blade-develop
  tenant,
  tenantPackage,
  client,
  topmenu,
  menu,
  role,
  dataScope,
  apiScope,
  dept,
  post,
  region,
  param,
  dict,
  dictBiz,
  user,
  notice,
  attach,
  oss,
  sms,
  usualLog,
  apiLog,
  errorLog,
  datasource,
  // wit-xinde: broker identities, projects, catalogue, monitoring, devices
  mqttUser,
  mqttAcl,
  projectCategory,
  projectCustomer,
  project,
  userProject,
  deviceType,
  deviceAttribute,
  deviceModel,
  protocol,
  modelAgreement,
  protocolPoint,
  protocolModbus,
  temperatureCoefficient,
  monitorType,
  monitorFactors,
  monitorFactorsItem,
  monitorPoint,
  pointRelationDevice,
  monitorItem,
  gateway,
  gatewayState,
  deviceGroup,
  device,
  devicePoint,
  devicePointAtt,
  viewDevice,
  // wit-xinde: alarms, data, push, third-party platforms
  deviceThreshold,
  alarm,
  alarmLog,
  alarmRecipient,
  alarmNoticeStrategy,
  alarmSendLog,
  collectData,
  viewCollect,
  collectCalculationLog,
  deviceLogUpdateLog,
  devicePushLog,
  collectStrategy,
  viewStrateg,
  jobInfo,
  dataComparison,
  mqttParam,
  tenantProject,
  apiSendLog,
  subTable,
  thirdMonitorParam,
  thirdMonitorProject,
  deviceCustomer,
  pointCustomer,
  // wit-xinde: the wall screen
  displayLink,
  // blade-flow: workflow (docs/workflow.md), and the leave request of blade-desk
  flowModel,
  flowDefinition,
  flowInstance,
  flowTask,
  flowHistory,
  processLeave,
] as const satisfies readonly Resource[];
