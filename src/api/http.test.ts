// @vitest-environment node
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANCELLED, createHttp, fileNameOf, type Http, NETWORK_ERROR, RequestError, TIMEOUT_ERROR } from './http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const seen: IncomingMessage[] = [];
let server: Server;
let origin = '';

const json = (status: number, body: unknown): Handler => (_, res) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) handler(req, res);
    else json(404, { code: 404, success: false, msg: '404 没找到请求' })(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  routes.set('/ok', json(200, { code: 200, success: true, data: { a: 1 }, msg: '操作成功' }));
  routes.set('/raw-token', json(200, { access_token: 't' }));
  routes.set('/refused', json(200, { error_code: 400, error_description: '用户名或密码错误' }));
  routes.set('/business', json(200, { code: 400, success: false, msg: '业务异常' }));
  routes.set('/status-only', (_, res) => {
    res.writeHead(403);
    res.end('forbidden');
  });
  routes.set('/description', json(400, { error_description: '缺少参数' }));
  routes.set('/unknown500', json(500, { code: 500 }));
  routes.set('/unauth500', json(500, { code: 500, msg: '请求未授权' }));
  routes.set('/unauthorized', json(401, { code: 401, success: false, msg: '请求未授权' }));
  routes.set('/unauthorized-en', json(401, { code: 401, success: false, msg: 'Not signed in' }));
  routes.set('/missing-token', json(401, { code: 401, success: false, msg: '缺失令牌,鉴权失败' }));
  routes.set('/teapot', json(200, { code: 418, msg: 'whitelisted' }));
  routes.set('/bad-gateway', json(502, { code: 502, msg: 'bad gateway' }));
  routes.set('/file', (_, res) => {
    const name = encodeURIComponent('设备列表-20260301-081500.xlsx');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="export.xlsx"; filename*=UTF-8''${name}`, 'x-export-rows': '2' });
    res.write('abc');
    setTimeout(() => res.end('defg'), 20);
  });
  routes.set('/endless', (_, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write('x');
  });
  routes.set('/slow', (_, res) => setTimeout(() => json(200, { code: 200 })(_, res), 500));
  routes.set('/echo', (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => json(200, { code: 200, data: { body, query: req.url, type: req.headers['content-type'] } })(req, res));
  });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let token: string | undefined;
let notify = vi.fn();
let onUnauthorized = vi.fn();
let http: Http;

function make(extra: Partial<Parameters<typeof createHttp>[0]> = {}) {
  return createHttp({
    prefixUrl: origin,
    clientId: 'saber',
    clientSecret: 'saber_secret',
    tokenHeader: 'Blade-Auth',
    token: () => token,
    notify,
    onUnauthorized,
    whitelist: [418],
    ...extra,
  });
}

beforeEach(() => {
  token = undefined;
  notify = vi.fn();
  onUnauthorized = vi.fn();
  seen.length = 0;
  http = make();
});

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
};

describe('request layer', () => {
  it('resolves a 200 envelope with its body', async () => {
    await expect(http.get('/ok')).resolves.toEqual({ code: 200, success: true, data: { a: 1 }, msg: '操作成功' });
    expect(notify).not.toHaveBeenCalled();
  });

  it('resolves raw bodies without a code by the HTTP status (token responses, refusals included)', async () => {
    await expect(http.post('/raw-token')).resolves.toEqual({ access_token: 't' });
    await expect(http.post('/refused')).resolves.toEqual({ error_code: 400, error_description: '用户名或密码错误' });
  });

  it('sends the Basic client header always and the bearer token unless the request opts out', async () => {
    await http.get('/ok');
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from('saber:saber_secret').toString('base64')}`);
    expect(seen[0].headers['blade-auth']).toBeUndefined();
    token = 'jwt-1';
    await http.get('/ok');
    expect(seen[1].headers['blade-auth']).toBe('bearer jwt-1');
    await http.get('/ok', { authenticate: false });
    expect(seen[2].headers['blade-auth']).toBeUndefined();
    expect(seen[2].headers.authorization).toMatch(/^Basic /);
  });

  it('sends query params without empty values, JSON bodies and extra headers', async () => {
    const reply = await http.post<{ data: { body: string; query: string; type: string } }>('/echo', {
      searchParams: { tenantId: '000000', empty: '', gone: undefined },
      json: [{ type: 'error' }],
      headers: { 'Tenant-Id': '000000' },
    });
    expect(reply.data.query).toBe('/echo?tenantId=000000');
    expect(JSON.parse(reply.data.body)).toEqual([{ type: 'error' }]);
    expect(reply.data.type).toMatch(/application\/json/);
    expect(seen[0].headers['tenant-id']).toBe('000000');
  });

  it('rejects a body code other than 200 with its msg and toasts it', async () => {
    const error = await failure(http.get('/business'));
    expect([error.message, error.code]).toEqual(['业务异常', 400]);
    expect(notify).toHaveBeenCalledWith('业务异常');
  });

  it('takes the code from the HTTP status and falls back to error_description, then 未知错误', async () => {
    const forbidden = await failure(http.get('/status-only'));
    expect([forbidden.code, forbidden.message]).toEqual([403, '未知错误']);
    expect(notify).not.toHaveBeenCalled();
    const described = await failure(http.get('/description'));
    expect([described.code, described.message]).toEqual([400, '缺少参数']);
    expect(notify).toHaveBeenCalledWith('缺少参数');
  });

  it('shows a 500 with 未知错误 or 请求未授权 only once per session', async () => {
    await failure(http.get('/unknown500'));
    await failure(http.get('/unauth500'));
    await failure(http.get('/unknown500'));
    expect(notify.mock.calls).toEqual([['未知错误']]);
    http.resetOnce();
    await failure(http.get('/unauth500'));
    expect(notify.mock.calls).toEqual([['未知错误'], ['请求未授权']]);
  });

  it('a 401 logs out; its toast follows the message rule', async () => {
    const error = await failure(http.get('/unauthorized'));
    expect(error.code).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(notify).not.toHaveBeenCalled();
    await failure(http.get('/missing-token'));
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
    expect(notify).toHaveBeenCalledWith('缺失令牌,鉴权失败');
  });

  it('sends the console language as Accept-Language; the English 401 is as quiet as the Chinese', async () => {
    let language = 'zh';
    http = make({ language: () => language });
    await http.get('/ok');
    language = 'en';
    await failure(http.get('/unauthorized-en'));
    expect(seen.map((req) => req.headers['accept-language'])).toEqual(['zh', 'en']);
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(notify).not.toHaveBeenCalled();
  });

  it('rejects whitelisted codes silently', async () => {
    const error = await failure(http.get('/teapot'));
    expect([error.silent, error.code]).toEqual([true, 418]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('rejects network failures and statuses beyond 500 with an error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = make({ prefixUrl: `http://127.0.0.1:${port}/` });
    const error = await failure(offline.get('/ok'));
    expect(error.message).toBe(NETWORK_ERROR);
    const gateway = await failure(http.get('/bad-gateway'));
    expect(gateway.code).toBe(502);
  });

  it('times out', async () => {
    const impatient = make({ timeout: 100 });
    const error = await failure(impatient.get('/slow'));
    expect(error.message).toBe(TIMEOUT_ERROR);
  });
});

describe('downloads', () => {
  it('streams a file with its progress and the file name the server gives', async () => {
    const seenProgress: unknown[] = [];
    const file = await http.download('/file', { onProgress: (p) => seenProgress.push(p) });
    expect(await file.blob.text()).toBe('abcdefg');
    expect(file.fileName).toBe('设备列表-20260301-081500.xlsx');
    expect(seenProgress[0]).toEqual({ bytes: 0, rows: 2 });
    expect(seenProgress.at(-1)).toEqual({ bytes: 7, rows: 2 });
  });

  it('handles a refusal like any call: toasted, rejected', async () => {
    const error = await failure(http.download('/business'));
    expect(error.message).toBe('业务异常');
    expect(notify).toHaveBeenCalledWith('业务异常');
  });

  it('is cancelled quietly', async () => {
    const controller = new AbortController();
    const pending = http.download('/endless', { signal: controller.signal, onProgress: ({ bytes }) => bytes > 0 && controller.abort() });
    const error = await failure(pending);
    expect([error.message, error.silent]).toEqual([CANCELLED, true]);
    expect(notify).not.toHaveBeenCalled();
  });

  it('reads the plain file name when no UTF-8 one is given', () => {
    expect(fileNameOf('attachment; filename="a.xlsx"')).toBe('a.xlsx');
    expect(fileNameOf(null)).toBeUndefined();
  });
});
