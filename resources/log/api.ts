import { z } from 'zod';
import { defineResource } from '../define';
import { int, text } from '../fields';
import { LOG_DECLARATION, logFields } from './fields';

/** Every API call: route, status (type), caller, parameters with secrets masked, duration in ms (time). */
export const apiLog = defineResource({
  ...LOG_DECLARATION,
  name: 'api',
  menu: 'log_api',
  table: 'blade_log_api',
  fields: z.object({
    ...logFields,
    type: text().nullish(),
    title: text().nullish(),
    methodClass: text().nullish(),
    methodName: text().nullish(),
    time: int().nullish(),
  }),
});
