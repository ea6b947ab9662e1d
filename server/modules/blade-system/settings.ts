import type { FastifyInstance } from 'fastify';
import { dict } from '../../../resources/system/dict';
import { dictBiz } from '../../../resources/system/dict-biz';
import { param } from '../../../resources/system/param';
import { checkSmtpParam } from '../../alarms/channels';
import { registerCrud } from '../../http/crud';
import type { Platform } from '../../platform';
import { registerDictionary } from './settings/dictionary';
import { registerRegion } from './settings/region';
import { registerScopes } from './settings/scopes';

/** blade-system settings: params, dictionaries, regions, data and API scopes. */
export function registerSettings(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, param, {
    beforeSave: async (_ctx, values, existing) => {
      await checkSmtpParam(platform, values, existing);
      return values;
    },
  });
  registerDictionary(app, platform, dict);
  registerDictionary(app, platform, dictBiz);
  registerRegion(app, platform);
  registerScopes(app, platform);
}
