import { randomUUID } from 'node:crypto';
import { verifyPassword } from '../../auth/passwords';
import type { Attempt, Failure, SignInGuard } from '../../auth/sign-in-guard';
import type { TokenClaims } from '../../auth/tokens';
import type { Db, Row } from '../../db/database';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';

/**
 * error_code of a refused sign-in. The console recognizes the last three (docs/sign-in.md); BladeX consoles show
 * error_description whatever the code.
 */
export const LOGIN_CODES = {
  refused: 400,
  /** This address is locked out of the account for a while. */
  locked: 423,
  /** The account's sign-in needs the captcha grant. */
  captchaRequired: 428,
  /** Too many sign-ins from this address; `retry_after` seconds. */
  throttled: 429,
} as const;

/** A sign-in that did not work, answered as `{error_code, error_description}` (CONTRACT.md "Auth"). */
export class LoginError extends Error {
  constructor(
    message: string,
    readonly errorCode: number = LOGIN_CODES.refused,
    /** The next attempt needs a captcha: the refusal says `captcha_required: true` and the console shows one. */
    readonly captchaRequired = false,
  ) {
    super(message);
  }
}

export interface Refusal {
  error_code: number;
  error_description: string;
  captcha_required?: true;
}

/** The body of a refused sign-in (HTTP 200, as BladeX answers it). */
export const refusal = (code: number, message: string, captchaRequired = false): Refusal => ({
  error_code: code,
  error_description: message,
  ...(captchaRequired ? { captcha_required: true as const } : {}),
});

export const LOGIN_MESSAGES = {
  badCredentials: '用户名或密码错误',
  locked: '用户登录失败次数过多',
  badCaptcha: '验证码不正确',
  captchaRequired: '请输入验证码',
  busyAccount: '该账号登录过于频繁,请输入验证码',
  throttled: (seconds: number) => `登录过于频繁,请 ${seconds} 秒后再试`,
  noTenant: '租户信息错误',
  tenantExpired: '租户授权已过期,请联系管理员',
  noRole: '未获得用户的角色信息',
  pending: '账号待管理员审核',
  disabled: '账号已被禁用',
  badSwitch: '所选部门或角色不属于该用户',
  badRefresh: '刷新令牌无效或已过期',
  badGrant: '不支持的授权类型',
  badSocial: '第三方登录失败',
} as const;

export interface Client {
  clientId: string;
  accessTokenValidity: number;
  refreshTokenValidity: number;
}

export interface UserRow {
  id: string;
  tenantId: string;
  account: string;
  password: string;
  name: string | null;
  realName: string | null;
  avatar: string | null;
  roleId: string | null;
  deptId: string | null;
  postId: string | null;
  status: number;
}

const split = (value: string | null | undefined) => (value ? value.split(',').filter(Boolean) : []);

export async function checkTenant(db: Db, tenantId: string): Promise<void> {
  const tenant = await db
    .selectFrom('blade_tenant')
    .select(['expireTime', 'status'])
    .where('tenantId', '=', tenantId)
    .where('isDeleted', '=', 0)
    .executeTakeFirst();
  if (!tenant) throw new LoginError(LOGIN_MESSAGES.noTenant);
  if (tenant.expireTime && tenant.expireTime < formatDateTime()) throw new LoginError(LOGIN_MESSAGES.tenantExpired);
}

export async function findUser(db: Db, tenantId: string, by: { account?: string; id?: string }): Promise<UserRow | undefined> {
  let qb = db.selectFrom('blade_user').selectAll().where('tenantId', '=', tenantId).where('isDeleted', '=', 0);
  if (by.account !== undefined) qb = qb.where('account', '=', by.account);
  if (by.id !== undefined) qb = qb.where('id', '=', by.id);
  return (await qb.executeTakeFirst()) as UserRow | undefined;
}

export interface PasswordAttempt extends Attempt {
  password: string;
  /** A right captcha came with this attempt (the captcha grant checked and used it). */
  captchaSolved: boolean;
}

/**
 * Password check under the sign-in rules (docs/sign-in.md): a locked address is refused before its password is looked
 * at, an account that needs a captcha is refused without one; `onFailure` hears of the locks a failure causes.
 */
export async function authenticate(
  db: Db,
  guard: SignInGuard,
  attempt: PasswordAttempt,
  onFailure: (failure: Failure, user: UserRow | undefined) => void = () => undefined,
): Promise<UserRow> {
  const state = await guard.state(attempt);
  if (state.lockedUntil) throw new LoginError(LOGIN_MESSAGES.locked, LOGIN_CODES.locked, state.captchaRequired);
  if (state.captchaRequired && !attempt.captchaSolved) throw new LoginError(LOGIN_MESSAGES.captchaRequired, LOGIN_CODES.captchaRequired, true);
  const user = await findUser(db, attempt.tenantId, { account: attempt.account });
  if (user && (await verifyPassword(attempt.password, user.password))) {
    await guard.succeeded(attempt);
    return user;
  }
  const failure = await guard.failed(attempt);
  onFailure(failure, user);
  if (failure.lockedUntil) throw new LoginError(LOGIN_MESSAGES.locked, LOGIN_CODES.locked, failure.captchaRequired);
  throw new LoginError(LOGIN_MESSAGES.badCredentials, LOGIN_CODES.refused, failure.captchaRequired);
}

export interface Switch {
  deptId?: string;
  roleId?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  refresh_token: string;
  expires_in: number;
  tenant_id: string;
  user_id: string;
  dept_id: string;
  post_id: string;
  role_id: string;
  oauth_id: string;
  account: string;
  user_name: string;
  nick_name: string;
  role_name: string;
  avatar: string;
  detail: Row;
  license: string;
}

/** Issues an access and a refresh token for a user, honouring a chosen dept/role (switch mode). */
export async function issueTokens(platform: Platform, client: Client, user: UserRow, chosen: Switch = {}, oauthId = ''): Promise<TokenResponse> {
  if (user.status === 0) throw new LoginError(LOGIN_MESSAGES.pending);
  if (user.status !== 1) throw new LoginError(LOGIN_MESSAGES.disabled);
  const depts = split(user.deptId);
  const roles = split(user.roleId);
  if ((chosen.deptId && !depts.includes(chosen.deptId)) || (chosen.roleId && !roles.includes(chosen.roleId))) {
    throw new LoginError(LOGIN_MESSAGES.badSwitch);
  }
  const roleIds = chosen.roleId ? [chosen.roleId] : roles;
  const roleRows = roleIds.length
    ? ((await platform.db
        .selectFrom('blade_role')
        .select(['id', 'roleAlias'])
        .where('id', 'in', roleIds)
        .where('isDeleted', '=', 0)
        .execute()) as Array<{ id: string; roleAlias: string }>)
    : [];
  if (roleRows.length === 0) throw new LoginError(LOGIN_MESSAGES.noRole);
  const claims: TokenClaims = {
    token_type: 'access_token',
    tenant_id: user.tenantId,
    user_id: user.id,
    role_id: roleRows.map((r) => r.id).join(','),
    dept_id: chosen.deptId ?? depts[0] ?? '',
    post_id: split(user.postId)[0] ?? '',
    account: user.account,
    user_name: user.account,
    nick_name: user.name ?? user.realName ?? user.account,
    role_name: roleRows.map((r) => r.roleAlias).join(','),
    client_id: client.clientId,
    sid: randomUUID(),
    ...(oauthId ? { oauth_id: oauthId } : {}),
  };
  return signPair(platform, client, claims, user.avatar ?? '');
}

export async function signPair(platform: Platform, client: Client, claims: TokenClaims, avatar: string): Promise<TokenResponse> {
  const access = await platform.tokens.sign(claims, client.accessTokenValidity);
  const refresh = await platform.tokens.sign({ ...claims, token_type: 'refresh_token' }, client.refreshTokenValidity);
  return {
    access_token: access.token,
    token_type: 'bearer',
    refresh_token: refresh.token,
    expires_in: client.accessTokenValidity,
    tenant_id: claims.tenant_id,
    user_id: claims.user_id,
    dept_id: claims.dept_id,
    post_id: claims.post_id,
    role_id: claims.role_id,
    oauth_id: claims.oauth_id ?? '',
    account: claims.account,
    user_name: claims.user_name,
    nick_name: claims.nick_name,
    role_name: claims.role_name,
    avatar,
    detail: { type: 'web' },
    license: 'powered by vigil',
  };
}
