import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db, Row } from '../../../db/database';
import { primaryKeyOf } from '../../../db/keys';
import type { TableName } from '../../../db/tables';
import { nextId } from '../../../ids';
import type { Platform } from '../../../platform';
import { deleteInBatches } from '../../../series/purge';
import { formatDateTime } from '../../../time';
import { type BatchProgress, DEVICE_KEYED_TABLES, deleteOwned, deleteOwnedInBatches, purgeTenantHistory, tenantOwned } from '../../wit-xinde/project-rows';
import { purgeTenant, tenantLinks, tenantTables } from './purge';

/**
 * Deleting a tenant for good (tenant/deleteTenantById, docs/data-model.md "Purging"), as a job that survives restarts.
 *
 * The tenant is marked first: a `blade_tenant_purge` row (migration 0020) says it is being purged — it is in the
 * recycle bin already, and may no longer be restored — and counts the rows deleted so far. Then everything of it is
 * deleted PURGE_CHUNK (5,000) rows a statement, each batch its own short transaction that also adds to the count, in
 * an order that can stop anywhere: link rows before the rows they hang off, the history and everything that names
 * the tenant's projects and devices before the rows those are found through (project-rows.ts), then every row
 * tagged with the tenant. Last, one transaction takes whatever arrived meanwhile, the tenant row, and closes the job.
 * A purge stopped midway (a restart, an error) leaves the tenant in the recycle bin, marked, partly deleted; the
 * next start resumes every unfinished job, and purging the tenant again resumes it at once.
 */

export const PURGE_STATE = { running: 1, done: 2 } as const;

export const PURGE_MESSAGES = {
  purging: '租户正在彻底删除中,不能恢复',
} as const;

export type PurgeJob = NonNullable<Awaited<ReturnType<TenantPurges['running']>>>;

/** One batch a purge has deleted (and committed, with its progress). */
export interface PurgeBatch {
  tenantId: string;
  table: string;
  rows: number;
  /** Rows of the tenant deleted so far, this batch included. */
  deleted: number;
}

/** Seams for tests. */
export interface TenantPurgeOptions {
  /**
   * Runs inside each batch's transaction, after the batch's progress is recorded: throwing undoes the batch and stops
   * the purge there, as a crash would (tests stop a purge midway with it).
   */
  onBatch?: (batch: PurgeBatch) => void | Promise<void>;
}

/** A purge stopped because the server is closing: resumed at the next start. */
class Stopped extends Error {
  constructor() {
    super('server closing');
  }
}

/** How long a resumed purge is another process's to leave alone: longer than a purge of a large tenant takes. */
const RESUME_LEASE_MS = 60 * 60_000;

export class TenantPurges {
  private readonly runs = new Map<string, Promise<boolean>>();
  /** The start-time sweep (resume). */
  private sweep: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly platform: Platform,
    private readonly log: FastifyBaseLogger,
    private readonly options: TenantPurgeOptions = {},
  ) {}

  private get db(): Db {
    return this.platform.db;
  }

  /** The running purge of a tenant code, if any. */
  running(tenantId: string) {
    return this.db.selectFrom('blade_tenant_purge').selectAll().where('tenantCode', '=', tenantId).where('state', '=', PURGE_STATE.running).executeTakeFirst();
  }

  /** The running purges of these tenant codes, by code: what the recycle bin shows of them. */
  async progress(tenantIds: readonly string[]): Promise<Map<string, Row>> {
    if (tenantIds.length === 0) return new Map<string, Row>();
    const rows = await this.db.selectFrom('blade_tenant_purge').selectAll().where('tenantCode', 'in', [...tenantIds]).where('state', '=', PURGE_STATE.running).execute();
    return new Map(rows.map((r) => [r.tenantCode, r]));
  }

  /**
   * Marks a tenant of the recycle bin as being purged (its job row), unless it is already; returns the running job.
   * From here on the tenant cannot be restored.
   */
  async begin(tenant: Row, userId: string): Promise<PurgeJob> {
    const tenantId = String(tenant.tenantId);
    const now = formatDateTime();
    await this.db
      .insertInto('blade_tenant_purge')
      .values({ id: nextId(), tenantCode: tenantId, tenantName: (tenant.tenantName as string | null) ?? null, state: PURGE_STATE.running, deleted: 0, createUser: userId, createTime: now, updateTime: now, status: 1, isDeleted: 0 })
      // One running purge per tenant (a partial unique index): a second call joins the first. SQLite matches the
      // conflict target's condition to the index's as written: a literal, not a parameter.
      .onConflict((oc) => oc.column('tenantCode').where('state', '=', sql.lit(PURGE_STATE.running)).doNothing())
      .execute();
    const job = await this.running(tenantId);
    if (!job) throw new Error(`tenant purge of ${tenantId} not recorded`);
    this.log.info({ tenantId, deleted: job.deleted }, 'tenant purge marked');
    return job;
  }

  /**
   * Runs the tenant's purge to its end, or joins the run under way in this process. Resolves true when the tenant is
   * gone, false when the run stopped short (logged, and recorded on the job: it is resumed later); never rejects.
   */
  run(tenantId: string): Promise<boolean> {
    const under = this.runs.get(tenantId);
    if (under) return under;
    const run = this.purge(tenantId).then(
      () => true,
      async (error: unknown) => {
        await this.interrupted(tenantId, error);
        return false;
      },
    );
    this.runs.set(tenantId, run);
    void run.finally(() => this.runs.delete(tenantId));
    return run;
  }

  /**
   * At start: resumes every purge a previous process left unfinished, one after another, in the background. Processes
   * of a deployment starting together take one each: a purge is resumed under a lease (server/cluster/leases.ts).
   */
  resume(): Promise<void> {
    const all = (async () => {
      const jobs = await this.db.selectFrom('blade_tenant_purge').select('tenantCode').where('state', '=', PURGE_STATE.running).orderBy('createTime').execute();
      for (const job of jobs) {
        if (this.stopping) return;
        const lease = await this.platform.leases.acquire(`tenant-purge:${job.tenantCode}`, RESUME_LEASE_MS);
        if (!lease) continue;
        this.log.info({ tenantId: job.tenantCode }, 'tenant purge resumed');
        await this.run(job.tenantCode);
        await this.platform.leases.release(lease);
      }
    })();
    this.sweep = all.catch((error: unknown) => this.platform.logs.error('tenant-purge', error));
    return this.sweep;
  }

  /** Resolves when no purge runs in this process (and the start-time sweep is through). */
  async idle(): Promise<void> {
    await this.sweep;
    while (this.runs.size) await Promise.all(this.runs.values());
  }

  /** Stops the purges under way after their current batch (it is undone and done again when they resume). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  private async interrupted(tenantId: string, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    if (!(error instanceof Stopped)) this.platform.logs.error('tenant-purge', error, `tenant ${tenantId}`);
    this.log.warn({ tenantId, reason }, 'tenant purge stopped short: it resumes at the next start or when purged again');
    await this.db
      .updateTable('blade_tenant_purge')
      .set({ lastError: reason.slice(0, 2000), updateTime: formatDateTime() })
      .where('tenantCode', '=', tenantId)
      .where('state', '=', PURGE_STATE.running)
      .execute()
      .catch(() => undefined);
  }

  private async purge(tenantId: string): Promise<void> {
    const job = await this.running(tenantId);
    if (!job) return; // finished meanwhile (another process)
    const { db } = this;
    let deleted = Number(job.deleted);
    let lastLog = Date.now();
    const progress: BatchProgress = (table) => async (trx, rows) => {
      if (this.stopping) throw new Stopped();
      await trx
        .updateTable('blade_tenant_purge')
        .set({ deleted: sql<number>`deleted + ${rows}`, step: table, updateTime: formatDateTime() })
        .where('id', '=', job.id)
        .execute();
      const batch = { tenantId, table, rows, deleted: deleted + rows };
      await this.options.onBatch?.(batch);
      // Counted once the batch is sure to commit (the seam above may still undo it).
      deleted = batch.deleted;
      if (Date.now() - lastLog >= 10_000) {
        lastLog = Date.now();
        this.log.info({ tenantId, table, deleted }, 'tenant purge under way');
      }
    };
    await this.platform.logs.flush(); // buffered log rows of the tenant are purged with the rest
    const keys = new Map<string, string[]>();
    const keyOf = async (table: TableName) => {
      let key = keys.get(table);
      if (!key) keys.set(table, (key = await primaryKeyOf(db, this.platform.dialect, table)));
      return key;
    };

    // 1. Rows without a tenant of their own that are found through the tenant's roles, notices, users and tasks.
    for (const link of tenantLinks(db, tenantId)) await deleteInBatches(db, link.table, await keyOf(link.table), link.where, progress(link.table));
    // 2. Its projects and devices go as a project purge takes them (wit-xinde/project-rows.ts): their history by
    //    device, whatever tenant it was written under, then every row that names them, what they are found through last.
    const owned = await tenantOwned(db, tenantId);
    await purgeTenantHistory(db, tenantId, owned, progress);
    const owners = await deleteOwnedInBatches(db, owned, keyOf, progress);
    // Its devices, gateways and identities are gone: the caches that know them (ingestion's directory, the rules) drop them.
    for (const table of new Set(owners)) this.platform.events.emit('changed', table);
    // 3. Every row tagged with the tenant (the series follows its device: done above).
    for (const table of await tenantTables(db, DEVICE_KEYED_TABLES)) {
      await deleteInBatches(db, table, await keyOf(table), (eb) => eb('tenantId', '=', tenantId), progress(table));
    }
    // 4. What arrived meanwhile (points of its devices too), the tenant itself, and the job, at once.
    const touched = await db.transaction().execute(async (trx) => {
      await deleteOwned(trx, owned);
      const tables = await purgeTenant(trx, tenantId, DEVICE_KEYED_TABLES);
      await trx.updateTable('blade_tenant_purge').set({ state: PURGE_STATE.done, step: null, lastError: null, finishTime: formatDateTime(), updateTime: formatDateTime() }).where('id', '=', job.id).execute();
      return tables;
    });
    for (const table of new Set([...owners, ...touched, 'blade_tenant_purge'])) this.platform.events.emit('changed', table);
    this.log.info({ tenantId, deleted }, 'tenant purged');
  }
}
