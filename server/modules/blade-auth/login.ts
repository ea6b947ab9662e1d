import { randomUUID } from 'node:crypto';
import { verifyPassword } from '../../auth/passwords';
import type { TokenClaims } from '../../auth/tokens';
import type { Db, Row } from '../../db/database';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';

/** A sign-in that did not work, answered as `{error_code, error_description}` (CONTRACT.md "Auth"). */
export class LoginError extends Error {
  constructor(
    message: string,
    readonly errorCode = 400,
  ) {
    super(message);
  }
}

export const LOGIN_MESSAGES = {
  badCredentials: '用户名或密码错误',
  locked: '用户登录失败次数过多',
  badCaptcha: '验证码不正确',
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

export const MAX_FAILURES = 5;
export const LOCK_MS = 30 * 60 * 1000;

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
  if (tenant.expireTime && String(tenant.expireTime) < formatDateTime()) throw new LoginError(LOGIN_MESSAGES.tenantExpired);
}

export async function findUser(db: Db, tenantId: string, by: { account?: string; id?: string }): Promise<UserRow | undefined> {
  let qb = db.selectFrom('blade_user').selectAll().where('tenantId', '=', tenantId).where('isDeleted', '=', 0);
  if (by.account !== undefined) qb = qb.where('account', '=', by.account);
  if (by.id !== undefined) qb = qb.where('id', '=', by.id);
  return (await qb.executeTakeFirst()) as UserRow | undefined;
}

/** Password check with the lock-out rule: 5 failures lock the account for 30 minutes or until unlocked. */
export async function authenticate(db: Db, tenantId: string, account: string, password: string): Promise<UserRow> {
  const now = Date.now();
  const attempt = (await db
    .selectFrom('blade_login_attempt')
    .select(['failures', 'lockedUntil'])
    .where('tenantId', '=', tenantId)
    .where('account', '=', account)
    .executeTakeFirst()) as { failures: number; lockedUntil: number } | undefined;
  if (attempt && Number(attempt.lockedUntil) > now) throw new LoginError(LOGIN_MESSAGES.locked);
  const user = await findUser(db, tenantId, { account });
  if (user && (await verifyPassword(password, user.password))) {
    if (attempt) await db.deleteFrom('blade_login_attempt').where('tenantId', '=', tenantId).where('account', '=', account).execute();
    return user;
  }
  const previous = attempt && Number(attempt.lockedUntil) === 0 ? Number(attempt.failures) : 0;
  const failures = previous + 1;
  const lockedUntil = failures >= MAX_FAILURES ? now + LOCK_MS : 0;
  await db
    .insertInto('blade_login_attempt')
    .values({ tenantId, account, failures, lockedUntil })
    .onConflict((oc) => oc.columns(['tenantId', 'account']).doUpdateSet({ failures, lockedUntil }))
    .execute();
  throw new LoginError(failures >= MAX_FAILURES ? LOGIN_MESSAGES.locked : LOGIN_MESSAGES.badCredentials);
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
