import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { languageOf, translate } from '../../resources/messages';
import { needs } from '../auth/rights';
import { unauthorized } from '../http/envelope';
import { type ReadySources, readiness } from './health';
import { QUIET_ROUTES } from './logging';
import type { Metrics } from './metrics';

/**
 * The operator's endpoints at the root, beside the API (docs/operations.md "Observability"): `/health` and `/ready` for
 * load balancers and Kubernetes probes, open to anyone and cheap; `/metrics` for Prometheus, behind the metrics token.
 * None of them goes to the API log (they are no API path) or, answered well, to the request log.
 */

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The bearer token of `Authorization: Bearer <token>`. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.match(/^bearer\s+(\S+)$/i)?.[1];
}

/** Compares in constant time: digests of equal length, so neither the token's length nor its prefix leaks. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!given || !expected) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** Times every answered call into the API latency histogram, by route pattern (never the URL asked for). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (!(route && QUIET_ROUTES.has(route))) metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export interface ObserveRoutes {
  metrics: Metrics;
  /** The bearer token /metrics asks for (config.metricsToken). */
  metricsToken: string;
  ready: ReadySources;
}

export function registerObserveRoutes(app: FastifyInstance, { metrics, metricsToken, ready }: ObserveRoutes): void {
  // Public: probes carry no credentials. /metrics checks its own token, which is no user's.
  app.get('/health', needs.public, async () => ({ status: 'ok' }));

  app.get('/ready', needs.public, async (request, reply) => {
    const found = await readiness(ready);
    if (found.ready) return { status: 'ok', checks: found.checks };
    const language = languageOf(request.headers['accept-language']);
    return reply.code(503).send({ status: 'unavailable', checks: found.checks, reasons: found.reasons.map((reason) => translate(reason, language)) });
  });

  app.get('/metrics', needs.public, async (request, reply) => {
    if (!tokenMatches(bearerOf(request), metricsToken)) throw unauthorized();
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}
