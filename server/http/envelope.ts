/** The BladeX envelope (CONTRACT.md "Envelope") and the errors that map onto it. */

export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
  searchCount: boolean;
}

export const MESSAGES = {
  ok: '操作成功',
  unauthorized: '请求未授权',
  missingToken: '缺失令牌,鉴权失败',
  forbidden: '请求被拒绝',
  notFound: '404 没找到请求',
  methodNotAllowed: '不支持当前请求方法',
  unsupportedMedia: '不支持当前媒体类型',
  serverError: '服务器异常',
  unavailable: '服务暂不可用,请稍后再试',
  badUrl: '请求地址格式错误',
  missingParam: '缺少必要的请求参数',
  paramType: '请求参数类型错误',
  validation: '参数校验失败',
  tooLarge: '上传文件过大',
} as const;

export function ok<T>(data: T, msg: string = MESSAGES.ok): Envelope<T> {
  return { code: 200, success: true, data, msg };
}

export function failure<T = null>(code: number, msg: string, data: T = null as T): Envelope<T> {
  return { code, success: false, data, msg };
}

/** Thrown anywhere in a request; the error handler turns it into the envelope with the same HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (msg: string) => new ApiError(400, msg);
export const unauthorized = (msg: string = MESSAGES.unauthorized) => new ApiError(401, msg);
export const forbidden = (msg: string = MESSAGES.forbidden) => new ApiError(403, msg);
export const notFound = (msg: string = MESSAGES.notFound) => new ApiError(404, msg);

/** Parameter errors carry the contract's prefix and then the detail. */
export const invalidParam = (detail: string) => new ApiError(400, `${MESSAGES.validation}: ${detail}`);
export const missingParam = (name: string) => new ApiError(400, `${MESSAGES.missingParam}: ${name}`);
export const paramType = (name: string) => new ApiError(400, `${MESSAGES.paramType}: ${name}`);

export function pageOf<T>(records: T[], total: number, current: number, size: number, searchCount = true): Page<T> {
  return { records, total, size, current, pages: size > 0 ? Math.ceil(total / size) : 0, searchCount };
}
