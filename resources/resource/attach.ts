import { z } from 'zod';
import { defineResource } from '../define';
import { text } from '../fields';

/**
 * Uploaded files (rows written by oss/endpoint/put-file). Read only for the generic routes: the blade-resource
 * module adds remove, which also deletes the file.
 */
export const attach = defineResource({
  service: 'blade-resource',
  name: 'attach',
  menu: 'attach',
  table: 'blade_attach',
  tenancy: 'tenant',
  readOnly: true,
  fields: z.object({
    link: text(2000),
    domain: text(1000).nullish(),
    name: text(),
    originalName: text().nullish(),
    extension: text(16).nullish(),
    attachSize: z.coerce.number<unknown>().int().nullish(),
  }),
});
