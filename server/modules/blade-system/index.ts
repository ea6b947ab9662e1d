import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { registerAccess } from './access';
import { registerOrganisation } from './organisation';
import { registerSettings } from './settings';

/** blade-system: menus, roles, tenants and packages (access), departments and posts (organisation), settings. */
export function registerSystem(app: FastifyInstance, platform: Platform): void {
  registerAccess(app, platform);
  registerOrganisation(app, platform);
  registerSettings(app, platform);
}
