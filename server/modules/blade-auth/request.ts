import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { PLATFORM_TENANT } from '../../auth/principal';
import { text } from '../../http/context';

/** The first value of a request header, trimmed; undefined when absent or blank. */
export const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
};

export const tenantOf = (request: FastifyRequest, params: Record<string, unknown>) =>
  text(params, 'tenantId') ?? header(request, 'tenant-id') ?? PLATFORM_TENANT;

/**
 * The client's address as the sign-in rules count it: request.ip (X-Forwarded-For only from TRUST_PROXY), an
 * IPv4-mapped address as IPv4, and an IPv6 /64 as one address (one host usually holds a whole /64).
 */
export const addressOf = (request: FastifyRequest) => normalizeIP(request.ip || 'unknown');
