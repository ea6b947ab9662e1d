import type { FastifyInstance } from 'fastify';
import { languageOf, translate } from '../../resources/messages';

/** The field that carries text for people: the envelope's `msg`, a refused sign-in's `error_description`. */
function textField(body: Record<string, unknown>): 'msg' | 'error_description' | undefined {
  if (typeof body.success === 'boolean' && typeof body.msg === 'string') return 'msg';
  if (typeof body.error_code === 'number' && typeof body.error_description === 'string') return 'error_description';
  return undefined;
}

/**
 * The one place the server's messages follow the request's language (Accept-Language, docs/console-screens.md
 * "Languages"). Every JSON answer passes preSerialization — routes, the error handler, the 404 handler, the throttles —
 * so messages are written in Chinese everywhere and translated here, on the way out. The exception: Fastify's
 * refusals of a path before routing run no hook and translate themselves (errors.ts `frameworkErrors`).
 */
export function installTranslation(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const language = languageOf(request.headers['accept-language']);
    if (language === 'zh' || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
    const body = payload as Record<string, unknown>;
    const field = textField(body);
    // A copy: the payload may be a constant or shared by other answers.
    return field ? { ...body, [field]: translate(body[field] as string, language) } : payload;
  });
}
