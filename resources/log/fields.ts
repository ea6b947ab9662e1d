import { text } from '../fields';

/** Columns every blade-log table shares; the server writes them, nobody submits them. */
export const logFields = {
  serviceId: text().nullish(),
  serverHost: text().nullish(),
  serverIp: text().nullish(),
  env: text().nullish(),
  method: text().nullish(),
  requestUri: text(65535).nullish(),
  userAgent: text(65535).nullish(),
  remoteIp: text().nullish(),
  params: text(65535).nullish(),
  createBy: text().nullish(),
};

/** Logs are read only, per tenant (the platform administrator sees all), newest first. */
export const LOG_DECLARATION = {
  service: 'blade-log',
  tenancy: 'tenant',
  readOnly: true,
  orderBy: [{ field: 'createTime', desc: true }],
} as const;
