import type { FastifyInstance } from 'fastify';
import { devicePoint, device } from '../../../../resources/iot/device';
import { monitorPoint } from '../../../../resources/iot/monitoring';
import { project } from '../../../../resources/iot/project';
import type { ScreenTrend } from '../../../../resources/wire/screen';
import { needs } from '../../../auth/rights';
import type { Row } from '../../../db/database';
import { type CallContext, transact } from '../../../db/repository';
import { bodyOf, contextOf, displayContextOf, paramsOf, text } from '../../../http/context';
import { badRequest, invalidParam, missingParam, notFound, ok, paramType } from '../../../http/envelope';
import type { Platform } from '../../../platform';
import { sampled } from '../../../series/sampling';
import { eq, idArg, within } from '../common';
import type { LatestValues } from '../../../ingest/latest';
import { screenData } from './data';
import { assertScreenImage, findScreenImage, sendScreenImage } from './image';
import { registerDisplayLinks } from './links';

/**
 * The wall screen's calls (docs/wall-screen.md): what a display link reads — its data, a channel's trend, a project's
 * image — each declaring the `display` right; and the manager's layout call.
 */

const HOUR_MS = 3_600_000;
const TREND_HOURS = { default: 24, max: 24 * 31 } as const;
const TREND_WIDTH = { default: 600, min: 10, max: 2000 } as const;
const MAX_PLACED = 1000;

/** A whole number argument within bounds, or its default; anything else is a 400. */
function boundedArg(args: Record<string, unknown>, name: string, bounds: { default: number; min?: number; max: number }): number {
  const value = text(args, name);
  if (value === undefined) return bounds.default;
  const n = Number(value);
  if (!Number.isInteger(n) || n < (bounds.min ?? 1) || n > bounds.max) throw invalidParam(`${name} 应在 ${bounds.min ?? 1} 到 ${bounds.max} 之间`);
  return n;
}

/** A visible project by id argument, or a 400 (a display link sees only its own). */
async function projectArg(platform: Platform, ctx: CallContext, args: Record<string, unknown>): Promise<Row> {
  const id = idArg(args, 'projectId');
  if (!id) throw missingParam('projectId');
  const row = await platform.repo(project).byId(ctx, id);
  if (!row) throw badRequest('项目不存在或无权操作');
  return row;
}

interface Placement {
  id: string;
  x: number | null;
  y: number | null;
}

/** `points: [{id, x, y}]`, x and y fractions 0…1 (both null: not placed). */
function placementsOf(value: unknown): Placement[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidParam('points: 应为监测点位置的列表');
  if (value.length > MAX_PLACED) throw invalidParam(`points: 一次最多放置${MAX_PLACED}个监测点`);
  return value.map((item: unknown, i) => {
    const p = (item ?? {}) as Record<string, unknown>;
    const id = String(p.id ?? '');
    if (!/^\d{1,20}$/.test(id)) throw invalidParam(`points.${i}.id: 必须是数字编号`);
    const fraction = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
    const x = fraction(p.x);
    const y = fraction(p.y);
    if ((x === null) !== (y === null)) throw invalidParam(`points.${i}: 位置应同时给出 x 和 y`);
    for (const v of [x, y]) if (v !== null && !(Number.isFinite(v) && v >= 0 && v <= 1)) throw invalidParam(`points.${i}: 位置应在 0 到 1 之间`);
    return { id, x, y };
  });
}

/**
 * `POST screen/layout {projectId, image?, points?}`: the project's image (the link of an image attachment of its
 * tenant; null or '' removes it) and where its monitor points sit on it, in one transaction.
 */
async function saveLayout(platform: Platform, ctx: CallContext, body: Record<string, unknown>): Promise<void> {
  const row = await projectArg(platform, ctx, body);
  const placements = placementsOf(body.points);
  if (new Set(placements.map((p) => p.id)).size !== placements.length) throw invalidParam('points: 监测点重复');
  const ids = placements.map((p) => p.id);
  const found = ids.length ? await platform.repo(monitorPoint).all(ctx, {}, [eq('projectId', row.id), within('id', ids)], MAX_PLACED) : [];
  if (found.length !== ids.length) throw badRequest('监测点不存在或不属于该项目');
  let image: string | null | undefined;
  if ('image' in body) {
    image = body.image === null || body.image === '' ? null : String(body.image);
    if (image !== null) await assertScreenImage(platform, ctx, String(row.tenantId), image);
  }
  await transact(platform, async (trx) => {
    if (image !== undefined) await platform.repo(project).within(trx).updateWhere(ctx, { screenImage: image }, [eq('id', row.id)]);
    const points = platform.repo(monitorPoint).within(trx);
    for (const p of placements) await points.updateWhere(ctx, { screenX: p.x, screenY: p.y }, [eq('id', p.id)]);
  });
}

export function registerScreen(app: FastifyInstance, platform: Platform, latest: LatestValues): void {
  registerDisplayLinks(app, platform);

  app.get('/wit-xinde/screen/data', needs.display, async (request) => {
    const { link, ctx } = displayContextOf(request);
    return ok(await screenData(platform, ctx, link, latest));
  });

  /** deviceId, pointKey, hours (1…744, default 24), width (buckets, default 600): a channel of the link's projects. */
  app.get('/wit-xinde/screen/trend', needs.display, async (request) => {
    const { ctx } = displayContextOf(request);
    const args = paramsOf(request);
    const deviceId = idArg(args, 'deviceId');
    if (!deviceId) throw missingParam('deviceId');
    const pointKey = text(args, 'pointKey');
    if (!pointKey) throw missingParam('pointKey');
    if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(pointKey)) throw paramType('pointKey');
    const hours = boundedArg(args, 'hours', TREND_HOURS);
    const width = boundedArg(args, 'width', TREND_WIDTH);
    const row = await platform.repo(device).byId(ctx, deviceId);
    if (!row) throw notFound('设备不存在或无权查看');
    const point = await (await platform.repo(devicePoint).select(ctx)).select('id').where('deviceId', '=', deviceId).where('pointKey', '=', pointKey).executeTakeFirst();
    if (!point) throw badRequest('设备没有该点位');
    const end = Date.now();
    const series = await sampled(platform, { deviceId, pointKey, start: end - hours * HOUR_MS, end }, width);
    const trend: ScreenTrend = series.data;
    return ok(trend);
  });

  /** projectId: the project's image, streamed; 404 when it has none (or its attachment was removed since). */
  app.get('/wit-xinde/screen/image', needs.display, async (request, reply) => {
    const { ctx } = displayContextOf(request);
    const row = await projectArg(platform, ctx, paramsOf(request));
    const image = typeof row.screenImage === 'string' && row.screenImage ? await findScreenImage(platform, ctx, String(row.tenantId), row.screenImage) : undefined;
    if (!image) throw notFound('大屏底图不存在');
    return sendScreenImage(platform, ctx, image, reply);
  });

  app.post('/wit-xinde/screen/layout', needs('screen_layout'), async (request) => {
    await saveLayout(platform, contextOf(request), bodyOf(request));
    return ok(true);
  });
}
