import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform';
import { registerOAuth } from './blade-auth/oauth';
import { registerSystem } from './blade-system';

/** Every service's routes; each module registers its generic resources and its own calls. */
export function registerModules(app: FastifyInstance, platform: Platform): void {
  registerOAuth(app, platform);
  registerSystem(app, platform);
}
