import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorLog } from '../../../resources/log/error';
import type { Row } from '../../db/database';
import { zodMessage } from '../../db/repository';
import { contextOf } from '../../http/context';
import { invalidParam, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { DATETIME_PATTERN, formatDateTime, parseDateTime } from '../../time';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/** Most entries one upload may carry (the console keeps its local log small). */
export const MAX_UPLOADED_ERRORS = 100;

const cut = (max: number) => z.string().max(max * 4).transform((s) => s.slice(0, max));

/** One runtime error of the console (spec §3 "Error log"). `info` may be text or any JSON value. */
const uploadedError = z.object({
  type: cut(255).nullish(),
  url: cut(2000).nullish(),
  message: z.string({ error: '请输入错误信息' }).trim().min(1, '请输入错误信息').max(20_000, '错误信息过长'),
  stack: cut(20_000).nullish(),
  info: z.unknown().optional(),
  time: z.string().regex(DATETIME_PATTERN, '日期格式应为 yyyy-MM-dd HH:mm:ss').nullish(),
});

const uploadedErrors = z
  .array(uploadedError, { error: '请上传错误日志列表' })
  .min(1, '没有要上传的日志')
  .max(MAX_UPLOADED_ERRORS, `单次最多上传${MAX_UPLOADED_ERRORS}条日志`);

const infoText = (info: unknown) => (info === undefined || info === null ? null : (typeof info === 'string' ? info : JSON.stringify(info)).slice(0, 20_000));

/** blade-log: the usual, API and error logs (read only), and the console's error-log upload. */
export function registerLog(app: FastifyInstance, platform: Platform): void {

  /** The console's "上传服务器": stores its local runtime errors under the caller's tenant and account. */
  app.post('/blade-log/error/upload', limited('clientErrors', needs.self), async (request) => {
    const ctx = contextOf(request);
    const { principal } = ctx;
    const parsed = uploadedErrors.safeParse(request.body);
    if (!parsed.success) throw invalidParam(zodMessage(parsed.error));
    const now = formatDateTime();
    const rows: Row[] = parsed.data.map((entry) => {
      const time = entry.time && parseDateTime(entry.time) ? formatDateTime(parseDateTime(entry.time)) : now;
      // The repository adds id, tenant and authorship (build); createTime is when the error happened.
      return {
        serviceId: 'console',
        env: 'browser',
        method: 'CLIENT',
        requestUri: entry.url ?? null,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        remoteIp: request.ip,
        params: infoText(entry.info),
        createBy: principal.account,
        exceptionName: entry.type ?? null,
        message: entry.message,
        stackTrace: entry.stack ?? null,
        createTime: time,
      };
    });
    await platform.repo(errorLog).insertMany(ctx, rows, now);
    return ok(rows.length);
  });
}
