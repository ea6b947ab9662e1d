import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuth2Provider, type OAuth2ProviderConfig } from '../../../server/auth/social';

/**
 * The OAuth 2 code exchange against identity providers of different shapes (server/auth/social.ts): what it sends,
 * how it reads GitHub-, OIDC- and Gitee-style profiles, and how it refuses. The provider is a real HTTP server on
 * 127.0.0.1 whose answers each test sets; register-guest.test.ts signs a person in through one end to end.
 */

interface Seen {
  form: URLSearchParams;
  tokenHeaders: IncomingMessage['headers'];
  userHeaders: IncomingMessage['headers'];
}

describe('the OAuth 2 code exchange', () => {
  let server: Server;
  let url: string;
  let token: { status: number; body: string } = { status: 200, body: '{}' };
  let user: { status: number; body: string } = { status: 200, body: '{}' };
  const seen: Partial<Seen> = {};

  beforeAll(async () => {
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const answer = request.url === '/token' ? token : user;
        if (request.url === '/token') Object.assign(seen, { form: new URLSearchParams(raw), tokenHeaders: request.headers });
        else seen.userHeaders = request.headers;
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = (extra: Partial<OAuth2ProviderConfig> = {}) =>
    new OAuth2Provider({ source: 'idp', clientId: 'vigil', clientSecret: 'vigil-secret', tokenUrl: `${url}/token`, userInfoUrl: `${url}/user`, ...extra });
  const answers = (tokenBody: unknown, userBody: unknown, statuses: { token?: number; user?: number } = {}) => {
    token = { status: statuses.token ?? 200, body: typeof tokenBody === 'string' ? tokenBody : JSON.stringify(tokenBody) };
    user = { status: statuses.user ?? 200, body: typeof userBody === 'string' ? userBody : JSON.stringify(userBody) };
  };

  it('sends the code with the client’s credentials as a form, then the token as a bearer, both asking for JSON', async () => {
    answers({ access_token: 'at-1' }, { id: 7 });
    await provider().profile('the-code');
    expect(Object.fromEntries(seen.form ?? [])).toEqual({ grant_type: 'authorization_code', code: 'the-code', client_id: 'vigil', client_secret: 'vigil-secret' });
    expect(seen.tokenHeaders).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
    expect(seen.userHeaders).toMatchObject({ authorization: 'Bearer at-1', accept: 'application/json' });
    await provider({ redirectUri: 'https://vigil.example/callback' }).profile('the-code');
    expect(seen.form?.get('redirect_uri')).toBe('https://vigil.example/callback');
  });

  it('reads a GitHub profile', async () => {
    answers({ access_token: 'at' }, { id: 42, login: 'octo', name: 'Octo Cat', avatar_url: 'https://a/o.png', email: 'o@a' });
    expect(await provider().profile('c')).toEqual({ uuid: '42', username: 'octo', nickname: 'Octo Cat', avatar: 'https://a/o.png', email: 'o@a' });
  });

  it('reads an OpenID Connect profile', async () => {
    answers({ access_token: 'at' }, { sub: 'abc-1', preferred_username: 'li', nickname: '小李', picture: 'https://a/l.png' });
    expect(await provider().profile('c')).toEqual({ uuid: 'abc-1', username: 'li', nickname: '小李', avatar: 'https://a/l.png', email: undefined });
  });

  it('reads a profile naming itself by uuid, username and avatar, and ignores fields that are not text', async () => {
    answers({ access_token: 'at' }, { uuid: 'u-9', username: 'wang', avatar: 'https://a/w.png', name: 12, email: null });
    expect(await provider().profile('c')).toEqual({ uuid: 'u-9', username: 'wang', nickname: undefined, avatar: 'https://a/w.png', email: undefined });
  });

  it('refuses a code the provider refuses, answers without a token, or answers with something that is not JSON', async () => {
    const refused = 'idp: the authorisation code was refused';
    answers({ error: 'invalid_grant' }, { id: 1 }, { token: 400 });
    await expect(provider().profile('c')).rejects.toThrow(refused);
    answers({ access_token: 'at' }, { id: 1 }, { token: 500 });
    await expect(provider().profile('c')).rejects.toThrow(refused);
    answers({ token_type: 'bearer' }, { id: 1 });
    await expect(provider().profile('c')).rejects.toThrow(refused);
    answers('<html>', { id: 1 });
    await expect(provider().profile('c')).rejects.toThrow(refused);
  });

  it('refuses a sign-in without a profile: refused, without an id, or not JSON', async () => {
    const none = 'idp: no profile for this sign-in';
    answers({ access_token: 'at' }, { id: 1 }, { user: 401 });
    await expect(provider().profile('c')).rejects.toThrow(none);
    answers({ access_token: 'at' }, { login: 'nobody' });
    await expect(provider().profile('c')).rejects.toThrow(none);
    answers({ access_token: 'at' }, 'not json');
    await expect(provider().profile('c')).rejects.toThrow(none);
  });
});
