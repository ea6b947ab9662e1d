import type { FastifyInstance } from 'fastify';
import type { Workflow } from '../../flow/service';
import type { Platform } from '../../platform';
import { registerDefinitions } from './definitions';
import { registerFollow } from './follow';
import { registerLeave } from './leave';
import { announceNewTasks } from './notices';
import { registerWork } from './work';

/** blade-flow: models, deployments, my work, follow-up; and blade-desk's leave request (docs/workflow.md). */
export function registerFlow(app: FastifyInstance, platform: Platform, workflow: Workflow): void {
  announceNewTasks(platform, workflow);
  registerDefinitions(app, platform, workflow);
  registerWork(app, platform, workflow);
  registerFollow(app, platform, workflow);
  registerLeave(app, platform, workflow);
}
