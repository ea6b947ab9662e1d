import type { FastifyInstance } from 'fastify';
import { profileFields, user } from '../../../resources/system/user';
import { hashPassword, passwordPolicyError, verifyPassword } from '../../auth/passwords';
import type { Row } from '../../db/database';
import { type CallContext, zodMessage } from '../../db/repository';
import { contextOf } from '../../http/context';
import { badRequest, invalidParam, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { findUser } from '../blade-auth/login';
import { argsOf } from './args';
import { decorateUsers } from './names';
import { needs } from '../../auth/rights';

const raw = (args: Record<string, unknown>, name: string) => (typeof args[name] === 'string' ? (args[name] as string) : '');

const PROFILE_KEYS = new Set(Object.keys(profileFields.shape));

/**
 * A profile edit names only the safe fields of the caller's own row (never role, dept, tenant, account status): an
 * empty body or another field is refused rather than silently ignored.
 */
function assertProfileOnly(ctx: CallContext, args: Record<string, unknown>): void {
  const { id, ...rest } = args;
  if (id !== undefined && id !== null && id !== '' && String(id) !== ctx.principal.userId) throw badRequest('只能修改本人的资料');
  const other = Object.keys(rest).filter((key) => !PROFILE_KEYS.has(key));
  if (other.length) throw invalidParam(`不能修改的字段: ${other.join(', ')}`);
  if (Object.keys(rest).length === 0) throw badRequest('请填写要修改的资料');
}

/**
 * The caller's own account: read, profile edit and password change. These work on the caller's own row whatever
 * its data scope says (a scope of "own rows" would otherwise hide the row an administrator created for them).
 */
export function registerSelfService(app: FastifyInstance, platform: Platform): void {
  const base = '/blade-user';
  const repo = platform.repo(user);

  const ownRow = async (ctx: CallContext) => {
    const row = await findUser(platform.db, ctx.principal.tenantId, { id: ctx.principal.userId });
    if (!row) throw badRequest('用户不存在');
    return row;
  };

  const updateOwnRow = async (ctx: CallContext, changes: Row) => {
    await platform.db
      .updateTable('blade_user')
      .set({ ...changes, updateUser: ctx.principal.userId, updateTime: formatDateTime() })
      .where('id', '=', ctx.principal.userId)
      .where('tenantId', '=', ctx.principal.tenantId)
      .where('isDeleted', '=', 0)
      .execute();
    platform.events.emit('changed', 'blade_user');
  };

  app.get(`${base}/info`, needs.self, async (request) => {
    const row = await ownRow(contextOf(request));
    const [decorated] = await decorateUsers(platform.db, [repo.present({ ...row })]);
    return ok(decorated);
  });

  /** Spec §2 "Profile form": avatar, real name, name, phone, email. A given phone must be valid (spec §5). */
  app.post(`${base}/update-info`, needs.self, async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    assertProfileOnly(ctx, args);
    const parsed = profileFields.safeParse(args);
    if (!parsed.success) throw invalidParam(zodMessage(parsed.error));
    await ownRow(ctx);
    await updateOwnRow(ctx, parsed.data);
    return ok(true);
  });

  app.post(`${base}/update-password`, needs.self, async (request) => {
    const ctx = contextOf(request);
    const args = argsOf(request);
    const [oldPassword, newPassword, confirmation] = ['oldPassword', 'newPassword', 'newPassword1'].map((name) => raw(args, name));
    if (!oldPassword) throw badRequest('请输入原密码');
    if (!newPassword) throw badRequest('请输入新密码');
    if (newPassword !== confirmation) throw badRequest('两次密码输入不一致');
    const weak = passwordPolicyError(newPassword);
    if (weak) throw badRequest(weak);
    const row = await ownRow(ctx);
    if (!(await verifyPassword(oldPassword, row.password))) throw badRequest('原密码不正确');
    await updateOwnRow(ctx, { password: await hashPassword(newPassword) });
    return ok(true);
  });
}
