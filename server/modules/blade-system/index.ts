import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { registerAccess } from './access';
import type { TenantPurges } from './access/tenant-purge';
import { registerOrganisation } from './organisation';
import { registerSettings } from './settings';

/** blade-system: menus, roles, tenants and packages (access), departments and posts (organisation), settings. */
export function registerSystem(app: FastifyInstance, platform: Platform, purges: TenantPurges): void {
  registerAccess(app, platform, purges);
  registerOrganisation(app, platform);
  registerSettings(app, platform);
}
