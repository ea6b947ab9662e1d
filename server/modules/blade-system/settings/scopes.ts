import type { FastifyInstance } from 'fastify';
import { dataScope } from '../../../../resources/system/data-scope';
import { DATA_SCOPE } from '../../../auth/scopes';
import { registerCrud } from '../../../http/crud';
import { invalidParam } from '../../../http/envelope';
import type { Platform } from '../../../platform';

/**
 * Data and API scopes, declared per menu (list?menuId=). Their writes go through the repository, which emits
 * 'changed', so the scope service reloads before the next request is checked.
 */
export function registerScopes(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, dataScope, {
    beforeSave(_ctx, values, existing) {
      const merged = { ...existing, ...values };
      const custom = Number(merged.scopeType) === DATA_SCOPE.custom;
      if (custom && !String(merged.scopeValue ?? '').trim()) throw invalidParam('scopeValue: 请输入自定义的部门编号');
      return values;
    },
  });
}
