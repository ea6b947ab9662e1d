import { z } from 'zod';
import { defineResource } from '../define';
import { text } from '../fields';
import { LOG_DECLARATION, logFields } from './fields';

/** Business events worth keeping (SMS sends, …): level, id and free-form data. */
export const usualLog = defineResource({
  ...LOG_DECLARATION,
  name: 'usual',
  menu: 'log_usual',
  table: 'blade_log_usual',
  fields: z.object({
    ...logFields,
    logLevel: text().nullish(),
    logId: text().nullish(),
    logData: text(65535).nullish(),
  }),
});
