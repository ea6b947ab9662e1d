import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import svgCaptcha from 'svg-captcha';
import type { Failure } from '../../auth/sign-in-guard';
import { principalOf } from '../../auth/tokens';
import { paramsOf, text } from '../../http/context';
import { ok, unauthorized } from '../../http/envelope';
import { nextId } from '../../ids';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import {
  authenticate,
  checkTenant,
  type Client,
  findUser,
  issueTokens,
  LOGIN_CODES,
  LOGIN_MESSAGES,
  LoginError,
  refusal,
  signPair,
  type Switch,
  type TokenResponse,
  type UserRow,
} from './login';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';
import { addressOf, header, tenantOf } from './request';
import { signInThrottle } from './throttle';

const CAPTCHA_TTL_SECONDS = 300;

/** The client of `Authorization: Basic base64(id:secret)`, checked against blade_client. */
async function clientOf(platform: Platform, request: FastifyRequest): Promise<Client> {
  const match = request.headers.authorization?.match(/^basic\s+(\S+)$/i);
  const [id, secret] = match ? Buffer.from(match[1], 'base64').toString('utf8').split(':') : [];
  const row = id
    ? await platform.db
        .selectFrom('blade_client')
        .select(['clientId', 'clientSecret', 'accessTokenValidity', 'refreshTokenValidity'])
        .where('clientId', '=', id)
        .where('isDeleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  if (!row || row.clientSecret !== secret) throw unauthorized('客户端认证失败');
  return {
    clientId: row.clientId,
    accessTokenValidity: row.accessTokenValidity,
    refreshTokenValidity: row.refreshTokenValidity,
  };
}

type Grant = (platform: Platform, client: Client, request: FastifyRequest, params: Record<string, unknown>) => Promise<TokenResponse>;

const switchOf = (request: FastifyRequest): Switch => ({ deptId: header(request, 'dept-id'), roleId: header(request, 'role-id') });
/** Every lock and captcha demand goes to the usual log, with account, tenant and address. */
function logFailure(platform: Platform, tenantId: string, account: string, address: string) {
  return (failure: Failure, user: UserRow | undefined) => {
    const entry = { tenantId, createUser: user?.id, createBy: account, logLevel: 'warn', remoteIp: address };
    if (failure.lockedNow) {
      const until = formatDateTime(new Date(failure.lockedUntil));
      platform.logs.write('blade_log_usual', { ...entry, logId: 'login-lock', logData: `${account} 在 ${address} 登录失败次数过多,该地址锁定至 ${until}` });
    }
    if (failure.captchaNow) {
      platform.logs.write('blade_log_usual', { ...entry, logId: 'login-captcha', logData: `${account} 登录失败 ${failure.failures} 次,此后登录需要验证码` });
    }
  };
}

async function signInWithPassword(platform: Platform, client: Client, request: FastifyRequest, params: Record<string, unknown>, captchaSolved: boolean) {
  const tenantId = tenantOf(request, params);
  const account = text(params, 'username') ?? '';
  const password = String(params.password ?? '');
  if (!account || !password) throw new LoginError(LOGIN_MESSAGES.badCredentials);
  await checkTenant(platform.db, tenantId);
  const address = addressOf(request);
  const attempt = { tenantId, account, address, password, captchaSolved };
  const user = await authenticate(platform.db, platform.signIn, attempt, logFailure(platform, tenantId, account, address));
  const tokens = await issueTokens(platform, client, user, switchOf(request));
  platform.logs.write('blade_log_usual', { tenantId, createUser: user.id, createBy: account, logLevel: 'info', logId: 'login', logData: `${account} 登录成功`, remoteIp: address });
  return tokens;
}

const passwordGrant: Grant = (platform, client, request, params) => signInWithPassword(platform, client, request, params, false);

const captchaGrant: Grant = async (platform, client, request, params) => {
  const key = header(request, 'captcha-key');
  const code = header(request, 'captcha-code');
  const expected = key ? await platform.store.take(`captcha:${key}`) : undefined;
  if (!code || !expected || expected !== code.toLowerCase()) throw new LoginError(LOGIN_MESSAGES.badCaptcha, LOGIN_CODES.refused, true);
  return signInWithPassword(platform, client, request, params, true);
};

/** Rotates both tokens; the old refresh token cannot be used again. Roles are re-read so grants take effect. */
const refreshGrant: Grant = async (platform, client, request, params) => {
  const token = text(params, 'refresh_token');
  const verified = token ? await platform.tokens.verify(token, 'refresh_token') : undefined;
  if (!verified || !('claims' in verified) || platform.revocations.isRevoked(verified.claims.jti, verified.claims.sid)) {
    throw new LoginError(LOGIN_MESSAGES.badRefresh, 401);
  }
  const claims = verified.claims;
  await platform.revocations.revoke(claims.jti, claims.exp);
  if (claims.user_id === '-1') return signPair(platform, client, { ...claims, token_type: 'access_token' }, '');
  await checkTenant(platform.db, claims.tenant_id);
  const user = await findUser(platform.db, claims.tenant_id, { id: claims.user_id });
  if (!user) throw new LoginError(LOGIN_MESSAGES.badRefresh, 401);
  const chosen = switchOf(request);
  const keep: Switch = { deptId: chosen.deptId ?? claims.dept_id, roleId: chosen.roleId ?? (claims.role_id.includes(',') ? undefined : claims.role_id) };
  const principal = principalOf(claims);
  try {
    return await issueTokens(platform, client, user, keep, claims.oauth_id);
  } catch (error) {
    // The chosen dept/role may have been taken away since: fall back to the user's own.
    if (error instanceof LoginError && error.message === LOGIN_MESSAGES.badSwitch && !chosen.deptId && !chosen.roleId) {
      return issueTokens(platform, client, user, {}, principal.oauthId);
    }
    throw error;
  }
};

/**
 * Third-party sign-in: a bound identity signs in as its user; an unbound one gets a guest token (user_id -1) whose
 * only use is register-guest (spec §2 "Account registration dialog").
 */
const socialGrant: Grant = async (platform, client, request, params) => {
  const provider = platform.social.get(text(params, 'source') ?? '');
  const code = text(params, 'code');
  if (!provider || !code) throw new LoginError(LOGIN_MESSAGES.badSocial);
  const tenantId = tenantOf(request, params);
  await checkTenant(platform.db, tenantId);
  const profile = await provider.profile(code, text(params, 'state')).catch(() => {
    throw new LoginError(LOGIN_MESSAGES.badSocial);
  });
  const now = formatDateTime();
  let oauth = await platform.db
    .selectFrom('blade_user_oauth')
    .select(['id', 'userId'])
    .where('source', '=', provider.source)
    .where('uuid', '=', profile.uuid)
    .where('tenantId', '=', tenantId)
    .where('isDeleted', '=', 0)
    .executeTakeFirst();
  if (!oauth) {
    oauth = { id: nextId(), userId: null };
    await platform.db
      .insertInto('blade_user_oauth')
      .values({ id: oauth.id, tenantId, source: provider.source, uuid: profile.uuid, username: profile.username, nickname: profile.nickname, avatar: profile.avatar, email: profile.email, createTime: now, updateTime: now })
      .execute();
  }
  const oauthId = oauth.id;
  const user = oauth.userId ? await findUser(platform.db, tenantId, { id: oauth.userId }) : undefined;
  if (user) return issueTokens(platform, client, user, switchOf(request), oauthId);
  const name = profile.nickname ?? profile.username ?? profile.uuid;
  return signPair(
    platform,
    client,
    { token_type: 'access_token', tenant_id: tenantId, user_id: '-1', role_id: '', dept_id: '', post_id: '', account: profile.username ?? '', user_name: profile.username ?? '', nick_name: name, role_name: '', client_id: client.clientId, sid: randomUUID(), oauth_id: oauthId },
    profile.avatar ?? '',
  );
};

const GRANTS: Record<string, Grant> = { password: passwordGrant, captcha: captchaGrant, refresh_token: refreshGrant, social: socialGrant };

async function token(platform: Platform, request: FastifyRequest, reply: FastifyReply, grantType?: string): Promise<unknown> {
  const client = await clientOf(platform, request);
  const params = paramsOf(request);
  const grant = GRANTS[grantType ?? text(params, 'grant_type') ?? ''];
  try {
    if (!grant) throw new LoginError(LOGIN_MESSAGES.badGrant);
    return await grant(platform, client, request, params);
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    // BladeX answers a refused sign-in with HTTP 200 and the error in the body; the console shows it (spec §8).
    return reply.send(refusal(error.errorCode, error.message, error.captchaRequired));
  }
}

export function registerOAuth(app: FastifyInstance, platform: Platform): void {
  const base = '/blade-auth/oauth';
  const throttle = signInThrottle(app, platform);
  app.post(`${base}/token`, { ...needs.public, preHandler: throttle.token }, (request, reply) => token(platform, request, reply));
  app.post(`${base}/token/refresh`, needs.public, (request, reply) => token(platform, request, reply, 'refresh_token'));

  app.get(`${base}/captcha`, limited('captcha', needs.public), async () => {
    const captcha = svgCaptcha.create({ size: 4, noise: 3, ignoreChars: '0oO1ilI', width: 120, height: 40 });
    const key = randomUUID();
    await platform.store.set(`captcha:${key}`, captcha.text.toLowerCase(), CAPTCHA_TTL_SECONDS);
    return { key, image: `data:image/svg+xml;base64,${Buffer.from(captcha.data).toString('base64')}` };
  });

  const logout = async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw unauthorized();
    // Revoking the session kills this access token and its refresh token alike.
    const refreshLifetime = 604800;
    await platform.revocations.revoke(principal.sessionId, Math.floor(Date.now() / 1000) + refreshLifetime);
    platform.logs.write('blade_log_usual', { tenantId: principal.tenantId, createUser: principal.userId, createBy: principal.account, logLevel: 'info', logId: 'logout', logData: `${principal.account} 退出登录`, remoteIp: request.ip });
    return ok(true);
  };
  app.get(`${base}/logout`, needs.session, logout);
  app.post(`${base}/logout`, needs.session, logout);

  app.get(`${base}/user-info`, needs.session, async (request) => {
    const p = request.principal;
    if (!p) throw unauthorized();
    const user = p.userId === '-1' ? undefined : await findUser(platform.db, p.tenantId, { id: p.userId });
    return ok({
      userId: p.userId,
      tenantId: p.tenantId,
      account: p.account,
      userName: p.userName,
      nickName: p.nickName,
      realName: user?.realName ?? '',
      avatar: user?.avatar ?? '',
      deptId: p.deptId,
      postId: p.postId,
      roleId: p.roleIds.join(','),
      roleName: p.roleNames.join(','),
      oauthId: p.oauthId ?? '',
      clientId: p.clientId,
    });
  });

  app.get(`${base}/clear-cache`, needs.self, async () => {
    for (const table of ['blade_scope_data', 'blade_scope_api', 'blade_role_scope', 'blade_dict', 'blade_menu']) platform.events.emit('changed', table);
    return ok(true);
  });
}
