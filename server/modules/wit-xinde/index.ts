import type { FastifyInstance } from 'fastify';
import { mqttAcl, mqttUser } from '../../../resources/iot/mqtt';
import { hashPassword } from '../../auth/passwords';
import { registerCrud } from '../../http/crud';
import type { Platform } from '../../platform';

/** wit-xinde: the monitoring domain (devices, data, alarms…); so far the broker's identities and rules. */
export function registerXinde(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, mqttUser, {
    beforeSave: async (_ctx, values) =>
      typeof values.password === 'string' ? { ...values, password: await hashPassword(values.password) } : values,
  });
  registerCrud(app, platform, mqttAcl);
}
