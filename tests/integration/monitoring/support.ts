import { expect } from 'vitest';
import { seedId } from '../../../server/db/seed/ids';
import type { ApiClient, Envelope, Reply } from '../../support/client';
import type { TestServer } from '../../support/server';
import { createStaff, type Staff } from '../../support/staff';

/** Fixtures and checks of the monitoring suites. */

export type Row = Record<string, unknown> & { id: string };

export interface PageData<T = Row> {
  records: T[];
  total: number;
}

export const X = '/api/wit-xinde';
export const DEMO = '100001';

/** Ids of the demo tenant's seed rows (server/db/seed/monitoring.ts). */
export const demoId = (key: string) => seedId(`monitoring:${DEMO}:${key}`);

export function expectOk<T>(reply: Reply<Envelope<T>>): T {
  expect(reply.body, `expected success, got ${reply.status} ${JSON.stringify(reply.body)}`).toMatchObject({ code: 200, success: true });
  expect(reply.status).toBe(200);
  return reply.body.data;
}

/** A refused call: HTTP 400 (or `status`) and a message containing `message`. */
export function expectRefused(reply: Reply<Envelope<unknown>>, message: string, status = 400): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.success).toBe(false);
  expect(reply.body.msg).toContain(message);
}

/** POST with the parameters in the query string, as BladeX's @RequestParam calls are sent. */
export const postParams = <T = unknown>(api: ApiClient, path: string, query: Record<string, string>) =>
  api.request<Envelope<T>>('POST', path, { query });

/** Saves through submit and returns the stored row. */
export async function submit(api: ApiClient, resource: string, body: Record<string, unknown>): Promise<Row> {
  return expectOk(await api.post<Row>(`${X}/${resource}/submit`, body));
}

/** A plain staff user of a tenant in its root department, signed in (tests/support/staff.ts). */
export const staffUser = (server: TestServer, tenantId: string, account: string): Promise<Staff> => createStaff(server, tenantId, account);
