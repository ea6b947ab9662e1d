import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Right } from '../auth/rights';
import { failure } from './envelope';

/**
 * Rate limits of the calls that cost the most or can be abused from outside (docs/security.md "Rate limits"): one
 * table, counted in the platform's short-lived store (Redis with REDIS_URL, so every process counts together) through
 * @fastify/rate-limit's `createRateLimit`, as sign-in's throttles are (server/modules/blade-auth/throttle.ts). A call
 * over its limit answers HTTP 429 with the envelope `{code: 429, success: false, msg}` and `Retry-After` seconds.
 *
 * A route names its limit beside its right: `app.get(path, limited('export', needs('device_log')), handler)`.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call limit the route counts against (server/http/limits.ts), if any. */
    limit?: DeclaredLimit;
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface CallLimit {
  /**
   * Whose calls count together: `user`, the signed-in caller; `address`, the client's address (X-Forwarded-For only
   * from TRUST_PROXY, an IPv6 /64 as one).
   */
  per: 'user' | 'address';
  /** Calls allowed per window; 0 turns the limit off (CALL_LIMITS). */
  max: number;
  /** The window, which starts at the first call counted. */
  windowMs: number;
}

/** The table of limits. Tests lower them through `config.limits`; an operator may change them with CALL_LIMITS. */
export const CALL_LIMITS = {
  /** Captcha images (the login page asks for one per attempt). */
  captcha: { per: 'address', max: 30, windowMs: MINUTE },
  /** A third-party guest registering its account (register-guest). */
  register: { per: 'address', max: 10, windowMs: HOUR },
  /** Files uploaded: put-file, attachments, workflow deployment files. */
  upload: { per: 'user', max: 30, windowMs: MINUTE },
  /** Bulk writes: the point sheet upload, batch device saves, temperature coefficients, corrections of history. */
  import: { per: 'user', max: 10, windowMs: MINUTE },
  /** List exports to xlsx (up to EXPORT_LIMITS.maxRows rows each). */
  export: { per: 'user', max: 10, windowMs: MINUTE },
  /** History charts over more than LONG_HISTORY_MS, and data comparison charts. */
  history: { per: 'user', max: 30, windowMs: MINUTE },
  /** The data board over up to a year, settlement reports. */
  report: { per: 'user', max: 60, windowMs: MINUTE },
  /** Recomputing stored history: initial values, recalculation. */
  recompute: { per: 'user', max: 10, windowMs: MINUTE },
  /** Calls that reach a third-party platform now: its project and device lists, sync, pull now. */
  thirdParty: { per: 'user', max: 20, windowMs: MINUTE },
  /** Re-pushing a time range or the latest values to push targets. */
  pushRange: { per: 'user', max: 10, windowMs: MINUTE },
  /** Connection tests that reach outside: a push target's test, an SMS sent by hand. */
  connectionTest: { per: 'user', max: 10, windowMs: MINUTE },
  /** The console's error reports. */
  clientErrors: { per: 'user', max: 30, windowMs: MINUTE },
} as const satisfies Record<string, CallLimit>;

export type LimitName = keyof typeof CALL_LIMITS;
export type CallLimits = Readonly<Record<LimitName, CallLimit>>;

/** History charts over a range longer than this count against `history` (shorter ones read little). */
export const LONG_HISTORY_MS = 7 * 24 * HOUR;

/** The refusal of each limit, with the seconds until its window ends. */
export const LIMIT_MESSAGES: Readonly<Record<LimitName, (seconds: number) => string>> = {
  captcha: (seconds) => `获取验证码过于频繁,请 ${seconds} 秒后再试`,
  register: (seconds) => `注册过于频繁,请 ${seconds} 秒后再试`,
  upload: (seconds) => `上传过于频繁,请 ${seconds} 秒后再试`,
  import: (seconds) => `导入过于频繁,请 ${seconds} 秒后再试`,
  export: (seconds) => `导出过于频繁,请 ${seconds} 秒后再试`,
  history: (seconds) => `历史数据查询过于频繁,请 ${seconds} 秒后再试`,
  report: (seconds) => `统计查询过于频繁,请 ${seconds} 秒后再试`,
  recompute: (seconds) => `重新计算过于频繁,请 ${seconds} 秒后再试`,
  thirdParty: (seconds) => `第三方平台请求过于频繁,请 ${seconds} 秒后再试`,
  pushRange: (seconds) => `推送过于频繁,请 ${seconds} 秒后再试`,
  connectionTest: (seconds) => `测试过于频繁,请 ${seconds} 秒后再试`,
  clientErrors: (seconds) => `错误上报过于频繁,请 ${seconds} 秒后再试`,
};

export interface DeclaredLimit {
  name: LimitName;
  /** Whether this call counts (a history chart over a long range); every call counts without it. */
  when?: (request: FastifyRequest) => boolean;
}

/** Route options of a right, with the limit the route counts against: `limited('export', needs('device_log'))`. */
export function limited<O extends { config: { right: Right } }>(name: LimitName, options: O, when?: DeclaredLimit['when']): O {
  return { ...options, config: { ...options.config, limit: { name, when } } };
}

const isLimitName = (name: string): name is LimitName => Object.hasOwn(CALL_LIMITS, name);

/**
 * CALL_LIMITS: comma-separated `name=max` or `name=max/seconds` (`export=20,history=0`, 0 turns a limit off) over the
 * table's values; a name or number that does not parse stops the start.
 */
export function callLimitsFrom(value: string | undefined): CallLimits {
  const limits: Record<LimitName, CallLimit> = { ...CALL_LIMITS };
  for (const entry of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = /^([A-Za-z]+)\s*=\s*(\d+)(?:\s*\/\s*(\d+))?$/.exec(entry);
    if (!match) throw new Error(`CALL_LIMITS: "${entry}" is not name=max or name=max/seconds`);
    const [, name, max, seconds] = match;
    if (!isLimitName(name)) throw new Error(`CALL_LIMITS: no limit named "${name}" (${Object.keys(CALL_LIMITS).join(', ')})`);
    if (seconds !== undefined && Number(seconds) < 1) throw new Error(`CALL_LIMITS: the window of "${name}" must be at least 1 second`);
    limits[name] = { ...limits[name], max: Number(max), ...(seconds !== undefined ? { windowMs: Number(seconds) * 1000 } : {}) };
  }
  return limits;
}

/**
 * Who a call counts for: the signed-in user, or the client's address. No limited route is open to a display link, and
 * a call of a `user` limit without a user (none is open to anyone else either) counts by its address.
 */
function callerOf(request: FastifyRequest, per: CallLimit['per']): string {
  if (per === 'user' && request.principal) return `user:${request.principal.userId}`;
  return `address:${normalizeIP(request.ip || 'unknown')}`;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Counts every call of a route that declares a limit, once its caller is known and allowed (installAuth runs first:
 * refused calls count for nothing), before its body is read; answers the refusal itself. A store that cannot be
 * reached (Redis down) lets calls through.
 */
export function installCallLimits(app: FastifyInstance, limits: CallLimits): void {
  const limiters = new Map<LimitName, Limiter>();
  for (const name of Object.keys(limits).filter(isLimitName)) {
    const limit = limits[name];
    if (limit.max <= 0) continue;
    const keyGenerator = (request: FastifyRequest) => `${name}:${callerOf(request, limit.per)}`;
    limiters.set(name, app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, skipOnError: true, keyGenerator }));
  }
  app.addHook('onRequest', async (request, reply) => {
    const declared = request.routeOptions.config.limit;
    const limiter = declared && limiters.get(declared.name);
    if (!declared || !limiter || (declared.when && !declared.when(request))) return;
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    request.log.warn({ limit: declared.name, key: result.key }, 'call limit reached');
    return reply.code(429).header('retry-after', seconds).send(failure(429, LIMIT_MESSAGES[declared.name](seconds)));
  });
}
