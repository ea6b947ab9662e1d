import ky, { type KyInstance } from 'ky';

/** Messages the request layer falls back to or treats specially (spec §8). */
export const UNKNOWN_ERROR = '未知错误';
export const UNAUTHORIZED = '请求未授权';
export const NETWORK_ERROR = '网络异常';
export const TIMEOUT_ERROR = '请求超时';
export const REQUEST_TIMEOUT_MS = 100_000;
/** Messages that raise no toast of their own: 未知错误, and 请求未授权 in both languages (server/i18n/en.ts). */
export const QUIET_MESSAGES: readonly string[] = [UNKNOWN_ERROR, UNAUTHORIZED, 'Not signed in'];
export const isQuiet = (message: string) => QUIET_MESSAGES.includes(message);

export interface HttpOptions {
  /** Origin (and path) the calls are relative to; '/' in the browser. */
  prefixUrl: string;
  clientId: string;
  clientSecret: string;
  /** Header that carries the user token, `bearer <token>` (site tokenHeader). */
  tokenHeader: string;
  token: () => string | undefined;
  /** A code of 401 anywhere: log out and go to /login. */
  onUnauthorized: () => void;
  /** Shows an error toast. */
  notify: (message: string) => void;
  /** Codes whose failures are rejected silently. */
  whitelist?: readonly number[];
  fetch?: typeof fetch;
  /** The console's language, sent as Accept-Language: the server answers its messages in it. */
  language?: () => string;
  /** Milliseconds before a call is abandoned; 100000 unless a test shortens it. */
  timeout?: number;
}

export interface RequestOptions {
  searchParams?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: FormData | URLSearchParams;
  headers?: Record<string, string>;
  /** false: no user token header (the token call itself, public calls). */
  authenticate?: boolean;
  /** A 400 refusal is shown by the caller (a form's fields, an import's error list): no toast of its own. */
  ownRefusals?: boolean;
}

/** A failed call: the message shown to the user, the code that decided it, silent for whitelisted codes. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly silent = false,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export interface Http {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** The next 500 with 未知错误/请求未授权 shows its toast again (a new session). */
  resetOnce(): void;
}

interface Body {
  code?: unknown;
  msg?: unknown;
  error_description?: unknown;
}

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const searchOf = (params: RequestOptions['searchParams']) =>
  params ? Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '') as [string, string][]) : undefined;

/** The one HTTP client of the console: ky with the request rules of spec §8. */
export function createHttp(options: HttpOptions): Http {
  const whitelist = new Set(options.whitelist ?? []);
  let errorShown = false;
  const client: KyInstance = ky.create({
    prefixUrl: options.prefixUrl,
    timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
    credentials: 'include',
    throwHttpErrors: false,
    retry: 0,
    fetch: options.fetch,
  });

  function toast(code: number, message: string) {
    const quiet = isQuiet(message);
    if (code === 500 && quiet) {
      if (errorShown) return;
      errorShown = true;
      options.notify(message);
    } else if (!quiet) {
      options.notify(message);
    }
  }

  async function request<T>(method: 'get' | 'post', path: string, opts: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Basic ${base64(`${options.clientId}:${options.clientSecret}`)}`,
      ...(options.language ? { 'Accept-Language': options.language() } : {}),
      ...opts.headers,
    };
    const token = options.token();
    if (token && opts.authenticate !== false) headers[options.tokenHeader] = `bearer ${token}`;
    let response: Response;
    try {
      response = await client(path.replace(/^\//, ''), {
        method,
        headers,
        searchParams: searchOf(opts.searchParams),
        json: opts.json,
        body: opts.body,
      });
    } catch (error) {
      throw new RequestError(error instanceof Error && error.name === 'TimeoutError' ? TIMEOUT_ERROR : NETWORK_ERROR, 0);
    }
    // Statuses 200 to 500 reach the handler; anything else is a failure of the network path (proxy, gateway).
    if (response.status < 200 || response.status > 500) throw new RequestError(NETWORK_ERROR, response.status);
    const body = await parse(response);
    const envelope = (typeof body === 'object' && body !== null ? body : {}) as Body;
    const code = typeof envelope.code === 'number' ? envelope.code : response.status;
    const message = String(envelope.msg || envelope.error_description || UNKNOWN_ERROR);
    if (whitelist.has(code)) throw new RequestError(message, code, true, body);
    if (code === 401) options.onUnauthorized();
    if (code !== 200) {
      if (!(opts.ownRefusals && code === 400)) toast(code, message);
      throw new RequestError(message, code, false, body);
    }
    return body as T;
  }

  return {
    get: (path, opts) => request('get', path, opts),
    post: (path, opts) => request('post', path, opts),
    resetOnce: () => {
      errorShown = false;
    },
  };
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
