import type { FastifyInstance } from 'fastify';
import { param } from '../../../resources/system/param';
import { registerCrud } from '../../http/crud';
import type { Platform } from '../../platform';

export function registerSettings(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, param);
}
