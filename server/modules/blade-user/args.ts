import type { FastifyRequest } from 'fastify';
import type { Row } from '../../db/database';
import type { CallContext, Repository } from '../../db/repository';
import { bodyOf, paramsOf } from '../../http/context';
import { badRequest } from '../../http/envelope';

/**
 * The arguments of a call that BladeX reads as @RequestParam while clients also send JSON: query, form and JSON
 * body fields merged (body wins).
 */
export function argsOf(request: FastifyRequest): Record<string, unknown> {
  const json = request.headers['content-type']?.includes('json') ? bodyOf(request) : {};
  return { ...paramsOf(request), ...json };
}

/** The rows with these ids, all of which the caller must be able to see. */
export async function visibleRows(repo: Repository, ctx: CallContext, ids: string[]): Promise<Row[]> {
  const rows = await repo.all(ctx, {}, [(eb) => eb('id', 'in', ids)]);
  if (rows.length !== new Set(ids).size) throw badRequest('数据不存在或无权操作');
  return rows;
}
