import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { THROTTLE_WINDOW_MS } from '../../auth/sign-in-rules';
import { type KeyValueStore, orWhenUnavailable } from '../../cache';
import { paramsOf, text } from '../../http/context';
import type { Platform } from '../../platform';
import { LOGIN_CODES, LOGIN_MESSAGES, refusal } from './login';
import { addressOf, header, tenantOf } from './request';

/** Grants that guess something: refresh tokens are unguessable and keep working however busy an address is. */
const GUESSING_GRANTS = new Set(['password', 'captcha', 'social']);
const WITH_ACCOUNT = new Set(['password', 'captcha']);

/**
 * @fastify/rate-limit's store over the platform's short-lived values: Redis with REDIS_URL, so processes share counts.
 * Given when the plugin is registered (app.ts): limiters made by createRateLimit are children of that store.
 */
export function sharedStore(values: KeyValueStore): FastifyRateLimitStoreCtor {
  return class SharedStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      values.hit(`throttle:${key}`, timeWindow).then(
        (hits) => callback(null, { current: hits.count, ttl: hits.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return new SharedStore();
    }
  };
}

const grantOf = (request: FastifyRequest) => text(paramsOf(request), 'grant_type') ?? '';
const accountOf = (request: FastifyRequest) => {
  const params = paramsOf(request);
  return `${tenantOf(request, params)}:${(text(params, 'username') ?? '').slice(0, 255)}`;
};

/** A captcha grant whose code is right (looked at, not used up: the grant itself uses it). */
async function hasRightCaptcha(values: KeyValueStore, request: FastifyRequest): Promise<boolean> {
  const key = header(request, 'captcha-key');
  const code = header(request, 'captcha-code');
  if (grantOf(request) !== 'captcha' || !key || !code) return false;
  // With the store away the grant itself answers 503 (its code cannot be checked); here it is simply not right.
  return (await orWhenUnavailable(values.peek(`captcha:${key}`), undefined)) === code.toLowerCase();
}

export interface SignInThrottle {
  /** preHandler of the token route: per address, then per account; answers a refused sign-in itself. */
  token(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
}

/**
 * The throttles of sign-in (docs/sign-in.md); captcha images are a call limit (server/http/limits.ts). Over the
 * per-address limit a sign-in is refused until the minute ends; over the per-account limit it needs a right captcha —
 * refusing it outright would let anyone keep an account (the only platform administrator, say) from signing in by
 * guessing at it ten times a minute.
 */
export function signInThrottle(app: FastifyInstance, platform: Platform): SignInThrottle {
  const rules = platform.config.signIn;
  // A store that cannot be reached (Redis down) lets sign-in through: the failure rules still hold in the database.
  const common = { timeWindow: THROTTLE_WINDOW_MS, skipOnError: true };
  const perAddress = app.createRateLimit({ ...common, max: rules.perAddress, keyGenerator: (r) => `address:${addressOf(r)}` });
  const perAccount = app.createRateLimit({
    ...common,
    max: rules.perAccount,
    keyGenerator: (r) => `account:${accountOf(r)}`,
    allowList: (r) => hasRightCaptcha(platform.store, r),
  });

  return {
    async token(request, reply) {
      const grant = grantOf(request);
      if (!GUESSING_GRANTS.has(grant)) return undefined;
      const byAddress = await perAddress(request);
      if (!byAddress.isAllowed && byAddress.isExceeded) {
        request.log.warn({ address: addressOf(request) }, 'sign-in throttled by address');
        const seconds = Math.max(1, byAddress.ttlInSeconds);
        return reply.header('retry-after', seconds).send({ ...refusal(LOGIN_CODES.throttled, LOGIN_MESSAGES.throttled(seconds)), retry_after: seconds });
      }
      if (!WITH_ACCOUNT.has(grant)) return undefined;
      const byAccount = await perAccount(request);
      if (!byAccount.isAllowed && byAccount.isExceeded) {
        return reply.send(refusal(LOGIN_CODES.captchaRequired, LOGIN_MESSAGES.busyAccount, true));
      }
      return undefined;
    },
  };
}
