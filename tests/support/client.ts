/** A small HTTP client for tests: real requests, the contract's headers, and envelope helpers. */

export const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

export interface Reply<T = unknown> {
  status: number;
  body: T;
}

export type Params = Record<string, string | number | boolean | undefined>;

export class ApiClient {
  token?: string;
  /** Sent as Accept-Language when set, as the console sends its language (resources/messages). */
  language?: string;

  constructor(
    readonly baseUrl: string,
    readonly tenantId = '000000',
  ) {}

  private url(path: string, query?: Params): string {
    const url = new URL(path.startsWith('/') ? path : `/${path}`, this.baseUrl);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const language: Record<string, string> = this.language ? { 'accept-language': this.language } : {};
    return { authorization: SABER, ...(this.token ? { 'blade-auth': `bearer ${this.token}` } : {}), ...language, ...extra };
  }

  async request<T = Envelope>(method: string, path: string, options: { query?: Params; json?: unknown; form?: Params; headers?: Record<string, string>; raw?: BodyInit } = {}): Promise<Reply<T>> {
    const headers = this.headers(options.headers);
    let body: BodyInit | undefined = options.raw;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = new URLSearchParams(Object.entries(options.form).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
    }
    const response = await fetch(this.url(path, options.query), { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T };
  }

  get<T = unknown>(path: string, query?: Params) {
    return this.request<Envelope<T>>('GET', path, { query });
  }

  post<T = unknown>(path: string, json?: unknown, query?: Params) {
    return this.request<Envelope<T>>('POST', path, { json, query });
  }

  /**
   * Password grant (the captcha grant when a captcha's key and code come in `headers`); stores the token on success and
   * returns the raw token response.
   */
  async login(account = 'admin', password = 'admin', tenantId = this.tenantId, headers: Record<string, string> = {}) {
    const grant = headers['captcha-key'] ? 'captcha' : 'password';
    const reply = await this.request<Record<string, string>>('POST', '/api/blade-auth/oauth/token', {
      query: { tenantId, username: account, password, grant_type: grant, scope: 'all', type: 'account' },
      headers: { 'tenant-id': tenantId, ...headers },
    });
    if (reply.body.access_token) this.token = reply.body.access_token;
    return reply.body;
  }
}

/** Signs in and returns a client holding the token; fails the test when sign-in fails. */
export async function signedIn(baseUrl: string, account = 'admin', password = 'admin', tenantId = '000000'): Promise<ApiClient> {
  const client = new ApiClient(baseUrl, tenantId);
  const body = await client.login(account, password, tenantId);
  if (!body.access_token) throw new Error(`sign-in of ${tenantId}/${account} failed: ${JSON.stringify(body)}`);
  return client;
}
