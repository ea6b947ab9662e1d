import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { languageOf, translate } from '../../resources/messages';
import { StoreUnavailable } from '../cache';
import type { LogWriter } from '../logs';
import { ApiError, failure, MESSAGES } from './envelope';
import { masked, pathOf } from './auth-hook';

/**
 * Maps framework errors (body parsing, media type, size) onto the contract's codes and messages. Fastify 5 names a
 * body that is not JSON by its code; a SyntaxError from anywhere else (stored JSON that does not parse) is a fault of
 * ours, logged and answered 500. No route declares a schema, so there are no validation errors to map.
 */
function mapFrameworkError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, MESSAGES.unsupportedMedia);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new ApiError(413, MESSAGES.tooLarge);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, `${MESSAGES.validation}: 请求体不是合法的 JSON`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ApiError(415, MESSAGES.unsupportedMedia);
  }
  // Redis away: a captcha cannot be issued or checked until it is back (docs/operations.md), not a fault to log.
  if (error instanceof StoreUnavailable) return new ApiError(503, MESSAGES.unavailable);
  // Any other refusal of the framework or its plugins (a multipart field named __proto__): its status, our words, not
  // the library's English.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return new ApiError(error.statusCode, MESSAGES.validation);
  return undefined;
}

/**
 * Fastify's refusals before a request is routed — a path that is not valid percent-encoding, a path parameter over
 * the router's length limit — answered in the envelope like every other (Fastify's own body is not). No hook runs for
 * them, so the message is translated here (language.ts does it for every other answer).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  reply.code(code).send(failure(code, translate(MESSAGES.badUrl, languageOf(request.headers['accept-language']))));
}

/**
 * While the server closes, a connection busy with a call is closed once answered (`connection: close`): it would
 * otherwise stay open to the end of its keep-alive (72 s), holding the close past main.ts's bound. Idle connections
 * Fastify closes itself when the close begins.
 */
export function closeConnectionsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}

/** The error handler: every failure leaves as the envelope; unexpected ones are logged, never shown in detail. */
export function installErrorHandler(app: FastifyInstance, logs: LogWriter): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof ApiError ? error : mapFrameworkError(error);
    if (known) return reply.code(known.code).send(failure(known.code, known.message));
    request.log.error({ err: error }, 'unexpected error');
    logs.write('blade_log_error', {
      tenantId: request.principal?.tenantId ?? '000000',
      createBy: request.principal?.account,
      createUser: request.principal?.userId,
      method: request.method,
      // The path alone, as the API log has it: a query may carry a secret, which `params` has masked.
      requestUri: pathOf(request),
      userAgent: request.headers['user-agent'],
      remoteIp: request.ip,
      params: JSON.stringify(masked(request.query ?? {})),
      exceptionName: error.name,
      message: error.message,
      stackTrace: error.stack,
    });
    return reply.code(500).send(failure(500, MESSAGES.serverError));
  });
}
