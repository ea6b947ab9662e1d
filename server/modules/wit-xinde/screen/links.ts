import type { FastifyInstance } from 'fastify';
import { device, devicePoint } from '../../../../resources/iot/device';
import { project } from '../../../../resources/iot/project';
import { DEFAULT_LINK_DAYS, DISPLAY_SERVER_FIELDS, displayLink, trendsOf } from '../../../../resources/iot/screen';
import { user } from '../../../../resources/system/user';
import { hashSecret, newSecret } from '../../../auth/display';
import { needs } from '../../../auth/rights';
import type { Row } from '../../../db/database';
import { tenantOfRow } from '../../../db/references';
import type { CallContext } from '../../../db/repository';
import { contextOf, idsOf } from '../../../http/context';
import { type CrudHooks, registerCrud, saveWithHooks } from '../../../http/crud';
import { badRequest, missingParam, ok } from '../../../http/envelope';
import type { Platform } from '../../../platform';
import { formatDateTime, parseDateTime } from '../../../time';
import { argsOf, distinct, eq, idArg, namedRows, WHOLE_TENANT, within } from '../common';

/**
 * The display link manager (监测大屏, docs/wall-screen.md): the generic routes of `displaylink` with the checks below,
 * and its own calls. The secret is made here, answered once — by the insert and by `regenerate` — and stored only as
 * its hash; every other answer leaves the hash out (`hidden`).
 */

const DAY_MS = 86_400_000;

/** A link's state as the manager lists it. */
export type LinkState = 'active' | 'revoked' | 'expired';

function stateOf(row: Row, now = Date.now()): LinkState {
  if (Number(row.revoked) === 1) return 'revoked';
  const expires = typeof row.expiresAt === 'string' ? parseDateTime(row.expiresAt)?.getTime() : undefined;
  return expires !== undefined && expires <= now ? 'expired' : 'active';
}

/** The projects named, each a live project the caller sees in the link's tenant; else a 400. */
async function assertProjects(platform: Platform, ctx: CallContext, tenantId: string, ids: readonly string[]): Promise<void> {
  const qb = await platform.repo(project).select(ctx);
  const found = await qb.select('id').where(within('id', ids)).where('tenantId', '=', tenantId).execute();
  if (found.length !== new Set(ids).size) throw badRequest('项目不存在或无权操作');
}

/** Every charted channel is a point of a device the caller sees, of the project it is charted under. */
async function assertTrends(platform: Platform, ctx: CallContext, projectIds: readonly string[], trends: Record<string, string[]>): Promise<void> {
  const channels = Object.entries(trends).flatMap(([projectId, list]) => list.map((channel) => ({ projectId, channel })));
  if (channels.length === 0) return;
  const outside = Object.keys(trends).find((projectId) => !projectIds.includes(projectId));
  if (outside) throw badRequest(`趋势通道的项目 ${outside} 不在所选项目中`);
  const deviceIds = [...new Set(channels.map((c) => c.channel.split(':')[0]))];
  const devices = await (await platform.repo(device).select(ctx)).select(['id', 'projectId']).where(within('id', deviceIds)).execute();
  const points = await (await platform.repo(devicePoint).select(ctx, WHOLE_TENANT)).select(['deviceId', 'pointKey']).where(within('deviceId', deviceIds)).execute();
  const projectOf = new Map(devices.map((d) => [d.id, d.projectId]));
  const known = new Set(points.map((p) => `${p.deviceId}:${p.pointKey}`));
  for (const { projectId, channel } of channels) {
    if (projectOf.get(channel.split(':')[0]) !== projectId || !known.has(channel)) throw badRequest(`趋势通道 ${channel} 不属于项目 ${projectId}`);
  }
}

/**
 * Checks and completes a link before it is written: server-written fields dropped, its projects and charted channels
 * the caller's and of the link's tenant, and its expiry — on insert DEFAULT_LINK_DAYS unless given (null: never),
 * and not already past (an update may set a past time: that ends the link now).
 */
async function prepareLink(platform: Platform, ctx: CallContext, values: Row, existing: Row | undefined): Promise<Row> {
  const out: Row = { ...values };
  for (const field of DISPLAY_SERVER_FIELDS) delete out[field];
  const tenantId = tenantOfRow(ctx, out, existing);
  const moved = existing !== undefined && tenantId !== String(existing.tenantId);
  const projectIds = String(out.projectIds ?? existing?.projectIds ?? '').split(',').filter(Boolean);
  if (out.projectIds !== undefined || moved) await assertProjects(platform, ctx, tenantId, projectIds);
  if (existing && out.trends === undefined && out.projectIds !== undefined) {
    // Projects taken off the link take their charted channels with them.
    const kept = Object.entries(trendsOf(existing.trends as string | null)).filter(([projectId]) => projectIds.includes(projectId));
    out.trends = kept.length ? JSON.stringify(Object.fromEntries(kept)) : null;
  }
  if (out.trends !== undefined || out.projectIds !== undefined || moved) {
    await assertTrends(platform, ctx, projectIds, trendsOf((out.trends === undefined ? existing?.trends : out.trends) as string | null));
  }
  if (!existing) {
    if (!('expiresAt' in out)) out.expiresAt = formatDateTime(new Date(Date.now() + DEFAULT_LINK_DAYS * DAY_MS));
    else if (typeof out.expiresAt === 'string' && (parseDateTime(out.expiresAt)?.getTime() ?? 0) <= Date.now()) throw badRequest('过期时间应晚于当前时间');
  }
  return out;
}

/** Adds who made each link and its state. */
async function decorateLinks(platform: Platform, ctx: CallContext, rows: Row[]): Promise<Row[]> {
  const makers = await namedRows(platform, ctx, user, distinct(rows, 'createUser'), ['realName', 'account']);
  const now = Date.now();
  return rows.map((r) => {
    const maker = makers.get(String(r.createUser));
    return { ...r, createUserName: maker ? String(maker.realName ?? maker.account) : null, state: stateOf(r, now) };
  });
}

export function registerDisplayLinks(app: FastifyInstance, platform: Platform): void {
  const repo = platform.repo(displayLink);
  const beforeSave: CrudHooks['beforeSave'] = (ctx, values, existing) => prepareLink(platform, ctx, values, existing);
  registerCrud(app, platform, displayLink, {
    beforeSave,
    // A new link's secret: made here, its hash stored with the row, the secret itself answered this once.
    insert: async (ctx, body) => {
      const secret = newSecret();
      const row = await saveWithHooks(platform, displayLink, ctx, body, {
        beforeSave: async (c, values, existing) => ({ ...(await prepareLink(platform, c, values, existing)), secretHash: hashSecret(secret) }),
      });
      return { ...row, secret, state: 'active' };
    },
    decorate: (ctx, rows) => decorateLinks(platform, ctx, rows),
  });

  /** ids: the links end at once, for good; their screens are told and closed (server/realtime/screen.ts). */
  app.post('/wit-xinde/displaylink/revoke', needs('screen_edit'), async (request) => {
    const ctx = contextOf(request);
    const ids = idsOf(argsOf(request));
    const rows = await repo.all(ctx, {}, [within('id', ids)]);
    if (rows.length === 0) throw badRequest('数据不存在或无权操作');
    const live = rows.filter((r) => Number(r.revoked) !== 1).map((r) => r.id);
    if (live.length) await repo.updateWhere(ctx, { revoked: 1, revokeTime: formatDateTime(), revokeUser: ctx.principal.userId }, [within('id', live)]);
    return ok(true);
  });

  /** id: a new secret, answered once; the old one opens nothing from now on. A revoked link stays revoked. */
  app.post('/wit-xinde/displaylink/regenerate', needs('screen_edit'), async (request) => {
    const ctx = contextOf(request);
    const id = idArg(argsOf(request), 'id');
    if (!id) throw missingParam('id');
    const row = await repo.byId(ctx, id);
    if (!row) throw badRequest('数据不存在或无权操作');
    if (Number(row.revoked) === 1) throw badRequest('大屏链接已撤销,请新建链接');
    const secret = newSecret();
    await repo.updateWhere(ctx, { secretHash: hashSecret(secret) }, [eq('id', id)]);
    return ok({ id, secret });
  });
}
