import { decodeProtectedHeader, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { principalOf, type TokenClaims, TokenService } from '../../server/auth/tokens';

const SECRET = 'a-secret-of-the-tests-at-least-32-bytes';
const tokens = new TokenService(SECRET);

const claims: TokenClaims = {
  token_type: 'access_token',
  tenant_id: '100001',
  user_id: '1123598821738675201',
  role_id: '11,12',
  dept_id: '21',
  post_id: '31',
  account: 'admin',
  user_name: 'admin',
  nick_name: '管理员',
  role_name: 'administrator,clerk',
  client_id: 'saber',
  sid: 'session-1',
};

/** A token made with the service's own key but other settings: only the service's own are accepted. */
async function forged(settings: { issuer?: string; audience?: string; alg?: string; payload?: Record<string, unknown> }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims, ...settings.payload })
    .setProtectedHeader({ alg: settings.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(settings.issuer ?? 'vigil')
    .setAudience(settings.audience ?? 'vigil')
    .setJti('j-1')
    .setIssuedAt(now)
    .setExpirationTime(now + 60)
    .sign(new TextEncoder().encode(SECRET));
}

describe('access and refresh tokens', () => {
  it('verifies its own token and returns its claims, with an id and an expiry', async () => {
    const { token, jti, exp } = await tokens.sign(claims, 60);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const verified = await tokens.verify(token, 'access_token');
    expect(verified).toEqual({ claims: expect.objectContaining({ ...claims, jti, exp, iss: 'vigil', aud: 'vigil' }) });
    expect(exp - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(59);
  });

  it('refuses a token of the other type, an expired one, and one that is not its own', async () => {
    const { token } = await tokens.sign(claims, 60);
    expect(await tokens.verify(token, 'refresh_token')).toEqual({ error: '令牌类型错误' });
    const expired = await tokens.sign(claims, -1);
    expect(await tokens.verify(expired.token, 'access_token')).toEqual({ error: '令牌已过期' });
    const foreign = await new TokenService('another-secret-of-at-least-32-bytes!').sign(claims, 60);
    expect(await tokens.verify(foreign.token, 'access_token')).toEqual({ error: '令牌无效' });
    expect(await tokens.verify('not.a.token', 'access_token')).toEqual({ error: '令牌无效' });
  });

  it('refuses a token signed with its key for another issuer or audience, or with another algorithm', async () => {
    expect(await tokens.verify(await forged({}), 'access_token')).toHaveProperty('claims');
    expect(await tokens.verify(await forged({ issuer: 'blade' }), 'access_token')).toEqual({ error: '令牌无效' });
    expect(await tokens.verify(await forged({ audience: 'other' }), 'access_token')).toEqual({ error: '令牌无效' });
    expect(await tokens.verify(await forged({ alg: 'HS512' }), 'access_token')).toEqual({ error: '令牌无效' });
  });
});

describe('the principal of a token', () => {
  it('pairs role ids with their names, and reads an empty list as none', async () => {
    const verified = await tokens.verify((await tokens.sign(claims, 60)).token, 'access_token');
    if (!('claims' in verified)) throw new Error(verified.error);
    expect(principalOf(verified.claims)).toMatchObject({ userId: claims.user_id, tenantId: '100001', roleIds: ['11', '12'], roleNames: ['administrator', 'clerk'], sessionId: 'session-1' });
    expect(principalOf({ ...verified.claims, role_id: '', role_name: '' })).toMatchObject({ roleIds: [], roleNames: [] });
  });
});
