import { msg } from '@lingui/core/macro';
import { mqttAcl, mqttUser } from '../../../resources/iot/mqtt';
import type { CrudView } from '../../crud/types';
import { numericOptions } from '../../crud/viewHelpers';

/** Screens of the broker menu (docs/mqtt.md): identities and extra topic rules. */

const CLIENT_TYPES = numericOptions(['1', msg`设备`], ['2', msg`网关`], ['3', msg`应用`]);

/** MQTT用户: the password is written on add and only when typed on edit (the API never returns it). */
export const mqttUserView: CrudView<typeof mqttUser> = {
  resource: mqttUser,
  dialogWidth: 720,
  fields: [
    { name: 'username', label: msg`用户名`, search: true, required: msg`请输入用户名`, width: 160 },
    { name: 'password', label: msg`密码(编辑时留空不修改)`, hideInTable: true, keepIfBlank: (mode) => mode === 'edit', hideInForm: (mode) => mode === 'view' },
    { name: 'clientType', label: msg`客户端类型`, widget: CLIENT_TYPES, search: true, required: msg`请选择客户端类型`, initial: '1', width: 100 },
    { name: 'clientId', label: msg`客户端编号`, search: true, width: 160 },
    { name: 'isSuperuser', label: msg`超级用户`, widget: { type: 'switch', dict: 'yes_no' }, initial: 0, width: 90 },
    { name: 'status', label: msg`启用`, widget: { type: 'switch' }, initial: 1, width: 70 },
    { name: 'createTime', label: msg`创建时间`, hideInForm: true, width: 170 },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
  ],
};

/** MQTT权限: rules checked in sort order before the defaults of the identity's type. */
export const mqttAclView: CrudView<typeof mqttAcl> = {
  resource: mqttAcl,
  dialogWidth: 720,
  fields: [
    { name: 'username', label: msg`用户名(空为全部)`, search: true, width: 160 },
    { name: 'topic', label: msg`主题`, search: true, required: msg`请输入主题`, width: 280, span: 24 },
    { name: 'action', label: msg`操作`, widget: numericOptions(['1', msg`订阅`], ['2', msg`发布`], ['3', msg`订阅和发布`]), required: msg`请选择操作`, initial: '3', width: 110 },
    { name: 'allow', label: msg`允许`, widget: { type: 'switch', dict: 'yes_no' }, initial: 1, width: 80 },
    { name: 'sort', label: msg`排序`, widget: { type: 'number', min: 0 }, initial: 1, width: 80 },
    { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
  ],
};
