import type { Credentials, RefreshInput, TokenResponse } from '../../machines/session';
import { http, type Envelope } from './client';

const TOKEN = 'api/blade-auth/oauth/token';

const choiceHeaders = (deptId?: string, roleId?: string): Record<string, string> => ({
  ...(deptId ? { 'Dept-Id': deptId } : {}),
  ...(roleId ? { 'Role-Id': roleId } : {}),
});

/** Password (or captcha, or social) grant; a refusal comes back as HTTP 200 with error_description. */
export function login(c: Credentials): Promise<TokenResponse> {
  if (c.social) {
    return http.post<TokenResponse>(TOKEN, {
      authenticate: false,
      searchParams: { tenantId: c.tenantId, ...c.social, grant_type: 'social', scope: 'all' },
      headers: { 'Tenant-Id': c.tenantId },
    });
  }
  return http.post<TokenResponse>(TOKEN, {
    authenticate: false,
    searchParams: {
      tenantId: c.tenantId,
      username: c.username,
      password: c.password,
      grant_type: c.captcha ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    },
    headers: {
      'Tenant-Id': c.tenantId,
      ...choiceHeaders(c.deptId, c.roleId),
      ...(c.captcha ? { 'Captcha-Key': c.captcha.key, 'Captcha-Code': c.captcha.code } : {}),
    },
  });
}

export function refresh(input: RefreshInput): Promise<TokenResponse> {
  return http.post<TokenResponse>(TOKEN, {
    authenticate: false,
    searchParams: { tenantId: input.tenantId, refresh_token: input.refreshToken, grant_type: 'refresh_token', scope: 'all' },
    headers: { 'Tenant-Id': input.tenantId, ...choiceHeaders(input.choice.deptId, input.choice.roleId) },
  });
}

export const logout = () => http.get<Envelope<boolean>>('api/blade-auth/oauth/logout').then(() => undefined);

export const captcha = () => http.get<{ key: string; image: string }>('api/blade-auth/oauth/captcha', { authenticate: false });

export const clearCache = () => http.get<Envelope<boolean>>('api/blade-auth/oauth/clear-cache');

export interface TenantInfo {
  tenantId?: string;
  domain?: string;
  backgroundUrl?: string;
}

/** The tenant served on this host, if any (hides the tenant field on the login page). */
export const tenantInfo = (domain: string) =>
  http.get<Envelope<TenantInfo | null>>('api/blade-system/tenant/info', { searchParams: { domain }, authenticate: false }).then((r) => r.data);
