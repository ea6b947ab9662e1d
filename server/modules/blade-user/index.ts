import type { FastifyInstance } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import { user } from '../../../resources/system/user';
import { ESCALATION, EscalationGuard } from '../../auth/escalation';
import { hashPassword, passwordPolicyError } from '../../auth/passwords';
import { accountKey } from '../../auth/sign-in-guard';
import type { Row } from '../../db/database';
import type { CallContext } from '../../db/repository';
import type { Condition, Query } from '../../http/conditions';
import { text } from '../../http/context';
import { type CrudHooks, registerCrud } from '../../http/crud';
import { badRequest, forbidden, paramType } from '../../http/envelope';
import type { Platform } from '../../platform';
import { assertAccountQuota } from '../blade-system/access/quota';
import { registerUserAdministration } from './admin';
import { decorateUsers } from './names';
import { registerGuestRegistration } from './register';
import { registerSelfService } from './self';
import { assertOwnedByTenant, assertTenantExists, tenantOfWrite } from './tenancy';

/** Users whose dept list names the dept or one of its descendants (blade_dept.ancestors holds the path). */
export function inDeptTree(deptId: string): Condition {
  return () => sql<SqlBool>`exists (
    select 1 from blade_dept d
    where d.is_deleted = 0
      and (d.id = ${deptId} or ',' || d.ancestors || ',' like ${`%,${deptId},%`})
      and ',' || blade_user.dept_id || ',' like '%,' || d.id || ',%')`;
}

function deptFilter(query: Query): { query: Query; extra: Condition[] } {
  const deptId = text(query, 'deptId');
  if (!deptId) return { query, extra: [] };
  if (!/^\d{1,20}$/.test(deptId)) throw paramType('deptId');
  const { deptId: _dept, ...rest } = query;
  return { query: rest, extra: [inDeptTree(deptId)] };
}

/** A new user: password required, checked against the policy and hashed; the tenant must have room. */
async function prepareInsert(platform: Platform, ctx: CallContext, values: Row): Promise<Row> {
  const tenantId = tenantOfWrite(ctx, values);
  await new EscalationGuard(platform).assertAssignable(ctx.principal, tenantId, values.roleId);
  const password = typeof values.password === 'string' ? values.password : '';
  if (password === '') throw badRequest('请输入密码');
  const weak = passwordPolicyError(password);
  if (weak) throw badRequest(weak);
  if (tenantId !== ctx.principal.tenantId) await assertTenantExists(platform.db, tenantId);
  await assertAccountQuota(platform.db, tenantId);
  await assertOwnedByTenant(platform.db, tenantId, values);
  return { ...values, userType: values.userType ?? 1, password: await hashPassword(password) };
}

const changed = (changes: Row, existing: Row, field: string) => changes[field] !== undefined && String(changes[field] ?? '') !== String(existing[field] ?? '');

/**
 * An edited user keeps its tenant and its password (changed only by update-password / reset-password). Setting
 * status 1 approves a pending self-registered user; nobody can disable their own account, change their own roles or
 * depts, edit a user with more rights than their own, or give roles beyond their own rights.
 */
async function prepareUpdate(platform: Platform, ctx: CallContext, values: Row, existing: Row): Promise<Row> {
  const { password: _password, ...changes } = values;
  if (changes.tenantId !== undefined && changes.tenantId !== existing.tenantId) throw badRequest('不能修改用户所属租户');
  if (existing.id === ctx.principal.userId && changes.status !== undefined && changes.status !== 1) throw badRequest('不能停用本账号!');
  if (existing.id === ctx.principal.userId && (changed(changes, existing, 'roleId') || changed(changes, existing, 'deptId'))) {
    throw forbidden(ESCALATION.ownAccount);
  }
  const guard = new EscalationGuard(platform);
  await guard.assertCoversUsers(ctx.principal, [existing]);
  if (changed(changes, existing, 'roleId')) await guard.assertAssignable(ctx.principal, String(existing.tenantId), changes.roleId);
  await assertOwnedByTenant(platform.db, String(existing.tenantId), changes);
  return changes;
}

/** `locked` (some address is locked out) and `captchaRequired`, for the 锁定 tag of the user list. */
async function withLockFlags(platform: Platform, rows: Row[]): Promise<Row[]> {
  const locks = await platform.signIn.locksOf(rows.map((r) => ({ tenantId: r.tenantId, account: r.account })));
  return rows.map((row) => {
    const found = locks.get(accountKey(row.tenantId, row.account));
    return { ...row, locked: (found?.locks.length ?? 0) > 0, captchaRequired: found?.captchaRequired ?? false };
  });
}

function userHooks(platform: Platform): CrudHooks {
  return {
    listQuery: (_ctx, query) => deptFilter(query),
    beforeSave: (ctx, values, existing) => (existing ? prepareUpdate(platform, ctx, values, existing) : prepareInsert(platform, ctx, values)),
    beforeRemove: async (ctx, ids) => {
      if (ids.includes(ctx.principal.userId)) throw badRequest('不能删除本账号!');
      await new EscalationGuard(platform).assertCoversUsers(ctx.principal, await platform.repo(user).all(ctx, {}, [(eb) => eb('id', 'in', ids)]));
    },
    decorate: async (_ctx, rows) => withLockFlags(platform, await decorateUsers(platform.db, rows)),
  };
}

/**
 * /blade-user (spec §7 "Users"): the generic page/list/detail/submit/update/remove of users, the caller's own
 * profile and password, the administrator's calls on accounts, and third-party self-registration.
 */
export function registerUser(app: FastifyInstance, platform: Platform): void {
  registerCrud(app, platform, user, userHooks(platform));
  registerSelfService(app, platform);
  registerUserAdministration(app, platform);
  registerGuestRegistration(app, platform);
}
