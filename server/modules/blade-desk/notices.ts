import sanitizeHtml from 'sanitize-html';
import { notice } from '../../../resources/desk/notice';
import type { Principal } from '../../auth/principal';
import type { Db, Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import type { Condition } from '../../http/conditions';
import { nextId } from '../../ids';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';

/**
 * Station notices: who may see one (everyone in its tenant, or only its addressees), who has read it, and a
 * function other modules call to publish one (alarms, workflow).
 */


const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]+)$/i;
const LENGTH = /^\d+(\.\d+)?(px|em|rem|%|pt)?$/;

/** Rich text keeps formatting, links and images; scripts, event handlers and javascript: URLs go. */
export function sanitizeContent(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'font', 'u', 's', 'del', 'ins', 'sub', 'sup', 'hr'],
    allowedAttributes: {
      '*': ['style', 'class', 'align'],
      a: ['href', 'name', 'target', 'title', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      font: ['color', 'size', 'face'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
    allowedStyles: {
      '*': {
        color: [COLOUR],
        'background-color': [COLOUR],
        'text-align': [/^(left|right|center|justify)$/],
        'font-size': [LENGTH],
        'font-weight': [/^(normal|bold|\d{3})$/],
        'text-decoration': [/^(none|underline|line-through)$/],
        width: [LENGTH],
        height: [LENGTH],
      },
    },
  });
}

/** Notices addressed to nobody in particular, to the caller, or written by the caller. */
export function visibleTo(principal: Principal): Condition {
  return (eb) => {
    // Addressees and read marks (blade_notice_user, blade_notice_read) are link rows of a notice and a user, no tenant's.
    const addressed = eb.selectFrom('blade_notice_user').select('blade_notice_user.id').whereRef('blade_notice_user.noticeId', '=', `${notice.table}.id`);
    return eb.or([
      eb.not(eb.exists(addressed)),
      eb.exists(addressed.where('blade_notice_user.userId', '=', principal.userId)),
      eb(`${notice.table}.createUser`, '=', principal.userId),
    ]);
  };
}

/** Filter on the caller's read state (readFlag 0 unread, 1 read). */
export function readState(principal: Principal, read: boolean): Condition {
  return (eb) => {
    const mine = eb
      .selectFrom('blade_notice_read')
      .select('blade_notice_read.id')
      .whereRef('blade_notice_read.noticeId', '=', `${notice.table}.id`)
      .where('blade_notice_read.userId', '=', principal.userId);
    return read ? eb.exists(mine) : eb.not(eb.exists(mine));
  };
}

/** Adds readFlag (for the caller) and categoryName (dictionary 'notice') to notices. */
export async function decorateNotices(platform: Platform, ctx: CallContext, rows: Row[]): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const ids = rows.map((r) => String(r.id));
  const read = await platform.db.selectFrom('blade_notice_read').select('noticeId').where('userId', '=', ctx.principal.userId).where('noticeId', 'in', ids).execute();
  const readIds = new Set(read.map((r) => r.noticeId));
  const categories = await platform.db
    .selectFrom('blade_dict')
    .select(['dictKey', 'dictValue'])
    .where('code', '=', 'notice')
    .where('parentId', '<>', '0')
    .where('isDeleted', '=', 0)
    .execute();
  const names = new Map(categories.map((c) => [String(c.dictKey), c.dictValue]));
  return rows.map((row) => ({ ...row, readFlag: readIds.has(String(row.id)) ? 1 : 0, categoryName: names.get(String(row.category)) ?? '' }));
}

/** Marks notices read for one user; already-read ones stay as they are. */
export async function markRead(platform: Platform, userId: string, noticeIds: readonly string[]): Promise<void> {
  const ids = [...new Set(noticeIds)];
  if (ids.length === 0) return;
  const done = await platform.db.selectFrom('blade_notice_read').select('noticeId').where('userId', '=', userId).where('noticeId', 'in', ids).execute();
  const already = new Set(done.map((r) => r.noticeId));
  const rows = ids.filter((id) => !already.has(id)).map((noticeId) => ({ id: nextId(), noticeId, userId }));
  if (rows.length) await platform.db.insertInto('blade_notice_read').values(rows).onConflict((oc) => oc.doNothing()).execute();
}

export interface NewNotice {
  tenantId: string;
  title: string;
  /** Dictionary 'notice' key; 8 is 告警通知. */
  category: number;
  content?: string;
  /** Only these users see it; everyone in the tenant when empty. */
  userIds?: readonly string[];
  /** Who publishes it; the system (no user) when absent. */
  createUser?: string;
  releaseTime?: string;
}

/** Publishes a notice from server code (alarms, workflow); returns its id. */
export async function publishNotice(platform: Platform, input: NewNotice): Promise<string> {
  const id = await platform.db.transaction().execute((trx) => insertNotice(trx, input));
  platform.events.emit('changed', notice.table);
  return id;
}

/**
 * Writes a notice in a transaction of the caller's (a workflow step's, so a task and its notice commit together); the
 * caller tells the caches once it has committed (`changed` of blade_notice).
 */
export async function insertNotice(trx: Db, input: NewNotice): Promise<string> {
  const id = nextId();
  const now = formatDateTime();
  // Background work without a caller (an alarm's channel, a workflow step): the tenant is the alarm's or the instance's (raw-queries.ts).
  await trx
    .insertInto(notice.table)
    .values({
      id,
      tenantId: input.tenantId,
      title: input.title.slice(0, 255),
      category: input.category,
      releaseTime: input.releaseTime ?? now,
      content: input.content ? sanitizeContent(input.content) : null,
      createUser: input.createUser ?? null,
      createTime: now,
      updateUser: input.createUser ?? null,
      updateTime: now,
      status: 1,
      isDeleted: 0,
    })
    .execute();
  const users = [...new Set(input.userIds ?? [])];
  if (users.length) await trx.insertInto('blade_notice_user').values(users.map((userId) => ({ id: nextId(), noticeId: id, userId }))).execute();
  return id;
}

/** The caller's unread notices, newest first (the station tab of the notice centre). */
export async function unreadNotices(platform: Platform, ctx: CallContext, limit = 20): Promise<Row[]> {
  const conditions = [visibleTo(ctx.principal), readState(ctx.principal, false), ...ownTenantOnly(ctx.principal)];
  const rows = await platform.repo(notice).all(ctx, { descs: 'releaseTime' }, conditions, limit);
  return decorateNotices(platform, ctx, rows);
}

/** How many notices the caller has not read (the home's count). */
export async function unreadNoticeCount(platform: Platform, ctx: CallContext): Promise<number> {
  const conditions = [visibleTo(ctx.principal), readState(ctx.principal, false), ...ownTenantOnly(ctx.principal)];
  const qb = await platform.repo(notice).query(ctx, {}, conditions);
  const row = await qb.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The notice centre shows the caller's own tenant, also to the platform administrator. */
function ownTenantOnly(principal: Principal): Condition[] {
  return [(eb) => eb(`${notice.table}.tenantId`, '=', principal.tenantId)];
}
