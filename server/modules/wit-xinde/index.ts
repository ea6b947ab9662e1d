import { EscalationGuard } from '../../auth/escalation';
import type { FastifyInstance } from 'fastify';
import { mqttUser } from '../../../resources/iot/mqtt';
import { hashPassword } from '../../auth/passwords';
import { registerCrud } from '../../http/crud';
import type { LatestValues } from '../../ingest/latest';
import type { Platform } from '../../platform';
import type { Third } from '../../third';
import { registerAlarms } from './alarms';
import { registerCatalogue } from './catalogue';
import { registerComparison } from './comparison';
import { registerDebug } from './debug';
import { registerDevices } from './devices';
import { registerGateways } from './gateways';
import { registerHistory } from './history';
import { registerMonitoring } from './monitoring';
import { registerProjectBelongings } from './project-belongings';
import { registerProjects } from './projects';
import { registerPush } from './push';
import { registerScreen } from './screen/routes';
import { registerStatistics } from './statistics';
import { registerThird } from './third';

/** wit-xinde: the monitoring domain — broker identities, projects, the device catalogue, gateways, devices, monitoring. */
export function registerXinde(app: FastifyInstance, platform: Platform, third: Third, latest: LatestValues): void {
  const guard = new EscalationGuard(platform);
  registerCrud(app, platform, mqttUser, {
    beforeSave: async (ctx, values, existing) => {
      await guard.assertMqttIdentity(ctx.principal, values, existing);
      return typeof values.password === 'string' ? { ...values, password: await hashPassword(values.password) } : values;
    },
  });
  registerProjects(app, platform);
  registerProjectBelongings(app, platform);
  registerCatalogue(app, platform);
  registerMonitoring(app, platform);
  registerGateways(app, platform);
  registerDevices(app, platform);
  registerAlarms(app, platform);
  registerDebug(app, platform);
  registerHistory(app, platform);
  registerComparison(app, platform);
  registerPush(app, platform);
  registerThird(app, platform, third);
  registerScreen(app, platform, latest);
  registerStatistics(app, platform);
}
