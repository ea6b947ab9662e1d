/** Who is calling: read from a verified access token. */
export interface Principal {
  userId: string;
  tenantId: string;
  account: string;
  userName: string;
  nickName: string;
  /** Role ids of the token (one role when switch mode chose one). */
  roleIds: string[];
  /** Role aliases, e.g. `administrator`. */
  roleNames: string[];
  deptId: string;
  postId: string;
  clientId: string;
  /** Token id, for revocation on logout. */
  jti: string;
  /** Sign-in session shared by the access and refresh tokens. */
  sessionId: string;
  /** Third-party identity of a guest (user id -1) who is registering. */
  oauthId?: string;
  /** Expiry of the token, seconds since the epoch. */
  exp: number;
}

export const PLATFORM_TENANT = '000000';
export const ADMINISTRATOR = 'administrator';

/** The administrator of tenant 000000 manages every tenant (CONTRACT.md). */
export const isPlatformAdmin = (p: Principal): boolean =>
  p.tenantId === PLATFORM_TENANT && p.roleNames.includes(ADMINISTRATOR);

/** A signed-in third-party user without a local account: may only register. */
export const isGuest = (p: Principal): boolean => p.userId === '-1';
