import { seedId } from '../../../server/db/seed/ids';
import type { ApiClient } from '../../support/client';
import { expectOk, type Row } from '../../support/envelope';
import type { TestServer } from '../../support/server';
import { createStaff, type Staff } from '../../support/staff';

/** Fixtures of the monitoring suites (the wit-xinde service); the envelope checks are in tests/support/envelope.ts. */

export const X = '/api/wit-xinde';
export const DEMO = '100001';

/** Ids of the demo tenant's seed rows (server/db/seed/monitoring.ts). */
export const demoId = (key: string) => seedId(`monitoring:${DEMO}:${key}`);

/** Saves through submit and returns the stored row. */
export async function submit(api: ApiClient, resource: string, body: Record<string, unknown>): Promise<Row> {
  return expectOk(await api.post<Row>(`${X}/${resource}/submit`, body));
}

/** A plain staff user of a tenant in its root department, signed in (tests/support/staff.ts). */
export const staffUser = (server: TestServer, tenantId: string, account: string): Promise<Staff> => createStaff(server, tenantId, account);
