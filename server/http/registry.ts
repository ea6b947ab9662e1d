import type { FastifyInstance } from 'fastify';
import type { Resource } from '../../resources/define';
import { RESOURCES } from '../../resources';
import type { Platform } from '../platform';
import { registerCrud } from './crud';

/**
 * The generic routes of every declared resource that no module registered with its own hooks. Runs after the
 * modules; a resource registered but not listed in resources/index.ts stops the start, so the list stays the one
 * registry (the typed tables and the checks over all resources read it).
 */
export function registerDeclared(app: FastifyInstance, platform: Platform): void {
  const declared: readonly Resource[] = RESOURCES;
  const unlisted = platform.resources.filter((resource) => !declared.includes(resource));
  if (unlisted.length) throw new Error(`Resources missing from resources/index.ts: ${unlisted.map((r) => r.key).join(', ')}`);
  for (const resource of RESOURCES) if (!resource.ownRoutes && !platform.resources.includes(resource)) registerCrud(app, platform, resource);
}
