import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/database';
import { DEFAULT_INIT_PASSWORD } from '../../../server/db/seed';
import { nextId } from '../../../server/ids';
import type { PurgeBatch } from '../../../server/modules/blade-system/access/tenant-purge';
import { PURGE_CHUNK } from '../../../server/series/purge';
import { formatDateTime } from '../../../server/time';
import { type ApiClient, signedIn } from '../../support/client';
import { storeKinds } from '../../support/databases';
import { expectOk, type PageData, postParams, refused } from '../../support/envelope';
import { startServer, type TestServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, submit } from '../monitoring/support';

/**
 * A tenant purge (tenant/deleteTenantById, docs/data-model.md "Purging") deletes in batches of PURGE_CHUNK rows, each
 * its own transaction that also records the purge's progress; it marks the tenant first (it cannot be restored
 * half deleted), shows how far it got in the recycle bin, and a purge stopped midway is resumed at the next start.
 * Other tenants' rows are untouched.
 */

const T = '/api/blade-system/tenant';
const ALARM_LOGS = 2 * PURGE_CHUNK + 2000;
const API_LOGS = PURGE_CHUNK + 1000;
const POINTS = PURGE_CHUNK + 1000;

interface Seeded {
  tenantId: string;
  rowId: string;
  projectId: string;
  deviceId: string;
}

/** A new tenant with a project and a device, thousands of alarm logs and API logs and a long series, in the bin. */
async function seedTenant(server: TestServer, admin: ApiClient, name: string): Promise<Seeded> {
  const db = server.app.platform.db;
  const { tenantId, id: rowId } = expectOk(await admin.post<{ tenantId: string; id: string }>(`${T}/submit`, { tenantName: name }));
  const own = await signedIn(server.url, 'admin', DEFAULT_INIT_PASSWORD, tenantId);
  const project = await submit(own, 'project', { name: `${name}大桥`, code: `P-${tenantId}`, structureType: 1 });
  const device = await submit(own, 'device', { code: `D-${tenantId}`, name: '裂缝计', projectId: project.id });
  await insertMany(db, 'wit_alarm_log', ALARM_LOGS, () => alarmLog(tenantId, project.id, device.id));
  await insertMany(db, 'blade_log_api', API_LOGS, (i) => ({ ...base(tenantId), title: `调用 ${i}`, requestUri: '/api/x' }));
  const t0 = Date.now() - POINTS * 60_000;
  await insertMany(db, 'wit_device_log', POINTS, (i) => ({ deviceId: device.id, pointKey: 'crack', ts: t0 + i * 60_000, value: i, raw: i }));
  await server.app.ingest.rollups.settle();
  expectOk(await postParams(admin, `${T}/remove`, { ids: rowId }));
  // The tenant's own calls above are API logs of it too.
  await server.app.platform.logs.flush();
  return { tenantId, rowId, projectId: String(project.id), deviceId: String(device.id) };
}

const base = (tenantId: string) => ({ id: nextId(), tenantId, createTime: formatDateTime(), updateTime: formatDateTime(), status: 1, isDeleted: 0 });

const alarmLog = (tenantId: string, projectId: string, deviceId: string) => ({
  ...base(tenantId),
  alarmId: nextId(),
  projectId,
  deviceId,
  pointKey: 'crack',
  revision: 1,
  action: 1,
  logTime: formatDateTime(),
});

async function insertMany(db: Db, table: 'wit_alarm_log' | 'blade_log_api' | 'wit_device_log', count: number, row: (i: number) => Record<string, unknown>): Promise<void> {
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => row(i + j));
    // The three tables' rows as the test builds them: checked by the database, not by a type per table.
    await db.insertInto(table).values(rows as never).execute();
  }
}

/** Rows of the tenant left: its tagged rows in two logs, its device's series, the tenant row. */
async function leftOf(db: Db, s: Seeded): Promise<Record<string, number>> {
  const n = async (query: Promise<{ n: number | string | bigint } | undefined>) => Number((await query)?.n ?? 0);
  return {
    wit_alarm_log: await n(db.selectFrom('wit_alarm_log').select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', s.tenantId).executeTakeFirst()),
    blade_log_api: await n(db.selectFrom('blade_log_api').select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', s.tenantId).executeTakeFirst()),
    wit_device_log: await n(db.selectFrom('wit_device_log').select((eb) => eb.fn.countAll<number>().as('n')).where('deviceId', '=', s.deviceId).executeTakeFirst()),
    blade_tenant: await n(db.selectFrom('blade_tenant').select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', s.tenantId).executeTakeFirst()),
  };
}

/** The demo tenant's rows in the same tables, which a purge of another tenant must leave as they are. */
async function demoRows(db: Db): Promise<Record<string, number>> {
  const n = async (query: Promise<{ n: number | string | bigint } | undefined>) => Number((await query)?.n ?? 0);
  return {
    wit_alarm_log: await n(db.selectFrom('wit_alarm_log').select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', DEMO).executeTakeFirst()),
    blade_log_api: await n(db.selectFrom('blade_log_api').select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', DEMO).executeTakeFirst()),
    wit_device_log: await n(db.selectFrom('wit_device_log').select((eb) => eb.fn.countAll<number>().as('n')).where('deviceId', '=', demoId('device:QJ-TILT-01')).executeTakeFirst()),
    blade_user: await n(db.selectFrom('blade_user').select((eb) => eb.fn.countAll<number>().as('n')).where('tenantId', '=', DEMO).executeTakeFirst()),
  };
}

/** The demo tenant's own logs and series, so that "untouched" is about rows that exist. */
async function seedDemo(db: Db): Promise<void> {
  await insertMany(db, 'wit_alarm_log', 300, () => alarmLog(DEMO, demoId('project:bridge'), demoId('device:QJ-TILT-01')));
  await insertMany(db, 'blade_log_api', 300, (i) => ({ ...base(DEMO), title: `演示调用 ${i}`, requestUri: '/api/y' }));
  const t0 = Date.now() - 400 * 60_000;
  await insertMany(db, 'wit_device_log', 300, (i) => ({ deviceId: demoId('device:QJ-TILT-01'), pointKey: 'tilt_x', ts: t0 + i * 60_000, value: i, raw: i }));
}

const byTable = (batches: readonly PurgeBatch[], tenantId: string) => {
  const out: Record<string, number[]> = {};
  for (const b of batches.filter((x) => x.tenantId === tenantId)) (out[b.table] ??= []).push(b.rows);
  return out;
};

const batches: PurgeBatch[] = [];

onEveryStore('purging a tenant in batches', { signIn: ['admin'], app: { tenantPurge: { onBatch: (b) => void batches.push(b) } } }, (ctx) => {
  let db: Db;
  beforeAll(async () => {
    db = ctx.server.app.platform.db;
    batches.length = 0;
    await seedDemo(db);
  });

  it('deletes every row of the tenant, 5,000 rows a batch, counting them, and nothing of another tenant', async () => {
    const demoBefore = await demoRows(db);
    const s = await seedTenant(ctx.server, ctx.admin, '分批删除');
    const before = await leftOf(db, s);
    expect(before).toMatchObject({ wit_alarm_log: ALARM_LOGS, wit_device_log: POINTS, blade_tenant: 1 });
    expect(before.blade_log_api).toBeGreaterThan(API_LOGS);

    const answer = expectOk(await ctx.admin.get<{ tenantId: string; purged: boolean; deleted: number }>(`${T}/deleteTenantById`, { tenantId: s.tenantId }));
    expect(answer).toMatchObject({ tenantId: s.tenantId, purged: true });
    expect(await leftOf(db, s)).toEqual({ wit_alarm_log: 0, blade_log_api: 0, wit_device_log: 0, blade_tenant: 0 });

    const mine = batches.filter((b) => b.tenantId === s.tenantId);
    const tables = byTable(batches, s.tenantId);
    expect(tables.wit_alarm_log).toEqual([PURGE_CHUNK, PURGE_CHUNK, 2000]);
    expect(tables.blade_log_api).toEqual([PURGE_CHUNK, before.blade_log_api - PURGE_CHUNK]);
    expect(tables.wit_device_log).toEqual([PURGE_CHUNK, 1000]);
    expect(Math.max(...mine.map((b) => b.rows))).toBeLessThanOrEqual(PURGE_CHUNK);
    // The job counted every batch, and says it is done.
    const job = await db.selectFrom('blade_tenant_purge').selectAll().where('tenantCode', '=', s.tenantId).executeTakeFirstOrThrow();
    const total = mine.reduce((a, b) => a + b.rows, 0);
    expect([Number(job.state), Number(job.deleted), job.finishTime === null]).toEqual([2, total, false]);
    expect(answer.deleted).toBe(total);
    expect(mine.at(-1)?.deleted).toBe(total);
    expect(total).toBeGreaterThan(ALARM_LOGS + API_LOGS + POINTS);

    // The other tenant: every row as it was.
    expect(await demoRows(db)).toEqual(demoBefore);
    expect(demoBefore.wit_alarm_log).toBeGreaterThanOrEqual(300);
    // Gone for good: purging again finds no tenant, and the code is free.
    refused(await ctx.admin.get(`${T}/deleteTenantById`, { tenantId: s.tenantId }), 400, '租户不存在');
    expect(expectOk(await ctx.admin.get<PageData>(`${T}/recovery`)).total).toBe(0);
    expect(await db.selectFrom('wit_project').select('id').where('id', '=', s.projectId).execute()).toEqual([]);
  });
});

describe.each(await storeKinds())('a tenant purge stopped midway (%s)', (kind) => {
  const seen: PurgeBatch[] = [];
  /** While set, the purge is stopped (its batch undone) at the first batch after a batch of this table. */
  let stopAfter: string | undefined;
  const onBatch = (batch: PurgeBatch) => {
    const before = seen.at(-1);
    if (stopAfter && before?.table === stopAfter) throw new Error('simulated crash');
    seen.push(batch);
  };
  let server: TestServer | undefined;
  afterAll(() => server?.stop());

  it('leaves the tenant marked and partly deleted, shows how far it got, and finishes at the next start', async () => {
    server = await startServer(kind, {}, undefined, undefined, { tenantPurge: { onBatch } });
    const admin = await signedIn(server.url, 'admin', 'admin', '000000');
    await seedDemo(server.app.platform.db);
    const demoBefore = await demoRows(server.app.platform.db);
    const s = await seedTenant(server, admin, '中途停止');
    const before = await leftOf(server.app.platform.db, s);

    // Stopped after its first batch of alarm logs: that batch is committed, the next one is undone.
    stopAfter = 'wit_alarm_log';
    const stopped = await admin.get(`${T}/deleteTenantById`, { tenantId: s.tenantId });
    expect(stopped.body.code).toBe(500);
    expect(stopped.body.msg).toContain('租户彻底删除中断');
    const db = server.app.platform.db;
    const left = await leftOf(db, s);
    expect(left).toEqual({ ...before, wit_alarm_log: ALARM_LOGS - PURGE_CHUNK, wit_device_log: 0 });
    const done = seen.filter((b) => b.tenantId === s.tenantId);
    const job = await db.selectFrom('blade_tenant_purge').selectAll().where('tenantCode', '=', s.tenantId).executeTakeFirstOrThrow();
    expect([Number(job.state), Number(job.deleted), job.step, job.lastError]).toEqual([1, done.reduce((a, b) => a + b.rows, 0), 'wit_alarm_log', 'simulated crash']);

    // The recycle bin shows it being purged, with its progress; it cannot be restored half deleted.
    const bin = expectOk(await admin.get<PageData>(`${T}/recovery`));
    expect(bin.records).toHaveLength(1);
    expect(bin.records[0]).toMatchObject({ tenantId: s.tenantId, purging: 1, purgeDeleted: Number(job.deleted), purgeStep: 'wit_alarm_log', purgeError: 'simulated crash' });
    // The bin holds the removed tenants, whatever a query says of `isDeleted`.
    expect(expectOk(await admin.get<PageData>(`${T}/recovery`, { isDeleted: 0 })).records.map((r) => r.tenantId)).toEqual([s.tenantId]);
    refused(await admin.get(`${T}/recovery`, { ids: s.rowId }), 400, '租户正在彻底删除中,不能恢复');
    expect((await admin.get(`${T}/detail`, { id: s.rowId })).body.data).toBeNull();

    // A restart: the new process resumes the purge by itself and finishes it.
    stopAfter = undefined;
    server = await server.restart();
    await server.app.tenantPurges.idle();
    const after = server.app.platform.db;
    expect(await leftOf(after, s)).toEqual({ wit_alarm_log: 0, blade_log_api: 0, wit_device_log: 0, blade_tenant: 0 });
    const finished = await after.selectFrom('blade_tenant_purge').selectAll().where('tenantCode', '=', s.tenantId).executeTakeFirstOrThrow();
    const all = seen.filter((b) => b.tenantId === s.tenantId);
    expect([Number(finished.state), Number(finished.deleted), finished.lastError]).toEqual([2, all.reduce((a, b) => a + b.rows, 0), null]);
    // The resumed run went on where the first stopped: the alarm logs took three batches in all, none twice.
    expect(byTable(all, s.tenantId).wit_alarm_log).toEqual([PURGE_CHUNK, PURGE_CHUNK, 2000]);
    expect(await demoRows(after)).toEqual(demoBefore);
    expect(expectOk(await (await signedIn(server.url, 'admin', 'admin', '000000')).get<PageData>(`${T}/recovery`)).total).toBe(0);
  });
});
