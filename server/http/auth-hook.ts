import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SECRET_MASK } from '../../resources/define';
import { RESOURCES } from '../../resources';
import { DISPLAY_HEADER } from '../../resources/wire/screen';
import type { DisplayLink } from '../auth/display';
import { isGuest, type Principal } from '../auth/principal';
import { menuRight, PUBLIC, type Right } from '../auth/rights';
import { principalOf } from '../auth/tokens';
import type { Platform } from '../platform';
import type { LimitName } from './limits';
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
 * Refuses to register an API route that does not declare the right it needs (server/auth/rights.ts), so a new module
 * cannot forget it.
 */
export function requireDeclaredRights(app: FastifyInstance, table: DeclaredRoute[]): void {
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (route.method === 'OPTIONS' || !API_PATH.test(url)) return;
    const right = route.config?.right;
    if (!right) throw new Error(`${String(route.method)} ${url} declares no right (server/auth/rights.ts)`);
    const limit = route.config?.limit?.name;
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url, right, ...(limit ? { limit } : {}) });
  });
}

/** An API route and the right it declared: the authorisation table (docs/authorisation.md, the route walk test). */
export interface DeclaredRoute {
  method: string;
  url: string;
  right: Right;
  /** The call limit it counts against (server/http/limits.ts, docs/security.md), if any. */
  limit?: LimitName;
}

/**
 * A display route's credential (docs/wall-screen.md): the link of the `Vigil-Display` header, or a 401 saying why
 * not. A user's token does not count here, and the header counts nowhere else. The link's last use is recorded.
 */
async function displayOf(platform: Platform, request: FastifyRequest): Promise<DisplayLink> {
  const header = request.headers[DISPLAY_HEADER];
  const check = await platform.displays.verify(Array.isArray(header) ? header[0] : header);
  if ('refused' in check) throw unauthorized(check.refused);
  await platform.displays.touch(check.link, request.ip, request.headers['user-agent']);
  return check.link;
}

/**
 * The authentication and authorisation gate of every API call, before its body is read: verifies the access token,
 * refuses revoked ones and accounts no longer enabled, narrows the token's roles to those the user still holds,
 * checks the route's declared right, then BladeX's API scopes. Display routes take a display link instead.
 */
export function installAuth(app: FastifyInstance, platform: Platform): void {
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (!route) return; // unknown route: the not-found handler answers
    const right: Right | undefined = request.routeOptions.config.right ?? (API_PATH.test(route) ? undefined : PUBLIC);
    if (!right) throw forbidden(); // unreachable: requireDeclaredRights refuses such routes
    if (right.kind === 'display') {
      request.display = await displayOf(platform, request);
      return;
    }
    const open = right.kind === 'public';
    const token = tokenOf(request);
    if (!token) {
      if (open) return;
      throw unauthorized(MESSAGES.missingToken);
    }
    const verified = await platform.tokens.verify(token, 'access_token');
    const claims = 'claims' in verified ? verified.claims : undefined;
    if (!claims || platform.revocations.isRevoked(claims.jti, claims.sid)) {
      if (open) return;
      throw unauthorized();
    }
    const principal = principalOf(claims);
    if (isGuest(principal)) {
      if (open || right.kind === 'guest' || right.kind === 'session') request.principal = principal;
      else throw unauthorized();
      return;
    }
    const caller = await platform.rights.current(principal);
    if (!caller) {
      if (open) return;
      throw unauthorized();
    }
    if (!(await platform.rights.allows(caller, right))) throw forbidden();
    if ((right.kind === 'menu' || right.kind === 'lookup') && !(await platform.scopes.apiAllowed(caller, pathOf(request)))) throw forbidden();
    request.principal = caller;
  });
}

/** Refuses the call unless the caller holds one of the codes: for calls whose right depends on their body. */
export async function assertRight(platform: Platform, principal: Principal, ...codes: string[]): Promise<void> {
  if (!(await platform.rights.allows(principal, menuRight(...codes)))) throw forbidden();
}

// A display secret travels in a header, which the log never records; a client that put it in a field is masked too.
const SECRET_FIELDS = /pass(word)?|secret|token|captcha|^(vigil-)?display$/i;
/** The fields the resources declare secret (a push target's `headers` among them), and those secret on some rows. */
const DECLARED_SECRETS = new Set<string>(RESOURCES.flatMap((resource): readonly string[] => resource.secrets ?? []));
const SECRET_ROWS = RESOURCES.flatMap((resource) => (resource.secretRows ? [resource.secretRows] : []));

/** Parameters or a body as the logs may keep them: every secret masked (docs/security.md). */
export function masked(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_FIELDS.test(key) || DECLARED_SECRETS.has(key) ? SECRET_MASK : v;
  for (const rows of SECRET_ROWS) {
    if (rows.field in out && rows.keys.includes(String(out[rows.keyField] ?? '').trim())) out[rows.field] = SECRET_MASK;
  }
  return out;
}

/** Every API call goes to blade_log_api, with secrets masked and long bodies cut. */
export function installApiLog(app: FastifyInstance, platform: Platform): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route || !API_PATH.test(route) || request.method === 'OPTIONS') return;
    const body = request.body && typeof request.body === 'object' ? masked(request.body) : undefined;
    const params = JSON.stringify({ ...(masked(request.query) as object), ...(body ? { body } : {}) }).slice(0, 4000);
    const display = request.display;
    platform.logs.write('blade_log_api', {
      tenantId: request.principal?.tenantId ?? display?.tenantId ?? '000000',
      createUser: request.principal?.userId,
      // A wall screen is named by its link, never by its secret.
      createBy: request.principal?.account ?? (display ? `display:${display.id}` : undefined),
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
