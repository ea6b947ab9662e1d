import { expect } from 'vitest';
import type { ApiClient, Envelope, Reply } from './client';

/** The contract's envelope checks and shapes, shared by every integration suite. */

export type Row = Record<string, unknown> & { id: string };

/** A page of the contract; `current`, `size`, `pages` are there too when a suite reads them. */
export interface PageData<T = Row> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

/** Asserts a successful call (HTTP 200, envelope code 200, success) and returns its data. */
export function expectOk<T>(reply: Reply<Envelope<T>>): T {
  expect(reply.body, `expected success, got ${reply.status} ${JSON.stringify(reply.body)}`).toMatchObject({ code: 200, success: true });
  expect(reply.status).toBe(200);
  return reply.body.data;
}

/** Asserts a refused call: HTTP status and envelope code `status`, success false, and `check` on the message. */
function expectRefusal(reply: Reply<Envelope<unknown>>, status: number, check?: (msg: string) => void): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.code).toBe(status);
  expect(reply.body.success).toBe(false);
  check?.(reply.body.msg);
}

/** A refused call: HTTP 400 (or `status`) and a message containing `message`. */
export function expectRefused(reply: Reply<Envelope<unknown>>, message: string, status = 400): void {
  expectRefusal(reply, status, (msg) => expect(msg).toContain(message));
}

/** A refused call whose message is `message` exactly. */
export function expectRefusedExactly(reply: Reply<Envelope<unknown>>, message: string, status = 400): void {
  expectRefusal(reply, status, (msg) => expect(msg).toBe(message));
}

/** A refused call by status first, where the message matters only when given (rights: 401, 403). */
export function refused(reply: Reply<Envelope<unknown>>, status: number, message?: string): void {
  expectRefusal(reply, status, message ? (msg) => expect(msg).toContain(message) : undefined);
}

/** POST with the parameters in the query string, as BladeX's @RequestParam calls are sent. */
export const postParams = <T = unknown>(api: ApiClient, path: string, query: Record<string, string>) => api.request<Envelope<T>>('POST', path, { query });
