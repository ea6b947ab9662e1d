import type { FastifyInstance } from 'fastify';
import { platformFields, user } from '../../../resources/system/user';
import { ESCALATION, EscalationGuard } from '../../auth/escalation';
import { hashPassword } from '../../auth/passwords';
import { accountKey } from '../../auth/sign-in-guard';
import type { Row } from '../../db/database';
import { type CallContext, transact, zodMessage } from '../../db/repository';
import { contextOf, idsOf, paramsOf, text } from '../../http/context';
import { badRequest, forbidden, invalidParam, missingParam, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { initialPassword } from '../blade-system/access/provision';
import { argsOf, visibleRows } from './args';
import { decorateUsers, dictLabels } from './names';
import { assertOwnedByTenant } from './tenancy';
import { needs } from '../../auth/rights';

function byTenant(rows: Row[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const row of rows) groups.set(String(row.tenantId), [...(groups.get(String(row.tenantId)) ?? []), String(row.id)]);
  return groups;
}

/** Users with their sign-in locks: `failures`, `captchaRequired` and `locks` of `{address, failures, lockedUntil}`. */
async function withLocks(platform: Platform, rows: Row[]): Promise<Row[]> {
  const locks = await platform.signIn.locksOf(rows.map((r) => ({ tenantId: r.tenantId, account: r.account })));
  return rows.map((row) => {
    const found = locks.get(accountKey(row.tenantId, row.account));
    return {
      id: row.id,
      tenantId: row.tenantId,
      account: row.account,
      name: row.name,
      realName: row.realName,
      failures: found?.failures ?? 0,
      captchaRequired: found?.captchaRequired ?? false,
      locks: (found?.locks ?? []).map((l) => ({ address: l.address, failures: l.failures, lockedUntil: formatDateTime(new Date(l.lockedUntil)) })),
    };
  });
}

/** What administrators do to accounts besides editing them: reset, roles, unlock, platform profile. */
export function registerUserAdministration(app: FastifyInstance, platform: Platform): void {
  const base = '/blade-user';
  const repo = platform.repo(user);
  const { db } = platform;
  const guard = new EscalationGuard(platform);
  /** The users named by the call, each one the caller covers (docs/authorisation.md "No escalation"). */
  const targets = async (ctx: CallContext, ids: string[]) => {
    const users = await visibleRows(repo, ctx, ids);
    await guard.assertCoversUsers(ctx.principal, users);
    return users;
  };

  app.post(`${base}/reset-password`, needs('user_reset'), async (request) => {
    const ctx = contextOf(request);
    const users = await targets(ctx, idsOf(argsOf(request), 'userIds'));
    const groups = [...byTenant(users)];
    const hashes = await Promise.all(groups.map(async ([tenantId]) => hashPassword(await initialPassword(db, tenantId))));
    // Each tenant's users get its initial password (the platform administrator may reset several tenants' at once).
    await transact(platform, async (trx) => {
      for (const [index, [tenantId, ids]] of groups.entries()) {
        await repo.within(trx).updateWhere(ctx, { password: hashes[index] }, [(eb) => eb('id', 'in', ids), (eb) => eb('tenantId', '=', tenantId)]);
      }
    });
    return ok(true);
  });

  /** Sets the users' roles; the roles must be of the users' tenant. Takes effect at the users' next sign-in. */
  app.post(`${base}/grant`, needs('user_role'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const users = await targets(ctx, idsOf(args, 'userIds'));
    if (users.some((u) => u.id === ctx.principal.userId)) throw forbidden(ESCALATION.ownAccount);
    const roleId = idsOf(args, 'roleIds').join(',');
    const tenants = [...byTenant(users)];
    if (tenants.length !== 1) throw badRequest('所选用户不属于同一租户');
    const [[tenantId, ids]] = tenants;
    await assertOwnedByTenant(db, tenantId, { roleId });
    await guard.assertAssignable(ctx.principal, tenantId, roleId);
    await repo.updateWhere(ctx, { roleId }, [(eb) => eb('id', 'in', ids)]);
    return ok(true);
  });

  /** Lifts every sign-in lock and the captcha demand of the users' accounts (docs/sign-in.md). */
  app.post(`${base}/unlock`, needs('user_unlock'), async (request) => {
    const ctx = contextOf(request);
    const users = await targets(ctx, idsOf(argsOf(request), 'userIds'));
    await platform.signIn.lift(users.map((u) => ({ tenantId: u.tenantId, account: u.account })));
    for (const u of users) {
      platform.logs.write('blade_log_usual', { tenantId: u.tenantId, createUser: ctx.principal.userId, createBy: ctx.principal.account, logLevel: 'info', logId: 'unlock', logData: `${ctx.principal.account} 解封账号 ${String(u.account)}`, remoteIp: request.ip });
    }
    return ok(true);
  });

  /** The users the caller may see that are locked out from some address or need a captcha now, with their locks. */
  app.get(`${base}/lock-list`, needs('user_unlock'), async (request) => {
    const ctx = contextOf(request);
    const page = await repo.page(ctx, paramsOf(request), [platform.signIn.lockedUsers()]);
    return ok({ ...page, records: await withLocks(platform, page.records) });
  });

  app.post(`${base}/update-platform`, needs('user_platform'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const userId = text(args, 'userId') ?? text(args, 'id');
    if (!userId) throw missingParam('userId');
    const parsed = platformFields.safeParse(args);
    if (!parsed.success) throw invalidParam(zodMessage(parsed.error));
    if (!(await dictLabels(db, 'user_type')).has(String(parsed.data.userType))) throw badRequest('用户平台不存在');
    await targets(ctx, [userId]);
    await repo.update(ctx, userId, { userType: parsed.data.userType, userExt: parsed.data.userExt ?? null });
    return ok(true);
  });

  /** The user with its platform (userType, userTypeName) and its free-form JSON extension (userExt). */
  app.get(`${base}/platform-detail`, needs('user_platform'), async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const userId = text(args, 'userId') ?? text(args, 'id');
    if (!userId) throw missingParam('userId');
    const [row] = await visibleRows(repo, ctx, [userId]);
    const [decorated] = await decorateUsers(db, [row]);
    return ok(decorated);
  });
}
