import { msg } from '@lingui/core/macro';
import { client } from '../../../resources/system/client';
import type { CrudView } from '../../crud/types';

/** OAuth clients (/system/client), platform administrator only. */
export const clientView: CrudView<typeof client> = {
  resource: client,
  dialogWidth: 800,
  fields: [
    { name: 'clientId', label: msg`应用id`, search: true, required: msg`请输入客户端id` },
    { name: 'clientSecret', label: msg`应用密钥`, required: msg`请输入客户端密钥` },
    { name: 'scope', label: msg`授权范围`, initial: 'all', width: 80 },
    { name: 'authorizedGrantTypes', label: msg`授权类型`, required: msg`请输入授权类型`, initial: 'refresh_token,password,authorization_code', width: 240 },
    { name: 'accessTokenValidity', label: msg`令牌秒数`, widget: { type: 'number', min: 1 }, required: msg`请输入令牌过期秒数`, initial: 3600, width: 100 },
    { name: 'refreshTokenValidity', label: msg`刷新令牌秒数`, widget: { type: 'number', min: 1 }, required: msg`请输入刷新令牌过期秒数`, initial: 604800, width: 120 },
    { name: 'webServerRedirectUri', label: msg`回调地址`, span: 24, hideInTable: true },
    { name: 'additionalInformation', label: msg`附加说明`, widget: { type: 'textarea', rows: 3 }, hideInTable: true },
  ],
};
