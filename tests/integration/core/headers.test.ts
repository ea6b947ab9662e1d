import { request } from 'node:http';
import { expect, it } from 'vitest';
import { onEveryStore } from '../../support/suite';

/** CORS closed by default, open to the origins CORS_ORIGINS lists; the security headers (docs/security.md). */

const LISTED = 'https://ops.example.com';
const FOREIGN = 'https://evil.example.net';
/** A public call, so the answer's headers are the whole story. */
const PUBLIC_CALL = '/api/blade-system/tenant/info?domain=localhost';
const SOCKET_HANDSHAKE = '/socket.io/?EIO=4&transport=polling';

/** The content security policy of docs/security.md "Headers", word for word; `HOST` stands for the page's host. */
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' ws://HOST wss://HOST",
  "frame-src 'self' http: https:",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "manifest-src 'self'",
].join(';');

/** The policy answered to a request naming `host` (fetch cannot set Host; a proxy or a client may send anything). */
const policyFor = (url: string, host: string) =>
  new Promise<string>((resolve, reject) => {
    const call = request(new URL(PUBLIC_CALL, url), { headers: { host } }, (answer) => {
      answer.resume();
      resolve(String(answer.headers['content-security-policy']));
    });
    call.on('error', reject);
    call.end();
  });

const preflight = (url: string, origin: string) =>
  fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'blade-auth,content-type' } });

onEveryStore('CORS by default', (ctx) => {
  it('gives a foreign origin no Access-Control-Allow-Origin: not on calls, preflights or socket.io', async () => {
    const answer = await fetch(`${ctx.server.url}${PUBLIC_CALL}`, { headers: { origin: FOREIGN } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const before = await preflight(`${ctx.server.url}/api/blade-system/param/submit`, FOREIGN);
    expect(before.headers.get('access-control-allow-origin')).toBeNull();
    expect(before.headers.get('access-control-allow-methods')).toBeNull();
    const socket = await fetch(`${ctx.server.url}${SOCKET_HANDSHAKE}`, { headers: { origin: FOREIGN } });
    expect(socket.status).toBe(200);
    expect(socket.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers with the security headers and the content security policy', async () => {
    const answer = await fetch(`${ctx.server.url}${PUBLIC_CALL}`);
    expect(answer.headers.get('content-security-policy')).toBe(POLICY.replaceAll('HOST', new URL(ctx.server.url).host));
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(answer.headers.get('strict-transport-security')).toBe('max-age=15552000');
    expect(answer.headers.get('x-powered-by')).toBeNull();
  });

  it("lets the page's own host in for socket.io; a Host that does not parse adds nothing", async () => {
    for (const host of ['vigil.example.com', 'vigil.example.com:8443', '10.0.0.7:80', '[::1]:3000', '[fd00::7]']) {
      expect(await policyFor(ctx.server.url, host), host).toBe(POLICY.replaceAll('HOST', host));
    }
    const closed = POLICY.replace('ws://HOST wss://HOST', "'self' 'self'");
    for (const host of ['evil.example; script-src *', 'vigil.example.com:123456', 'a/b', '[::1]x', 'x [::1]', '[zz::1]', 'vigil:port']) {
      expect(await policyFor(ctx.server.url, host), host).toBe(closed);
    }
  });
});

onEveryStore('CORS for listed origins', { config: { corsOrigins: [LISTED] } }, (ctx) => {
  it('lets a listed origin call the API and socket.io, and still no other', async () => {
    const listed = await fetch(`${ctx.server.url}${PUBLIC_CALL}`, { headers: { origin: LISTED } });
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    const before = await preflight(`${ctx.server.url}/api/blade-system/param/submit`, LISTED);
    expect(before.status).toBe(204);
    expect(before.headers.get('access-control-allow-origin')).toBe(LISTED);
    const socket = await fetch(`${ctx.server.url}${SOCKET_HANDSHAKE}`, { headers: { origin: LISTED } });
    expect(socket.headers.get('access-control-allow-origin')).toBe(LISTED);

    const foreign = await fetch(`${ctx.server.url}${PUBLIC_CALL}`, { headers: { origin: FOREIGN } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const foreignSocket = await fetch(`${ctx.server.url}${SOCKET_HANDSHAKE}`, { headers: { origin: FOREIGN } });
    expect(foreignSocket.headers.get('access-control-allow-origin')).toBeNull();
    // Stored files may then be shown by the listed origin's pages.
    expect(listed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});
