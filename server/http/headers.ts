import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Security headers of every answer (docs/security.md "Headers"), by @fastify/helmet, with a content security policy
 * the console (a Vite-built React app: Blueprint, ECharts on canvas, socket.io, bpmn-js, the wall screen's workers)
 * works under. tests/e2e/csp.test.ts walks the main screens and fails on any violation.
 */

/** A Host header fit to stand in a policy (the browser sent it; a proxy may have rewritten it). */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * socket.io's WebSocket on the page's own host. CSP level 3 counts ws:/wss: of the same host as 'self', which current
 * browsers follow; the explicit sources keep older ones working. A Host that does not parse adds nothing.
 */
const sameHostSocket = (scheme: 'ws' | 'wss') => (request: IncomingMessage) => {
  const host = request.headers.host ?? '';
  return HOST.test(host) ? `${scheme}://${host}` : "'self'";
};

export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  // Only the build's own files: index.html has no inline script, the wall screen's workers are files too.
  'script-src': ["'self'"],
  'worker-src': ["'self'"],
  // Blueprint, ECharts' tooltips and bpmn-js set style attributes and <style> elements at run time.
  'style-src': ["'self'", "'unsafe-inline'"],
  // Stored files: local storage answers on this origin, S3-compatible storage at its https links; previews of
  // uploads are data: and blob: URLs; avatars and notices' pictures name any https address.
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'media-src': ["'self'", 'data:', 'blob:', 'https:'],
  'font-src': ["'self'", 'data:'],
  // The API and socket.io (its polling and its WebSocket) on this origin only.
  'connect-src': ["'self'", sameHostSocket('ws'), sameHostSocket('wss')],
  // Iframe menus (/myiframe) show pages the platform's administrators named.
  'frame-src': ["'self'", 'http:', 'https:'],
  // The console may be framed by itself only (clickjacking).
  'frame-ancestors': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'manifest-src': ["'self'"],
};

export async function installSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'corsOrigins'>): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // Stored files and images are for this origin's pages, and those of the origins CORS_ORIGINS lets in.
    crossOriginResourcePolicy: { policy: config.corsOrigins.length ? 'cross-origin' : 'same-origin' },
    // Browsers heed it over HTTPS only; subdomains are the operator's to decide.
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
  });
}
