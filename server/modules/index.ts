import type { FastifyInstance } from 'fastify';
import { registerDeclared } from '../http/registry';
import type { Platform } from '../platform';
import { type DeviceLink, registerCommands } from './wit-xinde/commands';
import { registerDeviceLog } from './wit-xinde/devicelog/routes';
import { registerStrategies } from './wit-xinde/strategies';
import { registerOAuth } from './blade-auth/oauth';
import { registerDesk } from './blade-desk';
import { registerFlow } from './blade-flow';
import { registerDevelop } from './blade-develop';
import { registerLog } from './blade-log';
import { registerResource } from './blade-resource';
import { registerSystem } from './blade-system';
import { registerUser } from './blade-user';
import { registerXinde } from './wit-xinde';
import type { Third } from '../third';
import type { Workflow } from '../flow/service';
import type { TenantPurges } from './blade-system/access/tenant-purge';

/** Every service's routes: each module registers its own calls and the resources it adds hooks to; then the rest. */
export function registerModules(app: FastifyInstance, platform: Platform, link: DeviceLink, third: Third, workflow: Workflow, purges: TenantPurges): void {
  registerOAuth(app, platform);
  registerUser(app, platform);
  registerSystem(app, platform, purges);
  registerResource(app, platform);
  registerLog(app, platform);
  registerDesk(app, platform);
  registerDevelop(app, platform);
  registerFlow(app, platform, workflow);
  registerXinde(app, platform, third, link.ingest.latest);
  // Device data and commands need the ingestion side and the broker, built with the app.
  registerDeviceLog(app, platform, link);
  registerStrategies(app, platform, registerCommands(app, platform, link));
  registerDeclared(app, platform);
}
