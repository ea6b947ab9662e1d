import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notice } from '../../../resources/desk/notice';
import { needs } from '../../auth/rights';
import type { Row } from '../../db/database';
import { contextOf, idsOf, paramsOf, text } from '../../http/context';
import { registerCrud } from '../../http/crud';
import { badRequest, invalidParam, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { decorateNotices, markRead, readState, sanitizeContent, visibleTo } from './notices';

/** The most notices one batchSetRead marks. */
const MAX_BATCH = 1000;

/** Ids named by setRead/batchSetRead: `id`/`ids` params, `{id}`, `{noticeId}`, `{notices: [...]}`, or a JSON array of notices or ids. */
function noticeIdsOf(request: FastifyRequest): string[] {
  const params = paramsOf(request);
  const body = request.body;
  const items: unknown[] = Array.isArray(body)
    ? body
    : body && typeof body === 'object'
      ? [((body as Row).notices as unknown) ?? body].flat()
      : [];
  const fromParams = params.ids !== undefined ? idsOf(params) : params.id !== undefined ? idsOf(params, 'id') : [];
  const fromBody = items.flatMap((item) => {
    if (typeof item === 'string' || typeof item === 'number') return String(item).split(',');
    if (item && typeof item === 'object') {
      const row = item as Row;
      const value = row.noticeId ?? row.id ?? row.ids;
      return value === undefined || value === null ? [] : String(value).split(',');
    }
    return [];
  });
  const ids = [...fromParams, ...fromBody].map((s) => s.trim()).filter(Boolean);
  if (ids.some((id) => !/^-?\d{1,20}$/.test(id))) throw invalidParam('id: 必须是数字编号');
  if (ids.length > MAX_BATCH) throw invalidParam(`一次最多标记${MAX_BATCH}条通知`);
  return [...new Set(ids)];
}

/**
 * blade-desk/notice (spec §2 "Notice list dialog", §7 "Notices"): CRUD for the tenant's notices, and the list,
 * detail and read marks of the notice dialog, all per caller (readFlag, addressees). Everybody reads their notices
 * (the top bar's dialog); writing them is the 通知公告 menu's.
 */
export function registerNotice(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(notice);
  const base = '/blade-desk/notice';

  registerCrud(app, platform, notice, {
    rights: { read: needs.self },
    /** The caller's view: visible notices, optionally only read (readFlag=1) or unread (readFlag=0) ones. */
    listQuery(ctx, query) {
      const extra = [visibleTo(ctx.principal)];
      const flag = text(query, 'readFlag');
      if (flag === '0' || flag === '1') extra.push(readState(ctx.principal, flag === '1'));
      return { query, extra };
    },
    detailConditions: (ctx) => [visibleTo(ctx.principal)],
    /** isView=true marks the notice read for the caller (opening it in the dialog). */
    async afterDetail(ctx, row, params) {
      const isView = text(params, 'isView');
      if (isView === 'true' || isView === '1') await markRead(platform, ctx.principal.userId, [String(row.id)]);
    },
    beforeSave(_ctx, values, existing) {
      const out: Row = { ...values };
      if (typeof values.content === 'string') out.content = sanitizeContent(values.content);
      if (!existing && !values.releaseTime) out.releaseTime = formatDateTime();
      return out;
    },
    decorate: (ctx, rows) => decorateNotices(platform, ctx, rows),
  });

  const markVisible = async (request: FastifyRequest, single: boolean) => {
    const ctx = contextOf(request);
    const ids = noticeIdsOf(request);
    if (ids.length === 0) throw badRequest('请选择通知');
    if (single && ids.length > 1) throw badRequest('一次只能标记一条通知');
    const visible = await repo.all(ctx, {}, [(eb) => eb('id', 'in', ids), visibleTo(ctx.principal)], MAX_BATCH);
    if (visible.length === 0) throw badRequest('数据不存在或无权操作');
    await markRead(platform, ctx.principal.userId, visible.map((r) => r.id));
    return ok(true);
  };
  app.post(`${base}/setRead`, needs.self, (request) => markVisible(request, true));
  app.post(`${base}/batchSetRead`, needs.self, (request) => markVisible(request, false));
}
