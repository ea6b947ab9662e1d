import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';

export function registerAccess(app: FastifyInstance, platform: Platform): void {
  void app;
  void platform;
}
