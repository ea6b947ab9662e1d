import ky, { type KyInstance } from 'ky';

/** Messages the request layer falls back to or treats specially (spec §8). */
export const UNKNOWN_ERROR = '未知错误';
export const UNAUTHORIZED = '请求未授权';
export const NETWORK_ERROR = '网络异常';
export const TIMEOUT_ERROR = '请求超时';
export const REQUEST_TIMEOUT_MS = 100_000;
/** Messages that raise no toast of their own: 未知错误, and 请求未授权 in both languages (resources/messages-en.ts). */
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

/** What a download has received so far; `rows` when the server says how many rows are coming (X-Export-Rows). */
export interface DownloadProgress {
  bytes: number;
  rows?: number;
}

/** A download names its own headers when it is no user's (a wall screen's image, with the display link's header). */
export interface DownloadOptions extends Pick<RequestOptions, 'searchParams' | 'headers' | 'authenticate'> {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
}

export interface Downloaded {
  blob: Blob;
  /** The file name the server gave (Content-Disposition), if any. */
  fileName?: string;
}

export interface UploadOptions {
  /** Bytes sent and the body's size, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  /** As for requests: a 400 refusal is shown by the caller. */
  ownRefusals?: boolean;
}

/** A call the user cancelled: nothing to toast or log. */
export const CANCELLED = 'cancelled';

export interface Http {
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** A GET answering a file (an export): streamed with its progress, refusals handled like any call's. */
  download(path: string, options?: DownloadOptions): Promise<Downloaded>;
  /** The headers a call would carry, for one made elsewhere (the wall screen's snapshot, by a worker). */
  headers(options?: Pick<RequestOptions, 'headers' | 'authenticate'>): Record<string, string>;
  /** A multipart POST with upload progress (XMLHttpRequest: fetch cannot report what it has sent over HTTP/1.1). */
  upload<T = unknown>(path: string, body: FormData, options?: UploadOptions): Promise<T>;
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

  function headersOf(opts: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Basic ${base64(`${options.clientId}:${options.clientSecret}`)}`,
      ...(options.language ? { 'Accept-Language': options.language() } : {}),
      ...opts.headers,
    };
    const token = options.token();
    if (token && opts.authenticate !== false) headers[options.tokenHeader] = `bearer ${token}`;
    return headers;
  }

  async function send(method: 'get' | 'post', path: string, opts: RequestOptions & { signal?: AbortSignal }): Promise<Response> {
    let response: Response;
    try {
      response = await client(path.replace(/^\//, ''), {
        method,
        headers: headersOf(opts),
        searchParams: searchOf(opts.searchParams),
        json: opts.json,
        body: opts.body,
        signal: opts.signal,
      });
    } catch (error) {
      if (opts.signal?.aborted) throw new RequestError(CANCELLED, 0, true);
      throw new RequestError(error instanceof Error && error.name === 'TimeoutError' ? TIMEOUT_ERROR : NETWORK_ERROR, 0);
    }
    // Statuses 200 to 500 reach the handler; anything else is a failure of the network path (proxy, gateway).
    if (response.status < 200 || response.status > 500) throw new RequestError(NETWORK_ERROR, response.status);
    return response;
  }

  /** The envelope's verdict: the body when its code is 200, else a toast (unless quiet or whitelisted) and a RequestError. */
  function settle<T>(status: number, body: unknown, ownRefusals = false): T {
    const envelope = (typeof body === 'object' && body !== null ? body : {}) as Body;
    const code = typeof envelope.code === 'number' ? envelope.code : status;
    const message = String(envelope.msg || envelope.error_description || UNKNOWN_ERROR);
    if (whitelist.has(code)) throw new RequestError(message, code, true, body);
    if (code === 401) options.onUnauthorized();
    if (code !== 200) {
      if (!(ownRefusals && code === 400)) toast(code, message);
      throw new RequestError(message, code, false, body);
    }
    return body as T;
  }

  async function request<T>(method: 'get' | 'post', path: string, opts: RequestOptions = {}): Promise<T> {
    const response = await send(method, path, opts);
    return settle<T>(response.status, await parse(response), opts.ownRefusals);
  }

  async function download(path: string, opts: DownloadOptions = {}): Promise<Downloaded> {
    const response = await send('get', path, opts);
    const type = response.headers.get('content-type') ?? '';
    // A refusal is an envelope like any call's; a JSON answer with code 200 is no file either.
    if (response.status !== 200 || type.includes('json')) {
      settle(response.status, await parse(response));
      throw new RequestError(UNKNOWN_ERROR, response.status);
    }
    const rowsHeader = response.headers.get('x-export-rows');
    const rows = rowsHeader === null ? undefined : Number(rowsHeader);
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    opts.onProgress?.({ bytes, rows });
    try {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        chunks.push(next.value);
        bytes += next.value.byteLength;
        opts.onProgress?.({ bytes, rows });
      }
    } catch {
      throw new RequestError(opts.signal?.aborted ? CANCELLED : NETWORK_ERROR, 0, opts.signal?.aborted === true);
    }
    return { blob: new Blob(chunks as BlobPart[], { type }), fileName: fileNameOf(response.headers.get('content-disposition')) };
  }

  function upload<T>(path: string, body: FormData, opts: UploadOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${options.prefixUrl.replace(/\/?$/, '/')}${path.replace(/^\//, '')}`);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(headersOf({}))) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => opts.onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
      xhr.onerror = () => reject(new RequestError(NETWORK_ERROR, 0));
      xhr.onload = () => {
        if (xhr.status < 200 || xhr.status > 500) return reject(new RequestError(NETWORK_ERROR, xhr.status));
        try {
          resolve(settle<T>(xhr.status, parseText(xhr.responseText), opts.ownRefusals));
        } catch (error) {
          reject(error);
        }
      };
      xhr.send(body);
    });
  }

  return {
    get: (path, opts) => request('get', path, opts),
    post: (path, opts) => request('post', path, opts),
    download,
    headers: (opts = {}) => headersOf(opts),
    upload,
    resetOnce: () => {
      errorShown = false;
    },
  };
}

async function parse(response: Response): Promise<unknown> {
  return parseText(await response.text());
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The name of `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the UTF-8 one when given. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // fall back to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1];
}
