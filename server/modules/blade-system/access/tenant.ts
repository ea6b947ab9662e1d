import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tenant } from '../../../../resources/system/tenant';
import { hashPassword } from '../../../auth/passwords';
import { isPlatformAdmin, PLATFORM_TENANT } from '../../../auth/principal';
import type { Db, Row } from '../../../db/database';
import type { CallContext } from '../../../db/repository';
import { filtersOf, pagingOf } from '../../../http/conditions';
import { bodyOf, contextOf, idsOf, paramsOf, requiredText, text } from '../../../http/context';
import { registerCrud } from '../../../http/crud';
import { ApiError, badRequest, forbidden, ok, pageOf } from '../../../http/envelope';
import { nextId } from '../../../ids';
import type { Platform } from '../../../platform';
import { formatDateTime, parseDateTime } from '../../../time';
import { treeNode } from '../../../http/trees';
import { initialPassword, nextTenantId, PROVISIONED_TABLES, provisionTenant } from './provision';
import { PURGE_MESSAGES, type TenantPurges } from './tenant-purge';
import { accountUsage } from './quota';
import { needs } from '../../../auth/rights';
import { loose, type TableName } from '../../../db/tables';

const BASE = '/blade-system/tenant';

export const TENANT_MESSAGES = {
  notFound: '租户不存在',
  codeTaken: '租户编号已存在',
  codeLocked: '租户编号不可修改',
  domainTaken: '域名已被其他租户使用',
  noPackage: '产品包不存在',
  noDatasource: '数据源不存在',
  platformTenant: '平台租户不可删除或设置授权',
  notInRecycleBin: '只能彻底删除回收站中的租户',
  accountNumber: '账号额度应为-1(不限)或正整数',
  expireTime: '过期时间格式应为 yyyy-MM-dd HH:mm:ss',
} as const;

function requirePlatformAdmin(request: FastifyRequest): CallContext {
  const ctx = contextOf(request);
  if (!isPlatformAdmin(ctx.principal)) throw forbidden();
  return ctx;
}

/** Request parameters and a JSON body, merged: the console sends these calls' arguments either way. */
const argsOf = (request: FastifyRequest) => ({ ...paramsOf(request), ...bodyOf(request) });

/** `host[:port]` of a domain or URL, lower-case: tenants may store `a.com`, `http://a.com` or `http://a.com/`. */
export function hostOf(domain: string): string {
  return domain.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').split(/[/?#]/)[0];
}

async function liveTenants(db: Db): Promise<Row[]> {
  return db.selectFrom('blade_tenant').selectAll().where('isDeleted', '=', 0).orderBy('tenantId').execute();
}

/** The live tenant whose domain names the same host (with the port when both give one). */
async function tenantByDomain(db: Db, domain: string): Promise<Row | undefined> {
  const wanted = hostOf(domain);
  if (!wanted) return undefined;
  const candidates = (await liveTenants(db)).filter((t) => typeof t.domain === 'string' && t.domain.trim() !== '');
  const exact = candidates.find((t) => hostOf(String(t.domain)) === wanted);
  const bare = (host: string) => host.split(':')[0];
  return exact ?? candidates.find((t) => bare(hostOf(String(t.domain))) === bare(wanted));
}

/** A tenant named by its row id or its 6-digit code (the console sends either as `tenantId`). */
async function tenantNamed(db: Db, idOrCode: string, deleted = 0): Promise<Row | undefined> {
  return db
    .selectFrom('blade_tenant')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrCode), eb('tenantId', '=', idOrCode)]))
    .where('isDeleted', '=', deleted)
    .executeTakeFirst();
}

async function assertExists(db: Db, table: TableName, id: unknown, message: string): Promise<void> {
  if (id === undefined || id === null || id === '') return;
  // Any table's live row by id: the untyped view, the table name checked.
  const row = await loose(db).selectFrom(table).select('id').where('id', '=', String(id)).where('isDeleted', '=', 0).executeTakeFirst();
  if (!row) throw badRequest(message);
}

async function assertDomainFree(db: Db, domain: unknown, tenantId: unknown): Promise<void> {
  if (typeof domain !== 'string' || domain.trim() === '') return;
  const owner = await tenantByDomain(db, domain);
  if (owner && owner.tenantId !== tenantId && hostOf(String(owner.domain)) === hostOf(domain)) throw badRequest(TENANT_MESSAGES.domainTaken);
}

/** Validation of tenant writes; on insert the tenant code is generated when missing and must be new. */
async function checkTenant(db: Db, values: Row, existing: Row | undefined): Promise<Row> {
  const out: Row = { ...values };
  if (existing) {
    if (out.tenantId != null && out.tenantId !== existing.tenantId) throw badRequest(TENANT_MESSAGES.codeLocked);
    delete out.tenantId;
  } else {
    out.tenantId = out.tenantId ?? (await nextTenantId(db));
    const taken = await db.selectFrom('blade_tenant').select('id').where('tenantId', '=', out.tenantId as string).executeTakeFirst();
    if (taken) throw badRequest(TENANT_MESSAGES.codeTaken);
    out.accountNumber ??= -1;
  }
  const tenantId = existing?.tenantId ?? out.tenantId;
  if (tenantId === PLATFORM_TENANT && out.expireTime) throw badRequest(TENANT_MESSAGES.platformTenant);
  await assertDomainFree(db, out.domain, tenantId);
  await assertExists(db, 'blade_tenant_package', out.packageId, TENANT_MESSAGES.noPackage);
  await assertExists(db, 'blade_datasource', out.datasourceId, TENANT_MESSAGES.noDatasource);
  return out;
}

/**
 * A new tenant is inserted and provisioned (administrator role, root dept, admin account, package menus) in one
 * transaction, so it is either complete or absent. The password hash is computed first: scrypt must not hold the
 * database's write lock.
 */
async function insertTenant(platform: Platform, ctx: CallContext, body: Record<string, unknown>): Promise<Row> {
  if (!isPlatformAdmin(ctx.principal)) throw forbidden(); // platform configuration, whatever a package grants
  const repo = platform.repo(tenant);
  const values = repo.parse(body, false);
  const adminPassword = await hashPassword(await initialPassword(platform.db));
  const p = ctx.principal;
  const now = formatDateTime();
  const row = await platform.db.transaction().execute(async (trx) => {
    const checked = await checkTenant(trx, values, undefined);
    const row: Row = { status: 1, ...checked, id: nextId(), createUser: p.userId, createDept: p.deptId, createTime: now, updateUser: p.userId, updateTime: now, isDeleted: 0 };
    await trx.insertInto('blade_tenant').values(row).execute();
    await provisionTenant(trx, p, { tenantId: String(row.tenantId), tenantName: String(row.tenantName), adminPassword });
    return row;
  });
  for (const table of PROVISIONED_TABLES) platform.events.emit('changed', table);
  return repo.present(row);
}

/**
 * Recycle bin: a page of soft-deleted tenants, filtered like the list. A tenant being purged says how far it got:
 * `purging` 1, `purgeDeleted` (rows deleted so far), `purgeStep` (the table it is at), `purgeStartTime`,
 * `purgeUpdateTime`, `purgeError` (why its last run stopped short).
 */
async function recycleBin(platform: Platform, purges: TenantPurges, params: Record<string, unknown>) {
  const { current, size } = pagingOf(params);
  let qb = platform.db.selectFrom('blade_tenant').where('isDeleted', '=', 1);
  for (const condition of filtersOf(tenant, platform.dialect, params, new Set(['isDeleted', 'ids']))) qb = qb.where(condition);
  const counted = await qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const records = await qb.selectAll().orderBy('updateTime', 'desc').orderBy('id', 'desc').limit(size).offset((current - 1) * size).execute();
  const jobs = await purges.progress(records.map((r) => String(r.tenantId)));
  const withProgress = records.map((r) => {
    const job = jobs.get(String(r.tenantId));
    if (!job) return { ...r, purging: 0 };
    return { ...r, purging: 1, purgeDeleted: Number(job.deleted), purgeStep: job.step ?? null, purgeStartTime: job.createTime, purgeUpdateTime: job.updateTime, purgeError: job.lastError ?? null };
  });
  return pageOf(withProgress, total, current, size);
}

async function restore(platform: Platform, purges: TenantPurges, ctx: CallContext, ids: string[]): Promise<void> {
  const rows = await platform.db.selectFrom('blade_tenant').selectAll().where('id', 'in', ids).where('isDeleted', '=', 1).execute();
  if (rows.length === 0) throw badRequest('回收站中没有这些租户');
  // Partly deleted already: it would come back without its data.
  if ((await purges.progress(rows.map((r) => String(r.tenantId)))).size) throw badRequest(PURGE_MESSAGES.purging);
  for (const row of rows) await assertDomainFree(platform.db, row.domain, row.tenantId);
  await platform.db
    .updateTable('blade_tenant')
    .set({ isDeleted: 0, updateUser: ctx.principal.userId, updateTime: formatDateTime() })
    .where('id', 'in', rows.map((r) => r.id))
    .execute();
  platform.events.emit('changed', 'blade_tenant');
}

/** Parses the setting call's optional accountNumber and expireTime; an empty expireTime clears the expiry. */
function settingChanges(args: Record<string, unknown>): Row {
  const changes: Row = {};
  const accountNumber = text(args, 'accountNumber');
  if (accountNumber !== undefined) {
    const n = Number(accountNumber);
    if (!Number.isInteger(n) || n < -1) throw badRequest(TENANT_MESSAGES.accountNumber);
    changes.accountNumber = n;
  }
  if ('expireTime' in args) {
    const value = text(args, 'expireTime');
    const date = value === undefined ? undefined : parseDateTime(value);
    if (value !== undefined && !date) throw badRequest(TENANT_MESSAGES.expireTime);
    changes.expireTime = date ? formatDateTime(date) : null;
  }
  return changes;
}

/** How long tenant/deleteTenantById waits for the purge before answering with how far it got (it goes on). */
const PURGE_ANSWER_MS = 10_000;

export function registerTenant(app: FastifyInstance, platform: Platform, purges: TenantPurges): void {
  const { db } = platform;
  const repo = platform.repo(tenant);

  registerCrud(app, platform, tenant, {
    insert: (ctx, body) => insertTenant(platform, ctx, body),
    beforeSave: (_ctx, values, existing) => checkTenant(db, values, existing),
    async beforeRemove(ctx, ids) {
      const rows = await repo.all(ctx, {}, [(eb) => eb('id', 'in', ids)]);
      if (rows.some((r) => r.tenantId === PLATFORM_TENANT)) throw badRequest(TENANT_MESSAGES.platformTenant);
    },
  });

  app.post(`${BASE}/setting`, needs('tenant_setting'), async (request) => {
    const ctx = requirePlatformAdmin(request);
    const args = argsOf(request);
    const ids = idsOf(args);
    const changes = settingChanges(args);
    const rows = await repo.all(ctx, {}, [(eb) => eb('id', 'in', ids)]);
    if (rows.length === 0) throw badRequest(TENANT_MESSAGES.notFound);
    if (rows.some((r) => r.tenantId === PLATFORM_TENANT)) throw badRequest(TENANT_MESSAGES.platformTenant);
    if (Object.keys(changes).length) for (const row of rows) await repo.update(ctx, row.id, changes);
    return ok(true);
  });

  app.post(`${BASE}/datasource`, needs('tenant_datasource'), async (request) => {
    const ctx = requirePlatformAdmin(request);
    const args = argsOf(request);
    const target = await tenantNamed(db, requiredText(args, 'tenantId'));
    if (!target) throw badRequest(TENANT_MESSAGES.notFound);
    const datasourceId = requiredText(args, 'datasourceId');
    await assertExists(db, 'blade_datasource', datasourceId, TENANT_MESSAGES.noDatasource);
    await repo.update(ctx, String(target.id), { datasourceId });
    return ok(true);
  });

  app.get(`${BASE}/package-detail`, needs('tenant_package_setting'), async (request) => {
    requirePlatformAdmin(request);
    const target = await tenantNamed(db, requiredText(paramsOf(request), 'tenantId'));
    if (!target) throw badRequest(TENANT_MESSAGES.notFound);
    if (!target.packageId) return ok(null);
    const pkg = await db.selectFrom('blade_tenant_package').selectAll().where('id', '=', String(target.packageId)).where('isDeleted', '=', 0).executeTakeFirst();
    return ok(pkg ?? null);
  });

  app.post(`${BASE}/package-setting`, needs('tenant_package_setting'), async (request) => {
    const ctx = requirePlatformAdmin(request);
    const args = argsOf(request);
    const target = await tenantNamed(db, requiredText(args, 'tenantId'));
    if (!target) throw badRequest(TENANT_MESSAGES.notFound);
    const packageId = text(args, 'packageId') ?? null;
    await assertExists(db, 'blade_tenant_package', packageId, TENANT_MESSAGES.noPackage);
    await repo.update(ctx, String(target.id), { packageId });
    return ok(true);
  });

  app.get(`${BASE}/info`, needs.public, async (request) => {
    const domain = text(paramsOf(request), 'domain') ?? request.headers.host ?? '';
    const found = await tenantByDomain(db, domain);
    return ok(found ? { tenantId: found.tenantId, domain: found.domain, backgroundUrl: found.backgroundUrl ?? null } : {});
  });

  app.get(`${BASE}/getBgUrl`, needs.public, async (request) => {
    const params = paramsOf(request);
    const tenantId = text(params, 'tenant_id') ?? text(params, 'tenantId');
    const found = tenantId ? (await liveTenants(db)).find((t) => t.tenantId === tenantId) : undefined;
    return ok(found ? { tenantId: found.tenantId, backgroundUrl: found.backgroundUrl ?? null } : {});
  });

  app.get(`${BASE}/treeList`, needs.lookup, async (request) => {
    const { principal } = contextOf(request);
    const tenants = (await liveTenants(db)).filter((t) => isPlatformAdmin(principal) || t.tenantId === principal.tenantId);
    return ok(tenants.map((t) => ({ ...treeNode(String(t.tenantId), '0', String(t.tenantName)), hasChildren: false })));
  });

  app.get(`${BASE}/chectNumber`, needs('user', 'tenant'), async (request) => {
    const { principal } = contextOf(request);
    const type = text(paramsOf(request), 'type') ?? 'user';
    if (type !== 'user') throw badRequest('不支持的额度类型');
    return ok(await accountUsage(db, principal.tenantId));
  });

  const recovery = async (request: FastifyRequest) => {
    const ctx = requirePlatformAdmin(request);
    const args = request.method === 'POST' ? argsOf(request) : paramsOf(request);
    if (text(args, 'ids') === undefined) return ok(await recycleBin(platform, purges, args));
    await restore(platform, purges, ctx, idsOf(args));
    return ok(true);
  };
  app.get(`${BASE}/recovery`, needs('tenant_recovery'), recovery);
  app.post(`${BASE}/recovery`, needs('tenant_recovery'), recovery);

  /**
   * Purges a tenant of the recycle bin for good (tenant-purge.ts): marks it, then deletes it in batches. Answers when
   * it is gone, `{tenantId, purged: true, deleted}`, or after PURGE_ANSWER_MS with how far it got, `{purged: false,
   * deleted, step}`: the purge goes on, the recycle bin shows its progress. Purging a tenant whose purge stopped short
   * resumes it.
   */
  app.get(`${BASE}/deleteTenantById`, needs('tenant_recovery'), async (request) => {
    const { principal } = requirePlatformAdmin(request);
    const code = requiredText(paramsOf(request), 'tenantId');
    if (await tenantNamed(db, code, 0)) throw badRequest(TENANT_MESSAGES.notInRecycleBin);
    const target = await tenantNamed(db, code, 1);
    if (!target) throw badRequest(TENANT_MESSAGES.notFound);
    if (target.tenantId === PLATFORM_TENANT) throw badRequest(TENANT_MESSAGES.platformTenant);
    const tenantId = String(target.tenantId);
    const marked = await purges.begin(target, principal.userId);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'waiting'>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), PURGE_ANSWER_MS);
    });
    const outcome = await Promise.race([purges.run(tenantId), waited]);
    clearTimeout(timer);
    const job = await purges.running(tenantId);
    if (outcome === true) {
      const done = await db.selectFrom('blade_tenant_purge').select('deleted').where('id', '=', marked.id).executeTakeFirst();
      return ok({ tenantId, purged: true, deleted: Number(done?.deleted ?? 0) });
    }
    const deleted = Number(job?.deleted ?? 0);
    if (outcome === false) throw new ApiError(500, `租户彻底删除中断,已删除 ${deleted} 行,可再次彻底删除以继续: ${job?.lastError ?? ''}`);
    return ok({ tenantId, purged: false, deleted, step: job?.step ?? null });
  });
}
