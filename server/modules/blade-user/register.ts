import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { account, user } from '../../../resources/system/user';
import { hashPassword, passwordPolicyError } from '../../auth/passwords';
import { isGuest, type Principal } from '../../auth/principal';
import type { Row } from '../../db/database';
import { Repository, zodMessage } from '../../db/repository';
import { EventBus } from '../../events';
import { text } from '../../http/context';
import { badRequest, forbidden, invalidParam, ok, unauthorized } from '../../http/envelope';
import type { Platform } from '../../platform';
import { assertAccountQuota } from '../blade-system/access/quota';
import { formatDateTime } from '../../time';
import { argsOf } from './args';
import { assertTenantExists } from './tenancy';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

export const REGISTER_MESSAGES = {
  tenant: '请先输入租户编号',
  account: '请先输入账号名称',
  password: '请先输入密码',
  mismatch: '两次密码输入不一致',
  badOauth: '第三方登录信息错误',
  bound: '该第三方账号已绑定用户',
} as const;

interface Registration {
  tenantId: string;
  account: string;
  password: string;
  name?: string;
  oauthId: string;
}

/** The registration form, checked in the order of spec §5 "Registration"; password2 only when it is sent. */
function registrationOf(args: Record<string, unknown>, guest: Principal): Registration {
  const tenantId = text(args, 'tenantId');
  if (!tenantId) throw badRequest(REGISTER_MESSAGES.tenant);
  const accountName = text(args, 'account');
  if (!accountName) throw badRequest(REGISTER_MESSAGES.account);
  const password = typeof args.password === 'string' ? args.password : '';
  const password2 = 'password2' in args ? (typeof args.password2 === 'string' ? args.password2 : '') : password;
  if (!password || !password2) throw badRequest(REGISTER_MESSAGES.password);
  if (password !== password2) throw badRequest(REGISTER_MESSAGES.mismatch);
  const weak = passwordPolicyError(password);
  if (weak) throw badRequest(weak);
  const checked = z.object({ account: account(), name: z.string().trim().max(64, '长度不能超过64个字符').optional() }).safeParse({ account: accountName, name: text(args, 'name') });
  if (!checked.success) throw invalidParam(zodMessage(checked.error));
  const oauthId = text(args, 'oauthId') ?? guest.oauthId;
  if (!oauthId || oauthId !== guest.oauthId) throw badRequest(REGISTER_MESSAGES.badOauth);
  return { tenantId, account: checked.data.account, password, name: checked.data.name, oauthId };
}

function guestOf(request: FastifyRequest): Principal {
  const p = request.principal;
  if (!p) throw unauthorized();
  if (!isGuest(p)) throw forbidden();
  return p;
}

/**
 * Spec §2 "Account registration dialog": a third-party sign-in without a local account (a guest token, user_id -1)
 * creates its user. The user starts pending (status 0: sign-in answers 账号待管理员审核) and without roles until an
 * administrator approves it by submitting `{id, status: 1}` and grants roles. The third-party identity is bound to
 * the new user in the same transaction, so a refused registration leaves nothing behind.
 */
export function registerGuestRegistration(app: FastifyInstance, platform: Platform): void {
  const { db } = platform;
  app.post('/blade-user/register-guest', limited('register', needs.guest), async (request) => {
    const guest = guestOf(request);
    const form = registrationOf(argsOf(request), guest);
    await assertTenantExists(db, form.tenantId);
    const oauth = await db.selectFrom('blade_user_oauth').selectAll().where('id', '=', form.oauthId).where('isDeleted', '=', 0).executeTakeFirst();
    if (!oauth) throw badRequest(REGISTER_MESSAGES.badOauth);
    // An identity bound to a user that was removed since may register again.
    const previous = oauth.userId ? oauth.userId : undefined;
    if (previous && (await db.selectFrom('blade_user').select('id').where('id', '=', previous).where('isDeleted', '=', 0).executeTakeFirst())) {
      throw badRequest(REGISTER_MESSAGES.bound);
    }
    await assertAccountQuota(db, form.tenantId);
    const values: Row = {
      account: form.account,
      password: await hashPassword(form.password),
      name: form.name ?? form.account,
      realName: form.name ?? form.account,
      avatar: oauth.avatar ?? null,
      email: oauth.email ?? null,
      userType: 1,
      status: 0,
    };
    // The new user is written as the guest, into the tenant it registers with, by a repository bound to the
    // transaction; its change is announced once the transaction has committed.
    const ctx = { principal: { ...guest, tenantId: form.tenantId } };
    await db.transaction().execute(async (trx) => {
      const created = await new Repository(user, { ...platform, db: trx, events: new EventBus() }).insert(ctx, values);
      const bound = await trx
        .updateTable('blade_user_oauth')
        .set({ userId: created.id, tenantId: form.tenantId, updateTime: formatDateTime() })
        .where('id', '=', form.oauthId)
        .where((eb) => (previous ? eb('userId', '=', previous) : eb('userId', 'is', null)))
        .executeTakeFirst();
      if (Number(bound.numUpdatedRows) !== 1) throw badRequest(REGISTER_MESSAGES.bound);
    });
    platform.events.emit('changed', 'blade_user');
    return ok(true);
  });
}
