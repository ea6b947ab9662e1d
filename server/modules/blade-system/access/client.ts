import type { FastifyInstance } from 'fastify';
import { client } from '../../../../resources/system/client';
import { registerCrud } from '../../../http/crud';
import { badRequest } from '../../../http/envelope';
import type { Platform } from '../../../platform';

/** OAuth clients: generic CRUD; the client the caller signed in with cannot be removed from under it. */
export function registerClient(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, client, {
    beforeSave: (_ctx, values, existing) => (existing || values.scope ? values : { ...values, scope: 'all' }),
    async beforeRemove(ctx, ids) {
      const own = await platform.db
        .selectFrom('blade_client')
        .select('id')
        .where('id', 'in', ids)
        .where('clientId', '=', ctx.principal.clientId)
        .where('isDeleted', '=', 0)
        .executeTakeFirst();
      if (own) throw badRequest('不能删除当前正在使用的客户端');
    },
  });
}
