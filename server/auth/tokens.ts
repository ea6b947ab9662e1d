import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Principal } from './principal';

export type TokenType = 'access_token' | 'refresh_token';

const ISSUER = 'vigil';
const AUDIENCE = 'vigil';

export interface TokenClaims {
  token_type: TokenType;
  tenant_id: string;
  user_id: string;
  role_id: string;
  dept_id: string;
  post_id: string;
  account: string;
  user_name: string;
  nick_name: string;
  role_name: string;
  client_id: string;
  /** Session id, shared by the access and refresh tokens of one sign-in; logout revokes it. */
  sid: string;
  oauth_id?: string;
}

export type VerifiedClaims = TokenClaims & { jti: string; exp: number };

/** Signs and verifies the contract's JWTs (HS256 with the server secret). */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: TokenClaims, ttlSeconds: number): Promise<{ token: string; jti: string; exp: number }> {
    const now = Math.floor(Date.now() / 1000);
    const jti = randomUUID();
    const exp = now + ttlSeconds;
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setJti(jti)
      .setNotBefore(now)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, jti, exp };
  }

  /** Returns the claims, or a reason the token is not acceptable. */
  async verify(token: string, type: TokenType): Promise<{ claims: VerifiedClaims } | { error: string }> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      if (payload.token_type !== type) return { error: '令牌类型错误' };
      return { claims: payload as unknown as VerifiedClaims };
    } catch (error) {
      return { error: error instanceof errors.JWTExpired ? '令牌已过期' : '令牌无效' };
    }
  }
}

export function principalOf(claims: VerifiedClaims): Principal {
  const split = (value: string) => (value ? value.split(',') : []);
  return {
    userId: claims.user_id,
    tenantId: claims.tenant_id,
    account: claims.account,
    userName: claims.user_name,
    nickName: claims.nick_name,
    roleIds: split(claims.role_id),
    roleNames: split(claims.role_name),
    deptId: claims.dept_id,
    postId: claims.post_id,
    clientId: claims.client_id,
    jti: claims.jti,
    sessionId: claims.sid,
    oauthId: claims.oauth_id,
    exp: claims.exp,
  };
}
