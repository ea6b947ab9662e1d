import type { FastifyInstance } from 'fastify';
import { datasource } from '../../../resources/develop/datasource';
import { registerCrud } from '../../http/crud';
import { invalidParam } from '../../http/envelope';
import type { Platform } from '../../platform';

/** blade-develop: data sources (platform administrator only). The password is write-only. */
export function registerDevelop(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, datasource, {
    beforeSave(_ctx, values, existing) {
      const password = typeof values.password === 'string' ? values.password : '';
      if (password) return values;
      if (!existing) throw invalidParam('password: 请输入密码');
      const { password: _blank, ...kept } = values;
      return kept;
    },
  });
}
