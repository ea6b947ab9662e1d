import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isGuest } from '../auth/principal';
import { principalOf } from '../auth/tokens';
import type { Platform } from '../platform';
import type { Access } from './context';
import { forbidden, MESSAGES, unauthorized } from './envelope';

/** Paths of the API services (after the optional /api prefix is stripped). */
export const API_PATH = /^\/(blade|wit)-[a-z-]+(\/|$)/;

export const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

/** `Blade-Auth: bearer <jwt>`, or a bearer Authorization header from non-console clients. */
function tokenOf(request: FastifyRequest): string | undefined {
  for (const header of [request.headers['blade-auth'], request.headers.authorization]) {
    const value = Array.isArray(header) ? header[0] : header;
    const match = value?.match(/^bearer\s+(\S+)$/i);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * Authenticates every API call before its body is read: verifies the access token, refuses revoked ones, lets
 * guests reach only guest routes, and applies API scope. Routes opt out with `config.access`.
 */
export function installAuth(app: FastifyInstance, platform: Platform): void {
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!route) return; // unknown route: the not-found handler answers
    const access: Access = request.routeOptions.config.access ?? (API_PATH.test(route) ? 'user' : 'public');
    const token = tokenOf(request);
    if (!token) {
      if (access === 'public') return;
      throw unauthorized(MESSAGES.missingToken);
    }
    const verified = await platform.tokens.verify(token, 'access_token');
    const claims = 'claims' in verified ? verified.claims : undefined;
    if (!claims || platform.revocations.isRevoked(claims.jti, claims.sid)) {
      if (access === 'public') return;
      throw unauthorized();
    }
    const principal = principalOf(claims);
    if (isGuest(principal) && access === 'user') throw unauthorized();
    if (access === 'user' && !(await platform.scopes.apiAllowed(principal, pathOf(request)))) throw forbidden();
    request.principal = principal;
  });
}

const SECRET_FIELDS = /pass(word)?|secret|token|captcha/i;

function masked(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_FIELDS.test(key) ? '******' : v;
  return out;
}

/** Every API call goes to blade_log_api, with secrets masked and long bodies cut. */
export function installApiLog(app: FastifyInstance, platform: Platform): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route || !API_PATH.test(route) || request.method === 'OPTIONS') return;
    const body = request.body && typeof request.body === 'object' ? masked(request.body) : undefined;
    const params = JSON.stringify({ ...(masked(request.query) as object), ...(body ? { body } : {}) }).slice(0, 4000);
    platform.logs.write('blade_log_api', {
      tenantId: request.principal?.tenantId ?? '000000',
      createUser: request.principal?.userId,
      createBy: request.principal?.account,
      type: String(reply.statusCode),
      title: route,
      method: request.method,
      requestUri: pathOf(request),
      userAgent: request.headers['user-agent']?.slice(0, 500),
      remoteIp: request.ip,
      methodName: route,
      params,
      time: Math.round(reply.elapsedTime),
    });
  });
}
