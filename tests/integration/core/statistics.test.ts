import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { nextId } from '../../../server/ids';
import { postgresReachable } from '../../support/databases';
import { startServer, type TestServer } from '../../support/server';

const withPostgres = await postgresReachable();
if (!withPostgres) console.warn('statistics at start on PostgreSQL skipped: PostgreSQL is not reachable');

/**
 * A PostgreSQL database filled without statistics (a restored dump, a bulk import) is analysed when a process starts
 * (server/db/statistics.ts): its planner otherwise walked every device to find a CONNECT's few (bench:connections).
 */
describe.runIf(withPostgres)('statistics at start on PostgreSQL', () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  const analysed = async (table: string) => {
    const { rows } = await sql<{ at: string | null }>`select last_analyze as at from pg_stat_user_tables where relname = ${table}`.execute(server.app.platform.db);
    return rows[0]?.at ?? null;
  };

  it('analyses a table filled since it was last analysed, and leaves alone one barely touched', async () => {
    server = await startServer('postgres');
    const db = server.app.platform.db;
    // Autovacuum's own look (up to a minute away) would make this pass without the server's part.
    await sql`alter table wit_device set (autovacuum_enabled = false)`.execute(db);
    await sql`alter table wit_gateway set (autovacuum_enabled = false)`.execute(db);
    const base = { tenantId: '100001', createTime: '2026-12-02 00:00:00', updateTime: '2026-12-02 00:00:00', status: 1, isDeleted: 0, online: 0 };
    const codes = Array.from({ length: 1_000 }, (_, i) => `ST-${String(i).padStart(4, '0')}`);
    await db.insertInto('wit_device').values(codes.map((code) => ({ ...base, id: nextId(), code, name: code }))).execute();
    await db.insertInto('wit_gateway').values({ ...base, id: nextId(), code: 'ST-GW', name: 'ST-GW', parentId: '0' }).execute();
    expect(await analysed('wit_device')).toBeNull();

    server = await server.restart();
    expect(await analysed('wit_device')).not.toBeNull();
    expect(await analysed('wit_gateway')).toBeNull();
    // Planned with what is there: the lookup of a few devices by code goes through its index.
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select id from wit_device where code in ('ST-0001', 'ST-0500') and is_deleted = 0`.execute(server.app.platform.db);
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('wit_device_code_idx');
  });
});
