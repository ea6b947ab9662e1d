import { z } from 'zod';
import { defineResource } from '../define';
import { int, required, text } from '../fields';

const seconds = (message: string) => int().refine((n) => n > 0, message);

/** OAuth clients (blade_client): every request authenticates its client with Basic id:secret. */
export const client = defineResource({
  service: 'blade-system',
  name: 'client',
  menu: 'client',
  table: 'blade_client',
  tenancy: 'platform',
  fields: z.object({
    clientId: required('请输入客户端id').regex(/^[A-Za-z0-9_-]+$/, '客户端id只能包含字母、数字、下划线和减号'),
    clientSecret: required('请输入客户端密钥'),
    resourceIds: text().nullish(),
    scope: text().nullish(),
    authorizedGrantTypes: required('请输入授权类型'),
    webServerRedirectUri: text().nullish(),
    authorities: text().nullish(),
    accessTokenValidity: seconds('令牌过期秒数必须大于0'),
    refreshTokenValidity: seconds('刷新令牌过期秒数必须大于0'),
    additionalInformation: text(65535).nullish(),
    autoapprove: text().nullish(),
  }),
  unique: [{ fields: ['clientId'], message: '客户端id已存在' }],
  example: { clientId: 'example_app', clientSecret: 'example_secret', scope: 'all', authorizedGrantTypes: 'refresh_token,password', accessTokenValidity: 3600, refreshTokenValidity: 604800 },
});
