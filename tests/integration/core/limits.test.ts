import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_LIMITS, type CallLimit, type CallLimits, type LimitName } from '../../../server/http/limits';
import { ApiClient, type Envelope, type Params, signedIn } from '../../support/client';
import { expectOk, type PageData } from '../../support/envelope';
import { hasBinary, type Service, startRedis } from '../../support/services';
import { startServer, type TestServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';

const X = '/api/wit-xinde';
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Every limit at `max` calls a minute: low enough to pass in a test. */
const lowered = (max: number): CallLimits =>
  Object.fromEntries(Object.entries(CALL_LIMITS).map(([name, limit]) => [name, { ...limit, max, windowMs: MINUTE }])) as Record<LimitName, CallLimit>;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Envelope<unknown>;
}

/** A call with its status, Retry-After and envelope (list exports answer a file: only its status matters then). */
async function call(client: ApiClient, method: 'GET' | 'POST', path: string, options: { query?: Params; json?: unknown; form?: FormData } = {}): Promise<Answer> {
  const url = new URL(path, client.baseUrl);
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
  const headers = client.headers(options.json !== undefined ? { 'content-type': 'application/json' } : {});
  const body = options.form ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined);
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Envelope<unknown>) : ({ code: response.status } as Envelope<unknown>);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: json };
}

/** A refusal of a call limit: HTTP 429, the envelope, and Retry-After within the window. */
function expectLimited(answer: Answer, message: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  expect(answer.body).toMatchObject({ code: 429, success: false, msg: expect.stringContaining(message) });
  const seconds = Number(answer.retryAfter);
  // The rest of the minute that started with the first call counted: the refusals come well within it.
  expect(seconds).toBeGreaterThanOrEqual(30);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(answer.body.msg).toContain(`${seconds} 秒`);
}

const exportParams = (client: ApiClient) => call(client, 'GET', '/api/blade-system/param/export', { query: { columns: 'paramKey:键名' } });

/** Every limit at two calls a minute, and the data board's turned off (0, as CALL_LIMITS=report=0 does). */
const LIMITS: CallLimits = { ...lowered(2), report: { ...CALL_LIMITS.report, max: 0 } };

onEveryStore('call limits', { signIn: ['demo', 'admin', 'operator'], config: { limits: LIMITS } }, (ctx) => {
  it('refuses a third export a minute with 429, Retry-After and the envelope; another user still exports', async () => {
    expect((await exportParams(ctx.demo)).status).toBe(200);
    expect((await exportParams(ctx.demo)).status).toBe(200);
    expectLimited(await exportParams(ctx.demo), '导出过于频繁');
    // Per user: the administrator of the platform has calls of its own.
    expect((await exportParams(ctx.admin)).status).toBe(200);
    // And in English for an English console.
    const english = new ApiClient(ctx.server.url, ctx.demo.tenantId);
    english.token = ctx.demo.token;
    english.language = 'en';
    const refused = await exportParams(english);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe(`Too many exports: try again in ${refused.retryAfter} s`);
  });

  it('counts uploads per user', async () => {
    const upload = () => {
      const form = new FormData();
      form.append('file', new Blob(['limit test']), 'limit.txt');
      return call(ctx.admin, 'POST', '/api/blade-resource/oss/endpoint/put-file', { form });
    };
    for (let i = 0; i < 2; i++) expect((await upload()).body).toMatchObject({ code: 200, success: true });
    expectLimited(await upload(), '上传过于频繁');
  });

  it('counts history charts over long ranges only', async () => {
    const devices = expectOk(await ctx.demo.get<PageData>(`${X}/device/list`, { size: 1 }));
    const deviceId = devices.records[0].id;
    const chart = (days: number) => {
      const end = Date.now();
      return call(ctx.demo, 'GET', `${X}/devicelog/getHistoryEchartsData`, { query: { deviceId, startTime: end - days * DAY, endTime: end, width: 50 } });
    };
    // More short charts than the limit: none of them counts.
    for (let i = 0; i < 4; i++) expect((await chart(1)).body.code).toBe(200);
    expect((await chart(30)).body.code).toBe(200);
    expect((await chart(30)).body.code).toBe(200);
    expectLimited(await chart(30), '历史数据查询过于频繁');
    expect((await chart(1)).body.code).toBe(200);
  });

  it('counts push tests whatever their outcome, and captchas per address', async () => {
    const test = () => call(ctx.demo, 'POST', `${X}/subtable/testMQTT`, { json: { pushType: 1, brokerUrl: 'mqtt://127.0.0.1:1', timeout: 1000 } });
    expect((await test()).body.code).toBe(200);
    expect((await test()).body.code).toBe(200);
    expectLimited(await test(), '测试过于频繁');

    // Per address, signed in or not: a signed-in caller from the same address is the third.
    const captcha = (client: ApiClient) => call(client, 'GET', '/api/blade-auth/oauth/captcha');
    expect((await captcha(new ApiClient(ctx.server.url))).status).toBe(200);
    expect((await captcha(new ApiClient(ctx.server.url))).status).toBe(200);
    expectLimited(await captcha(ctx.demo), '获取验证码过于频繁');
  });

  it('counts nothing against a limit turned off', async () => {
    for (let i = 0; i < 3; i++) expect((await call(ctx.demo, 'GET', `${X}/countAvue/avueStatis`)).body.code).toBe(200);
  });

  it('declares the limits of docs/security.md on their routes', () => {
    const limitOf = (method: string, url: string) => {
      const route = ctx.server.app.routes.find((r) => r.method === method && r.url === url);
      if (!route) throw new Error(`no route ${method} ${url}`);
      return route.limit;
    };
    const exports = ctx.server.app.routes.filter((r) => r.url.endsWith('/export'));
    expect(exports.length).toBeGreaterThan(60);
    expect(exports.filter((r) => r.limit !== 'export').map((r) => r.url)).toEqual([]);
    const expected: Array<[method: string, url: string, limit: LimitName]> = [
      ['GET', '/blade-auth/oauth/captcha', 'captcha'],
      ['POST', '/blade-user/register-guest', 'register'],
      ['POST', '/blade-resource/oss/endpoint/put-file', 'upload'],
      ['POST', '/blade-resource/oss/endpoint/put-file-attach', 'upload'],
      ['POST', '/blade-flow/manager/deploy-upload', 'upload'],
      ['POST', '/wit-xinde/devicepoint/upload', 'import'],
      ['POST', '/wit-xinde/device/saveBatch', 'import'],
      ['POST', '/wit-xinde/temperaturecoefficient/batchSave', 'import'],
      ['POST', '/wit-xinde/devicelog/bacthUpdateData', 'import'],
      ['GET', '/wit-xinde/devicelog/getHistoryEchartsData', 'history'],
      ['GET', '/wit-xinde/devicelog/getHistoryEchartsDataByCd', 'history'],
      ['GET', '/wit-xinde/devicelog/getHistoryEchartsByCode', 'history'],
      ['GET', '/wit-xinde/devicelog/getHistoryEchartsDataByHour', 'history'],
      ['GET', '/wit-xinde/datacomparison/getHistoryEchartsData', 'history'],
      ['GET', '/wit-xinde/countAvue/avueStatis', 'report'],
      ['POST', '/wit-xinde/device/computeSettlement', 'report'],
      ['POST', '/wit-xinde/device/setDevInitValue', 'recompute'],
      ['POST', '/wit-xinde/device/recalculate', 'recompute'],
      ['GET', '/wit-xinde/thirdmonitorparam/getThirdProject', 'thirdParty'],
      ['POST', '/wit-xinde/thirdmonitorparam/bingProject', 'thirdParty'],
      ['POST', '/wit-xinde/thirdmonitorparam/getThirdData', 'thirdParty'],
      ['GET', '/wit-xinde/thirdmonitorproject/getThirdDevice', 'thirdParty'],
      ['POST', '/wit-xinde/thirdmonitorproject/bingDevice', 'thirdParty'],
      ['POST', '/wit-xinde/devicecustomer/syncDeviceInfo', 'thirdParty'],
      ['GET', '/wit-xinde/pointcustomer/syncPointInfo', 'thirdParty'],
      ['POST', '/wit-xinde/projectcustomer/syncProject', 'thirdParty'],
      ['POST', '/wit-xinde/tenantproject/pushMqttData', 'pushRange'],
      ['POST', '/wit-xinde/tenantproject/pushHttpData', 'pushRange'],
      ['POST', '/wit-xinde/tenantproject/pushDataByDev', 'pushRange'],
      ['POST', '/wit-xinde/tenantproject/pushDataByDev2', 'pushRange'],
      ['POST', '/wit-xinde/subtable/testMQTT', 'connectionTest'],
      ['POST', '/blade-resource/sms/endpoint/send-message', 'connectionTest'],
      ['POST', '/blade-log/error/upload', 'clientErrors'],
    ];
    expect(expected.map(([method, url]) => [method, url, limitOf(method, url)])).toEqual(expected);
    // Every limit of the table is on some route.
    expect(new Set(ctx.server.app.routes.flatMap((r) => (r.limit ? [r.limit] : [])))).toEqual(new Set(Object.keys(CALL_LIMITS)));
  });

  it('does not count calls the caller had no right to make', async () => {
    // The duty operator watches devices but holds no param menu: refused exports leave its two allowed ones.
    for (let i = 0; i < 3; i++) expect((await exportParams(ctx.operator)).status).toBe(403);
    const devices = () => call(ctx.operator, 'GET', `${X}/device/export`, { query: { columns: 'code:设备编号' } });
    expect((await devices()).status).toBe(200);
    expect((await devices()).status).toBe(200);
    expectLimited(await devices(), '导出过于频繁');
  });
});

/** A call of each limit's route with nothing in it: counted before its body is read, whatever it answers then. */
const LIMITED_CALLS: Array<[limit: Exclude<LimitName, 'register'>, method: 'GET' | 'POST', path: string, query?: Params]> = [
  ['captcha', 'GET', '/api/blade-auth/oauth/captcha'],
  ['upload', 'POST', '/api/blade-resource/oss/endpoint/put-file'],
  ['import', 'POST', `${X}/device/saveBatch`],
  ['export', 'GET', '/api/blade-system/param/export'],
  ['history', 'GET', `${X}/devicelog/getHistoryEchartsData`, { startTime: Date.now() - 30 * DAY, endTime: Date.now() }],
  ['report', 'GET', `${X}/countAvue/avueStatis`],
  ['recompute', 'POST', `${X}/device/recalculate`],
  ['thirdParty', 'GET', `${X}/thirdmonitorparam/getThirdProject`],
  ['pushRange', 'POST', `${X}/tenantproject/pushMqttData`],
  ['connectionTest', 'POST', `${X}/subtable/testMQTT`],
  ['clientErrors', 'POST', '/api/blade-log/error/upload'],
];

/** What each refusal says. Register's is not here: only a third-party guest reaches that limit (docs/testing.md). */
const REFUSALS: Record<(typeof LIMITED_CALLS)[number][0], [chinese: string, english: string]> = {
  captcha: ['获取验证码过于频繁', 'Too many captcha requests'],
  upload: ['上传过于频繁', 'Too many uploads'],
  import: ['导入过于频繁', 'Too many imports'],
  export: ['导出过于频繁', 'Too many exports'],
  history: ['历史数据查询过于频繁', 'Too many history queries'],
  report: ['统计查询过于频繁', 'Too many statistics queries'],
  recompute: ['重新计算过于频繁', 'Too many recalculations'],
  thirdParty: ['第三方平台请求过于频繁', 'Too many requests to third-party platforms'],
  pushRange: ['推送过于频繁', 'Too many pushes'],
  connectionTest: ['测试过于频繁', 'Too many tests'],
  clientErrors: ['错误上报过于频繁', 'Too many error reports'],
};

onEveryStore('each call limit', { signIn: ['demo'], config: { limits: lowered(1) } }, (ctx) => {
  it.each(LIMITED_CALLS)('%s: the call after the first in a minute is refused in its own words', async (limit, method, path, query) => {
    const [chinese, english] = REFUSALS[limit];
    const caller = limit === 'captcha' ? new ApiClient(ctx.server.url) : ctx.demo;
    const first = await call(caller, method, path, { query, ...(method === 'POST' && limit !== 'upload' ? { json: {} } : {}) });
    expect(first.status, JSON.stringify(first.body)).not.toBe(429);
    expect([401, 403]).not.toContain(first.status);
    expectLimited(await call(caller, method, path, { query }), chinese);
    const inEnglish = new ApiClient(ctx.server.url, caller.tenantId);
    inEnglish.token = caller.token;
    inEnglish.language = 'en';
    const refused = await call(inEnglish, method, path, { query });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe(`${english}: try again in ${refused.retryAfter} s`);
  });
});

const withRedis = hasBinary('redis-server');
if (!withRedis) console.warn('redis-server is not installed: the call limits shared through Redis are skipped.');

describe.runIf(withRedis)('call limits shared through Redis', () => {
  let redis: Service;
  let servers: TestServer[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    const config = { redisUrl: redis.url, limits: lowered(3) };
    servers = [await startServer('sqlite', config), await startServer('sqlite', config)];
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await redis?.stop();
  });

  it('counts a user over every process: the fourth export is refused by both', async () => {
    // The seeded administrator has the same id in both stores, as one user has in processes sharing a database.
    const [first, second] = await Promise.all(servers.map((server) => signedIn(server.url)));
    expect((await exportParams(first)).status).toBe(200);
    expect((await exportParams(second)).status).toBe(200);
    expect((await exportParams(first)).status).toBe(200);
    expectLimited(await exportParams(second), '导出过于频繁');
    expectLimited(await exportParams(first), '导出过于频繁');
  });

  it('lets calls, sign-ins and devices through while Redis cannot be reached, answers captchas 503, and stops without it', async () => {
    const demo = await signedIn(servers[0].url, 'admin', 'admin', '100001');
    expectOk(await demo.post(`${X}/mqttuser/submit`, { username: 'redis-away', password: 'Device#Secret01', clientType: 1, clientId: 'redis-away' }));
    await redis.stop();
    // The administrator is over the export limit in Redis (the test before): with Redis away its calls go through.
    // (The store now refuses at once; queued for Redis' return, each call waited seconds — not asserted: no timings.)
    const admin = await signedIn(servers[0].url);
    expect((await exportParams(admin)).status).toBe(200);
    // A captcha can be neither issued nor checked: 503 in the contract's words, not 500 服务器异常.
    const anonymous = new ApiClient(servers[0].url);
    const captcha = await call(anonymous, 'GET', '/api/blade-auth/oauth/captcha');
    expect(captcha.status).toBe(503);
    expect(captcha.body).toMatchObject({ code: 503, success: false, msg: '服务暂不可用,请稍后再试' });
    anonymous.language = 'en';
    expect((await call(anonymous, 'GET', '/api/blade-auth/oauth/captcha')).body.msg).toBe('The service is unavailable for a moment: try again shortly');
    const query = { tenantId: '000000', username: 'admin', password: 'admin', grant_type: 'captcha' };
    const grant = await new ApiClient(servers[0].url).request('POST', '/api/blade-auth/oauth/token', { query, headers: { 'captcha-key': 'any', 'captcha-code': 'ab12' } });
    expect(grant.status).toBe(503);
    // Devices: the lockout (a throttle) stands aside, the credential is still checked.
    const broker = `mqtt://127.0.0.1:${servers[0].app.broker?.port}`;
    const device = await mqtt.connectAsync(broker, { username: 'redis-away', password: 'Device#Secret01', clientId: 'redis-away', reconnectPeriod: 0 });
    await device.endAsync();
    await expect(mqtt.connectAsync(broker, { username: 'redis-away', password: 'Wrong#Secret01', clientId: 'redis-away', reconnectPeriod: 0 })).rejects.toThrow(/bad user ?name or password/i);
    // A QUIT that cannot be sent held the shutdown for ever.
    const [first, second] = servers;
    await second.stop();
    servers = [first];
  });
});
