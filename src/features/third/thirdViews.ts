import { msg } from '@lingui/core/macro';
import { thirdMonitorParam, thirdMonitorProject } from '../../../resources/iot/third';
import type { CrudView } from '../../crud/types';
import { derived, options } from '../../crud/viewHelpers';

/** Screens of the third-party menu (docs/third-party.md): connections to remote platforms and project bindings. */

/** PULL_STATE of resources/iot/third.ts. */
const PULL_STATES = options(['0', msg`未拉取`], ['1', msg`成功`], ['2', msg`失败`], ['3', msg`登录被拒,已暂停`]);
const PLATFORM_TYPES = options(['bladex', msg`BladeX / Vigil`]);
const onlyWhenViewing = (mode: string) => mode !== 'view';

/** 第三方参数: the password and client secret are written on add and only when typed on edit (never returned). */
export const thirdParamView: CrudView<typeof thirdMonitorParam> = {
  resource: thirdMonitorParam,
  dialogWidth: 820,
  fields: [
    { name: 'name', label: msg`平台名称`, search: true, required: msg`请输入平台名称`, width: 160 },
    { name: 'platformType', label: msg`平台类型`, widget: PLATFORM_TYPES, initial: 'bladex', width: 120 },
    { name: 'baseUrl', label: msg`平台地址`, required: msg`请输入平台地址`, span: 24, width: 220, help: msg`如 https://monitor.example.com,接口在其 /api 下` },
    { name: 'thirdTenantId', label: msg`租户编号`, initial: '000000', width: 90 },
    { name: 'username', label: msg`登录账号`, required: msg`请输入登录账号`, width: 110 },
    { name: 'password', label: msg`登录密码(编辑时留空不修改)`, widget: { type: 'password' }, required: msg`请输入登录密码`, hideInTable: true, keepIfBlank: (mode) => mode === 'edit', hideInForm: (mode) => mode === 'view' },
    { name: 'clientId', label: msg`客户端编号`, initial: 'saber', hideInTable: true },
    { name: 'clientSecret', label: msg`客户端密钥(编辑时留空不修改)`, widget: { type: 'password' }, required: msg`请输入客户端密钥`, hideInTable: true, keepIfBlank: (mode) => mode === 'edit', hideInForm: (mode) => mode === 'view' },
    { name: 'codePrefix', label: msg`编号前缀`, hideInTable: true, help: msg`新建的本地项目和设备编号前加上它,避免与本地编号重复` },
    { name: 'intervalSeconds', label: msg`拉取间隔(秒)`, widget: { type: 'number', min: 0, max: 86400 }, initial: 0, width: 110, help: msg`0 为手动拉取,至少 5 秒` },
    { name: 'timeoutSeconds', label: msg`超时(秒)`, widget: { type: 'number', min: 1, max: 120 }, initial: 15, hideInTable: true },
    { name: 'enabled', label: msg`自动拉取`, widget: { type: 'switch', dict: 'yes_no' }, initial: 0, width: 90 },
    { ...derived('running', msg`运行中`, 80), widget: { type: 'switch', dict: 'yes_no' } },
    { name: 'lastPullTime', label: msg`最后拉取`, hideInForm: onlyWhenViewing, disabled: true, width: 170 },
    { name: 'lastPullState', label: msg`拉取状态`, widget: PULL_STATES, hideInForm: onlyWhenViewing, disabled: true, width: 130 },
    { name: 'lastPullMessage', label: msg`拉取结果`, widget: { type: 'textarea', rows: 3 }, hideInForm: onlyWhenViewing, disabled: true, width: 260 },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
  ],
};

/** 第三方项目: local projects bound to remote ones; bound by the 绑定项目 dialog, deleted = unbound. */
export const thirdProjectView: CrudView<typeof thirdMonitorProject> = {
  resource: thirdMonitorProject,
  actions: { add: false, edit: false },
  dialogWidth: 720,
  fields: [
    { name: 'projectName', label: msg`本地项目`, width: 180 },
    derived('projectCode', msg`项目编号`, 130),
    { name: 'thirdParamName', label: msg`第三方平台`, width: 150 },
    { name: 'thirdProjectName', label: msg`第三方项目`, search: true, width: 180 },
    { name: 'thirdProjectCode', label: msg`第三方项目编号`, width: 130 },
    { name: 'thirdProjectId', label: msg`第三方项目ID`, hideInTable: true },
    derived('deviceCount', msg`绑定设备`, 80),
    derived('pointCount', msg`绑定测点`, 80),
    { name: 'syncTime', label: msg`同步时间`, width: 170 },
    { name: 'lastPullTime', label: msg`最后拉取`, width: 170 },
    { name: 'lastPullCount', label: msg`拉取条数`, width: 90 },
  ],
};
