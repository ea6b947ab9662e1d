import { badRequest } from '../http/envelope';
import type { Platform } from '../platform';
import { outboundGuard } from './outbound';

/**
 * Saving an address a tenant configures (docs/push.md "Outbound addresses"): a 400 with the guard's message when it
 * is, or resolves to, the platform's own network. Blank addresses are left to the caller's own rules.
 */
export async function refuseLocalUrl(platform: Platform, url: unknown): Promise<void> {
  if (typeof url !== 'string' || url.trim() === '') return;
  const problem = await outboundGuard(platform.config.outbound).problemOf(url);
  if (problem) throw badRequest(problem);
}

/** As refuseLocalUrl, for a bare host name or address (an SMTP server). */
export async function refuseLocalHost(platform: Platform, host: unknown): Promise<void> {
  if (typeof host !== 'string' || host.trim() === '') return;
  const problem = await outboundGuard(platform.config.outbound).hostProblem(host);
  if (problem) throw badRequest(problem);
}
