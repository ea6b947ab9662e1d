import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import type { LogLevel } from '../config';

/**
 * The process log (pino, one JSON object a line on stdout): one line per request with its id and tenant, and never a
 * secret (docs/operations.md "Logs").
 */

/** Query parameters whose values are secrets: the password grant's, refresh tokens, OAuth codes, captcha answers. */
const SECRET_PARAM = /pass|secret|token|captcha|credential|signature|^(code|state|ticket|sign|auth|key)$/i;
export const MASK = '******';

/** The URL with the values of secret query parameters masked: `/oauth/token?username=a&password=******`. */
export function maskUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const parts = url.slice(at + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    const raw = eq < 0 ? parts[i] : parts[i].slice(0, eq);
    let name = raw;
    try {
      name = decodeURIComponent(raw.replaceAll('+', ' '));
    } catch {
      // a malformed escape: judged as written
    }
    if (eq >= 0 && SECRET_PARAM.test(name)) {
      parts[i] = `${raw}=${MASK}`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, at)}?${parts.join('&')}` : url;
}

const SECRET_HEADERS = ['authorization', '["blade-auth"]', 'cookie', '["set-cookie"]', '["vigil-display"]', '["captcha-code"]', '["x-api-key"]'];
const SECRET_FIELDS = [
  'password', 'oldPassword', 'newPassword', 'newPassword1', 'token', 'access_token', 'refresh_token', 'accessToken', 'refreshToken',
  'secret', 'secretKey', 'clientSecret', 'client_secret', 'jwtSecret', 'metricsToken', 'display', 'captcha',
];

/**
 * What pino replaces by the mask wherever a line carries it: headers of requests and responses (as objects of their
 * own or under `req`/`res`/any one key) and password, token and secret fields at the top or one level down. The
 * request lines themselves carry no headers and a masked URL; this is the net under every other line.
 */
export const REDACT_PATHS: readonly string[] = [
  ...['headers', 'req.headers', 'res.headers', '*.headers'].flatMap((at) => SECRET_HEADERS.map((h) => (h.startsWith('[') ? `${at}${h}` : `${at}.${h}`))),
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

const REQUEST_ID = /^[\w.:@/-]{1,128}$/;

/** The request's id: the proxy's `X-Request-Id` when it is a plain token, else a new UUID (unique across processes). */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  const value = Array.isArray(given) ? given[0] : given;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

/** Routes whose successful calls are not logged: probes and scrapes come every few seconds and say nothing new. */
export const QUIET_ROUTES: ReadonlySet<string> = new Set(['/health', '/ready', '/metrics']);

/**
 * Fastify's request lines, replaced: Fastify writes two per request with the raw URL and no tenant; this writes one
 * once the request is answered, under the request's child logger (so with `reqId`): tenant and user of the caller,
 * method, masked URL, route pattern, status and time.
 */
class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    if (!error && route && QUIET_ROUTES.has(route) && status < 400) return;
    const caller = request.principal;
    const fields = {
      tenantId: caller?.tenantId ?? request.display?.tenantId ?? null,
      userId: caller?.userId ?? null,
      method: request.method,
      url: maskUrl(request.originalUrl),
      route: route ?? null,
      statusCode: status,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (error) request.log.error({ ...fields, err: error }, 'request errored');
    else if (status >= 500) request.log.error(fields, 'request completed');
    else request.log.info(fields, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method, url: maskUrl(request.originalUrl) }, 'route not found');
  }
}

/** Fastify's logger settings: level, redaction, a request serializer that masks the URL, our request ids and line. */
export function loggerOptions(level: LogLevel): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'logController'> {
  return {
    logger: {
      level,
      redact: { paths: [...REDACT_PATHS], censor: MASK },
      serializers: {
        // Lines that name a request (Fastify's own, on an error or a timeout) see its method and masked URL only.
        req: (request: { method?: string; url?: string }) => ({ method: request.method, url: maskUrl(request.url ?? '') }),
      },
    },
    genReqId: requestId,
    logController: new RequestLog({ requestIdLogLabel: 'reqId' }),
  };
}

/** Sends every request's id back as `X-Request-Id`, for the client's report of a problem to find its log line. */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
