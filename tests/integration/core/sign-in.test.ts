import { randomInt } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_RULES } from '../../../server/auth/sign-in-rules';
import { CALL_LIMITS } from '../../../server/http/limits';
import { ApiClient, signedIn } from '../../support/client';
import { expectOk, type PageData, postParams, type Row } from '../../support/envelope';
import { RELAXED_LIMITS, startServer, type TestServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';

const TOKEN = '/api/blade-auth/oauth/token';
const CAPTCHA = '/api/blade-auth/oauth/captcha';
const USER = '/api/blade-user';
const PASSWORD = 'Pass@1234';
/** The suites' servers trust the test process (127.0.0.1) as their reverse proxy, so X-Forwarded-For picks the address. */
const BEHIND_PROXY = { signIn: DEFAULT_SIGN_IN_RULES, limits: { ...RELAXED_LIMITS, captcha: CALL_LIMITS.captcha }, trustProxy: ['127.0.0.1'] };

type Body = Record<string, unknown>;
interface Captcha {
  key: string;
  code: string;
}
interface SignIn {
  account: string;
  password?: string;
  tenantId?: string;
  /** X-Forwarded-For */
  from?: string;
  captcha?: Captcha;
}

const forwarded = (from?: string): Record<string, string> => (from ? { 'x-forwarded-for': from } : {});

async function signIn(url: string, { account, password = PASSWORD, tenantId = '000000', from, captcha }: SignIn) {
  return new ApiClient(url, tenantId).request<Body>('POST', TOKEN, {
    query: { tenantId, username: account, password, grant_type: captcha ? 'captcha' : 'password', scope: 'all', type: 'account' },
    headers: { 'tenant-id': tenantId, ...forwarded(from), ...(captcha ? { 'captcha-key': captcha.key, 'captcha-code': captcha.code } : {}) },
  });
}

/** A captcha as a person would solve it: the code is read from the server's store. */
async function solvedCaptcha(server: TestServer, from?: string): Promise<Captcha> {
  const reply = await new ApiClient(server.url).request<{ key: string }>('GET', CAPTCHA, { headers: forwarded(from) });
  const code = await server.app.platform.store.peek(`captcha:${reply.body.key}`);
  if (!code) throw new Error(`no captcha: ${JSON.stringify(reply.body)}`);
  return { key: reply.body.key, code: code.toUpperCase() };
}

/** The rules' periods as docs/sign-in.md states them, not read from the code under test. */
const MINUTE = 60_000;

const BAD = { error_code: 400, error_description: '用户名或密码错误' };
const NEEDS_CAPTCHA = { error_code: 428, error_description: '请输入验证码', captcha_required: true };
const LOCKED = { error_code: 423, error_description: '用户登录失败次数过多', captcha_required: true };

onEveryStore('sign-in abuse rules', { signIn: ['admin'], config: BEHIND_PROXY }, (ctx) => {
  let me: Row;

  beforeAll(async () => {
    me = expectOk(await ctx.admin.get<Row>(`${USER}/info`));
  });

  const create = async (account: string) =>
    expectOk(await ctx.admin.post<Row>(`${USER}/submit`, { account, password: PASSWORD, name: account, realName: account, deptId: me.deptId, postId: me.postId, roleId: me.roleId }));
  const signInTo = (attempt: SignIn) => signIn(ctx.server.url, attempt).then((r) => r.body);
  const lockList = async (api: ApiClient, query: Record<string, string> = {}) => expectOk(await api.get<PageData>(`${USER}/lock-list`, query));

  it('throttles sign-in per source address: the 21st in a minute is refused, other addresses and refreshes go on', async () => {
    const from = '203.0.113.21';
    for (let i = 1; i <= DEFAULT_SIGN_IN_RULES.perAddress; i++) expect(await signInTo({ account: `ghost${i}`, from })).toEqual(BAD);
    const throttled = await signIn(ctx.server.url, { account: 'ghost-last', from });
    expect(throttled.status).toBe(200);
    expect(throttled.body).toMatchObject({ error_code: 429, error_description: expect.stringMatching(/^登录过于频繁,请 \d+ 秒后再试$/), retry_after: expect.any(Number) });
    // Even the right password waits: the address is throttled, not the account.
    expect((await signInTo({ account: 'admin', password: 'admin', from })).error_code).toBe(429);
    const other = await signInTo({ account: 'admin', password: 'admin', from: '203.0.113.22' });
    expect(other.access_token).toBeTruthy();
    const refresh = await new ApiClient(ctx.server.url).request<Body>('POST', TOKEN, {
      query: { grant_type: 'refresh_token', refresh_token: String(other.refresh_token) },
      headers: forwarded(from),
    });
    expect(refresh.body.access_token).toBeTruthy();
  });

  it('throttles captcha images per source address with a 429 envelope', async () => {
    const from = '203.0.113.23';
    const get = () => new ApiClient(ctx.server.url).request<Body>('GET', CAPTCHA, { headers: forwarded(from) });
    for (let i = 1; i <= CALL_LIMITS.captcha.max; i++) expect((await get()).body.key).toBeTruthy();
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429, success: false, msg: expect.stringContaining('获取验证码过于频繁') });
  });

  it('throttles sign-in per account from any address; a right captcha still gets through', async () => {
    await create('busy');
    for (let i = 1; i <= DEFAULT_SIGN_IN_RULES.perAccount; i++) expect((await signInTo({ account: 'busy', from: `198.51.100.${i}` })).access_token).toBeTruthy();
    expect(await signInTo({ account: 'busy', from: '198.51.100.99' })).toEqual({ error_code: 428, error_description: '该账号登录过于频繁,请输入验证码', captcha_required: true });
    const captcha = await solvedCaptcha(ctx.server, '198.51.100.99');
    expect((await signInTo({ account: 'busy', from: '198.51.100.99', captcha })).access_token).toBeTruthy();
    await create('quiet');
    expect((await signInTo({ account: 'quiet', from: '198.51.100.99' })).access_token).toBeTruthy();
  });

  it('asks for a captcha after 3 failed passwords, accepts a right one, and a success clears the failures', async () => {
    await create('forgetful');
    const from = '203.0.113.31';
    expect(await signInTo({ account: 'forgetful', password: 'Wrong@1', from })).toEqual(BAD);
    expect(await signInTo({ account: 'forgetful', password: 'Wrong@2', from: '203.0.113.32' })).toEqual(BAD);
    expect(await signInTo({ account: 'forgetful', password: 'Wrong@3', from })).toEqual({ ...BAD, captcha_required: true });
    // Any address now needs the captcha, and without one the password is not even looked at.
    expect(await signInTo({ account: 'forgetful', from: '203.0.113.33' })).toEqual(NEEDS_CAPTCHA);
    expect(await signInTo({ account: 'forgetful', from, captcha: { key: (await solvedCaptcha(ctx.server)).key, code: 'ZZZZ' } })).toEqual({
      error_code: 400,
      error_description: '验证码不正确',
      captcha_required: true,
    });
    expect((await signInTo({ account: 'forgetful', from, captcha: await solvedCaptcha(ctx.server, from) })).access_token).toBeTruthy();
    expect((await signInTo({ account: 'forgetful', from })).access_token).toBeTruthy();
  });

  it('locks only the guessing address out of the administrator, logs it, and the lock ends after 30 minutes', async () => {
    const guesser = '203.0.113.66';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'admin', password: `guess${i}`, from: guesser });
    expect(await signInTo({ account: 'admin', password: 'guess4', from: guesser, captcha: await solvedCaptcha(ctx.server) })).toEqual({ ...BAD, captcha_required: true });
    expect(await signInTo({ account: 'admin', password: 'guess5', from: guesser, captcha: await solvedCaptcha(ctx.server) })).toEqual(LOCKED);
    // The guesser is out, even with the right password and captcha.
    expect(await signInTo({ account: 'admin', password: 'admin', from: guesser, captcha: await solvedCaptcha(ctx.server) })).toEqual(LOCKED);
    // The administrator elsewhere signs in: with a captcha, as the account has failures.
    const elsewhere = '198.51.100.200';
    expect(await signInTo({ account: 'admin', password: 'admin', from: elsewhere })).toEqual(NEEDS_CAPTCHA);
    expect((await signInTo({ account: 'admin', password: 'admin', from: elsewhere, captcha: await solvedCaptcha(ctx.server) })).access_token).toBeTruthy();
    expect((await signInTo({ account: 'admin', password: 'admin', from: elsewhere })).access_token).toBeTruthy();
    expect(await signInTo({ account: 'admin', password: 'admin', from: guesser })).toEqual({ error_code: 423, error_description: '用户登录失败次数过多' });

    await ctx.server.app.platform.logs.flush();
    const logged = await ctx.server.app.platform.db.selectFrom('blade_log_usual').selectAll().where('logId', '=', 'login-lock').where('remoteIp', '=', guesser).execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ tenantId: '000000', createBy: 'admin', logLevel: 'warn', logData: expect.stringContaining(`admin 在 ${guesser} 登录失败次数过多`) });

    const guard = ctx.server.app.platform.signIn;
    const locked = Date.now();
    try {
      guard.now = () => locked + 29 * MINUTE;
      expect(await signInTo({ account: 'admin', password: 'admin', from: guesser })).toEqual({ error_code: 423, error_description: '用户登录失败次数过多' });
      guard.now = () => locked + 30 * MINUTE + 1000;
      expect((await signInTo({ account: 'admin', password: 'admin', from: guesser })).access_token).toBeTruthy();
    } finally {
      guard.now = Date.now;
    }
  });

  it('remembers failed passwords for 30 minutes, then forgets them', async () => {
    await create('dozy');
    const from = '203.0.113.41';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'dozy', password: `Wrong@${i}`, from });
    const failed = Date.now();
    const guard = ctx.server.app.platform.signIn;
    try {
      guard.now = () => failed + 29 * MINUTE;
      expect(await signInTo({ account: 'dozy', from })).toEqual(NEEDS_CAPTCHA);
      guard.now = () => failed + 30 * MINUTE + 1000;
      expect((await signInTo({ account: 'dozy', from })).access_token).toBeTruthy();
    } finally {
      guard.now = Date.now;
    }
  });

  it('counts parallel guesses exactly: every password looked at is a failure, the fifth locks the address', async () => {
    await create('raced');
    const from = '203.0.113.77';
    const guard = ctx.server.app.platform.signIn;
    const failed = guard.failed.bind(guard);
    let looked = 0; // passwords looked at and found wrong
    guard.failed = (attempt) => {
      looked += 1;
      return failed(attempt);
    };
    try {
      await Promise.all(Array.from({ length: 10 }, (_, i) => signInTo({ account: 'raced', password: `Wrong@${i}`, from })));
    } finally {
      guard.failed = failed;
    }
    const state = await guard.state({ tenantId: '000000', account: 'raced', address: from });
    expect(state.failures).toBe(looked);
    expect(looked).toBeGreaterThanOrEqual(DEFAULT_SIGN_IN_RULES.captchaAfter);
    expect(state.lockedUntil > 0).toBe(looked >= DEFAULT_SIGN_IN_RULES.lockAfter);
  });

  it('lists locks for the administrators who may see the user, and unlock lifts them all', async () => {
    const user = await create('target');
    // A forged first hop is ignored: only the address the trusted proxy saw counts.
    const from = '10.9.9.9, 203.0.113.90';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'target', password: `Wrong@${i}`, from });
    for (let i = 4; i <= 5; i++) await signInTo({ account: 'target', password: `Wrong@${i}`, from, captcha: await solvedCaptcha(ctx.server) });

    const listed = await lockList(ctx.admin, { account: 'target' });
    expect(listed.total).toBe(1);
    expect(listed.records[0]).toMatchObject({ id: user.id, tenantId: '000000', account: 'target', failures: 5, captchaRequired: true });
    expect(listed.records[0].locks).toEqual([{ address: '203.0.113.90', failures: 5, lockedUntil: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) }]);
    expect(expectOk(await ctx.admin.get<PageData>(`${USER}/page`, { account: 'target' })).records[0]).toMatchObject({ locked: true, captchaRequired: true });

    // Another tenant's administrator does not see it.
    const tenantAdmin = await signedIn(ctx.server.url, 'admin', 'admin', '100001');
    expect((await lockList(tenantAdmin)).records.map((r) => r.account)).not.toContain('target');
    expect((await postParams(tenantAdmin, `${USER}/unlock`, { userIds: user.id })).body.msg).toBe('数据不存在或无权操作');

    expectOk(await postParams(ctx.admin, `${USER}/unlock`, { userIds: user.id }));
    expect((await lockList(ctx.admin, { account: 'target' })).total).toBe(0);
    expect((await signInTo({ account: 'target', from })).access_token).toBeTruthy();
  });

  /** Runs `work` with the guard's clock at `at` (epoch ms). */
  const atTime = async (at: number, work: () => Promise<void>) => {
    const guard = ctx.server.app.platform.signIn;
    guard.now = () => at;
    try {
      await work();
    } finally {
      guard.now = Date.now;
    }
  };
  /** Runs `work` with the guard's clock `ms` ahead of now. */
  const later = (ms: number, work: () => Promise<void>) => atTime(Date.now() + ms, work);
  const stateOf = (account: string, address: string) => ctx.server.app.platform.signIn.state({ tenantId: '000000', account, address });

  it('starts the count again once failures are forgotten: a wrong password 31 minutes after three is the first', async () => {
    await create('sleepy');
    const from = '203.0.113.43';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'sleepy', password: `Wrong@${i}`, from });
    await later(31 * MINUTE, async () => {
      expect(await signInTo({ account: 'sleepy', password: 'Wrong@4', from })).toEqual(BAD);
      expect(await stateOf('sleepy', from)).toEqual({ lockedUntil: 0, captchaRequired: false, failures: 1 });
    });
  });

  it('starts the count again once a lock has ended: one more wrong password does not lock the address again', async () => {
    await create('relapse');
    const from = '203.0.113.44';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'relapse', password: `Wrong@${i}`, from });
    for (let i = 4; i <= 5; i++) await signInTo({ account: 'relapse', password: `Wrong@${i}`, from, captcha: await solvedCaptcha(ctx.server) });
    expect((await stateOf('relapse', from)).lockedUntil).toBeGreaterThan(Date.now());
    await later(31 * MINUTE, async () => {
      expect(await signInTo({ account: 'relapse', password: 'Wrong@6', from })).toEqual(BAD);
      expect(await stateOf('relapse', from)).toEqual({ lockedUntil: 0, captchaRequired: false, failures: 1 });
      expect((await signInTo({ account: 'relapse', from })).access_token).toBeTruthy();
    });
  });

  it('lists a user who needs a captcha though no address is locked, until the failures are forgotten', async () => {
    await create('wobbly');
    const from = '203.0.113.45';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'wobbly', password: `Wrong@${i}`, from });
    const listed = await lockList(ctx.admin, { account: 'wobbly' });
    expect(listed.records.map((r) => [r.account, r.failures, r.captchaRequired, r.locks])).toEqual([['wobbly', 3, true, []]]);
    await later(31 * MINUTE, async () => expect((await lockList(ctx.admin, { account: 'wobbly' })).total).toBe(0));
  });

  it('logs once that an account needs a captcha, at the failure that makes it so', async () => {
    await create('jittery');
    const from = '203.0.113.48';
    const logged = async () => {
      await ctx.server.app.platform.logs.flush();
      return ctx.server.app.platform.db.selectFrom('blade_log_usual').select(['logData', 'remoteIp']).where('logId', '=', 'login-captcha').where('createBy', '=', 'jittery').execute();
    };
    for (let i = 1; i <= 2; i++) await signInTo({ account: 'jittery', password: `Wrong@${i}`, from });
    expect(await logged()).toEqual([]);
    await signInTo({ account: 'jittery', password: 'Wrong@3', from });
    await signInTo({ account: 'jittery', password: 'Wrong@4', from, captcha: await solvedCaptcha(ctx.server) });
    expect(await logged()).toEqual([{ logData: 'jittery 登录失败 3 次,此后登录需要验证码', remoteIp: from }]);
  });

  it('clears the failures of the address a right password comes from: its count starts again', async () => {
    await create('healed');
    const from = '203.0.113.49';
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'healed', password: `Wrong@${i}`, from });
    await signInTo({ account: 'healed', password: 'Wrong@4', from, captcha: await solvedCaptcha(ctx.server) });
    expect((await signInTo({ account: 'healed', from, captcha: await solvedCaptcha(ctx.server) })).access_token).toBeTruthy();
    // A fifth failure from the address would lock it had the four before it been kept.
    expect(await signInTo({ account: 'healed', password: 'Wrong@5', from })).toEqual(BAD);
    expect(await stateOf('healed', from)).toEqual({ lockedUntil: 0, captchaRequired: false, failures: 1 });
  });

  it('locks an address once: failures counted after the lock (guesses that passed the check before it) neither lock it again nor extend it', async () => {
    // Parallel guesses read the state before any of them is counted, so failures can arrive after the one that locks.
    const guard = ctx.server.app.platform.signIn;
    const attempt = { tenantId: '000000', account: 'stampede', address: '203.0.113.52' };
    const failures = [];
    for (let i = 1; i <= 7; i++) failures.push(await guard.failed(attempt));
    expect(failures.map((f) => f.lockedNow)).toEqual([false, false, false, false, true, false, false]);
    expect(new Set(failures.slice(4).map((f) => f.lockedUntil)).size).toBe(1);
  });

  /** Five wrong passwords from `from`: the account needs a captcha and the address is locked out of it. */
  const lockOut = async (account: string, from: string) => {
    for (let i = 1; i <= 3; i++) await signInTo({ account, password: `Wrong@${i}`, from });
    for (let i = 4; i <= 5; i++) await signInTo({ account, password: `Wrong@${i}`, from, captcha: await solvedCaptcha(ctx.server) });
  };

  it('tells each listed user’s locks apart, and unlocking one leaves the others’ as they are', async () => {
    const asked = await create('edgy-asked');
    await create('edgy-slipped');
    await create('edgy-locked');
    for (let i = 1; i <= 3; i++) await signInTo({ account: 'edgy-asked', password: `Wrong@${i}`, from: '203.0.113.53' });
    await signInTo({ account: 'edgy-slipped', password: 'Wrong@1', from: '203.0.113.54' });
    await lockOut('edgy-locked', '203.0.113.55');
    const flags = async () =>
      expectOk(await ctx.admin.get<PageData>(`${USER}/page`, { account: 'edgy', ascs: 'account', size: 10 })).records.map((r) => [r.account, r.locked, r.captchaRequired]);
    // One failure is neither a lock nor a captcha demand.
    expect(await flags()).toEqual([
      ['edgy-asked', false, true],
      ['edgy-locked', true, true],
      ['edgy-slipped', false, false],
    ]);
    const locks = async () => (await lockList(ctx.admin, { account: 'edgy', ascs: 'account' })).records.map((r) => [r.account, r.failures, (r.locks as Row[]).map((l) => l.address)]);
    expect(await locks()).toEqual([
      ['edgy-asked', 3, []],
      ['edgy-locked', 5, ['203.0.113.55']],
    ]);
    expectOk(await postParams(ctx.admin, `${USER}/unlock`, { userIds: asked.id }));
    expect(await flags()).toEqual([
      ['edgy-asked', false, false],
      ['edgy-locked', true, true],
      ['edgy-slipped', false, false],
    ]);
    expect(await locks()).toEqual([['edgy-locked', 5, ['203.0.113.55']]]);
  });

  it('ends a lock at its end time exactly, and forgets failures exactly 30 minutes after the last', async () => {
    await create('punctual');
    const from = '203.0.113.56';
    await lockOut('punctual', from);
    const { lockedUntil } = await stateOf('punctual', from);
    const locks = async () => (await lockList(ctx.admin, { account: 'punctual' })).records.map((r) => [r.failures, r.captchaRequired, (r.locks as Row[]).length]);
    await atTime(lockedUntil - 1, async () => {
      expect(await stateOf('punctual', from)).toEqual({ lockedUntil, captchaRequired: true, failures: 5 });
      expect(await locks()).toEqual([[5, true, 1]]);
    });
    // The lock began with the fifth failure: at its end that failure is 30 minutes old, still remembered.
    await atTime(lockedUntil, async () => {
      expect(await stateOf('punctual', from)).toEqual({ lockedUntil: 0, captchaRequired: true, failures: 5 });
      expect(await locks()).toEqual([[5, true, 0]]);
    });
    await atTime(lockedUntil + 1, async () => {
      expect(await stateOf('punctual', from)).toEqual({ lockedUntil: 0, captchaRequired: false, failures: 0 });
      expect(await locks()).toEqual([]);
    });
  });

  it('forgets the rows of failures long past, those of made-up accounts too', async () => {
    const rows = (account: string) => ctx.server.app.platform.db.selectFrom('blade_login_attempt').select('address').where('account', '=', account).execute();
    await signInTo({ account: 'ghost-old', from: '203.0.113.46' });
    expect(await rows('ghost-old')).toHaveLength(2); // the account's count and the address's
    // Well past the window and past any sweep the clock moves of other tests ran (the guard sweeps every 10 minutes).
    await later(90 * MINUTE, async () => {
      await signInTo({ account: 'ghost-new', from: '203.0.113.47' });
      expect(await rows('ghost-old')).toEqual([]);
      expect(await rows('ghost-new')).toHaveLength(2);
    });
  });
});

describe('X-Forwarded-For without a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { signIn: DEFAULT_SIGN_IN_RULES });
  });
  afterAll(() => server.stop());

  it('is ignored: forged addresses all count as the peer address, in locks and in the throttle', async () => {
    for (let i = 1; i <= 3; i++) {
      expect((await signIn(server.url, { account: 'nobody', password: `x${i}`, from: `203.0.113.${i}` })).body.error_code).toBe(400);
    }
    const state = await server.app.platform.signIn.state({ tenantId: '000000', account: 'nobody', address: '127.0.0.1' });
    expect(state).toMatchObject({ failures: 3, captchaRequired: true });
    for (let i = 4; i <= DEFAULT_SIGN_IN_RULES.perAddress; i++) {
      expect((await signIn(server.url, { account: `ghost${i}`, from: `203.0.113.${i}` })).body.error_code).toBe(400);
    }
    expect((await signIn(server.url, { account: 'admin', password: 'admin', from: '198.51.100.1' })).body.error_code).toBe(429);
  });
});

async function redisReachable(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    console.warn(`Redis is not reachable at ${url}: the shared-throttle test is skipped.`);
    return false;
  } finally {
    await client.quit().catch(() => undefined);
  }
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe.runIf(await redisReachable(REDIS_URL))('sign-in throttle shared through Redis', () => {
  let servers: TestServer[];
  beforeAll(async () => {
    servers = [await startServer('sqlite', { ...BEHIND_PROXY, redisUrl: REDIS_URL }), await startServer('sqlite', { ...BEHIND_PROXY, redisUrl: REDIS_URL })];
  });
  afterAll(async () => {
    for (const server of servers ?? []) await server.stop();
  });

  it('counts an address over every process', async () => {
    // A fresh address per run: the counters of an earlier run may still be in Redis.
    const from = `203.0.${randomInt(1, 255)}.${randomInt(1, 255)}`;
    for (let i = 1; i <= DEFAULT_SIGN_IN_RULES.perAddress; i++) {
      expect((await signIn(servers[i % 2].url, { account: `ghost${i}`, from })).body.error_code).toBe(400);
    }
    expect((await signIn(servers[0].url, { account: 'ghost', from })).body.error_code).toBe(429);
    expect((await signIn(servers[1].url, { account: 'ghost', from })).body.error_code).toBe(429);
  });
});
