import { z } from 'zod';
import { defineResource } from '../define';
import { int, text } from '../fields';
import { LOG_DECLARATION, logFields } from './fields';

/** Server failures and the console's uploaded runtime errors. */
export const errorLog = defineResource({
  ...LOG_DECLARATION,
  name: 'error',
  menu: 'log_error',
  table: 'blade_log_error',
  fields: z.object({
    ...logFields,
    stackTrace: text(65535).nullish(),
    exceptionName: text().nullish(),
    message: text(65535).nullish(),
    lineNumber: int().nullish(),
    fileName: text().nullish(),
    methodClass: text().nullish(),
    methodName: text().nullish(),
  }),
});
