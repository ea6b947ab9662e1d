/** What a third-party identity provider tells us about a person after they sign in there. */
export interface SocialProfile {
  /** The provider's stable id of the person. */
  uuid: string;
  username?: string;
  nickname?: string;
  avatar?: string;
  email?: string;
}

/** One third-party login (`grant_type=social&source=…`): turns the authorisation code into a profile. */
export interface SocialProvider {
  readonly source: string;
  profile(code: string, state?: string): Promise<SocialProfile>;
}

export interface OAuth2ProviderConfig {
  source: string;
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  userInfoUrl: string;
  redirectUri?: string;
}

/**
 * The standard OAuth 2 authorisation-code exchange (GitHub, Gitee, an enterprise IdP…): code -> access token at
 * tokenUrl, then the profile at userInfoUrl. Configured by the SOCIAL_PROVIDERS environment variable (a JSON list).
 */
export class OAuth2Provider implements SocialProvider {
  constructor(private readonly config: OAuth2ProviderConfig) {}

  get source(): string {
    return this.config.source;
  }

  async profile(code: string): Promise<SocialProfile> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
      ...(this.config.redirectUri ? { redirect_uri: this.config.redirectUri } : {}),
    });
    const tokenResponse = await fetch(this.config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(10_000),
    });
    const token = (await tokenResponse.json().catch(() => ({}))) as { access_token?: string };
    if (!tokenResponse.ok || !token.access_token) throw new Error(`${this.source}: the authorisation code was refused`);
    const userResponse = await fetch(this.config.userInfoUrl, {
      headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    const user = (await userResponse.json().catch(() => ({}))) as Record<string, unknown>;
    const uuid = user.id ?? user.sub ?? user.uuid;
    if (!userResponse.ok || uuid === undefined) throw new Error(`${this.source}: no profile for this sign-in`);
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      uuid: String(uuid),
      username: text(user.login) ?? text(user.username) ?? text(user.preferred_username),
      nickname: text(user.name) ?? text(user.nickname),
      avatar: text(user.avatar_url) ?? text(user.picture) ?? text(user.avatar),
      email: text(user.email),
    };
  }
}
