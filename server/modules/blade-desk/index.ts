import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { registerNotice } from './notice-routes';

export { type NewNotice, publishNotice, unreadNoticeCount, unreadNotices } from './notices';

/** blade-desk: station notices. */
export function registerDesk(app: FastifyInstance, platform: Platform): void {
  registerNotice(app, platform);
}
