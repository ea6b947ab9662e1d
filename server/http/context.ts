import type { FastifyRequest } from 'fastify';
import { type DisplayLink, displayContext } from '../auth/display';
import { isGuest, type Principal } from '../auth/principal';
import type { Right } from '../auth/rights';
import type { CallContext } from '../db/repository';
import { invalidParam, missingParam, unauthorized } from './envelope';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** The display link of a display route (server/http/auth-hook.ts); never set with a principal. */
    display?: DisplayLink;
  }
  interface FastifyContextConfig {
    /** The right the route needs (server/auth/rights.ts); required on every API route. */
    right?: Right;
  }
}

export function contextOf(request: FastifyRequest): CallContext {
  const principal = request.principal;
  if (!principal || isGuest(principal)) throw unauthorized();
  return { principal };
}

/** The caller of a display route: its display link, limited to the link's projects (server/auth/display.ts). */
export function displayContextOf(request: FastifyRequest): { link: DisplayLink; ctx: CallContext } {
  const link = request.display;
  if (!link) throw unauthorized();
  return { link, ctx: displayContext(link) };
}

/** Query and form parameters of a request, merged (form fields win), as BladeX reads @RequestParam. */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body;
  const form = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return request.headers['content-type']?.includes('json') ? query : { ...query, ...form };
}

export function text(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  const out = String(first).trim();
  return out === '' ? undefined : out;
}

export function requiredText(params: Record<string, unknown>, name: string): string {
  const value = text(params, name);
  if (value === undefined) throw missingParam(name);
  return value;
}

/** Comma-joined ids (`ids=1,2,3`), or an array of them. */
export function idsOf(params: Record<string, unknown>, name = 'ids'): string[] {
  const value = params[name];
  const list = (Array.isArray(value) ? value.join(',') : String(value ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw missingParam(name);
  return list;
}

/** The JSON body as an object, or a 400. */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidParam('请求体应为 JSON 对象');
  return body as Record<string, unknown>;
}
