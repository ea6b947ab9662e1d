import { beforeAll, expect, it } from 'vitest';
import { signedIn } from '../../support/client';
import { expectOk, expectRefusedExactly, type PageData, postParams } from '../../support/envelope';
import { createStaff, type Staff } from '../../support/staff';
import { onEveryStore } from '../../support/suite';

/**
 * The password policy (server/auth/passwords.ts, spec §5) where people choose passwords over HTTP: a new user's and
 * one's own new password. Each test password breaks exactly one rule; it is refused with that rule's message and
 * nothing changes. tests/unit/password-policy.test.ts has the rules at their bounds.
 */

const USER = '/api/blade-user';
const LENGTH = '密码长度应为6到30位';
const KINDS = '密码必须包含数字、字母和特殊字符';
const OLD = 'Staff@123';

/** One password per rule, breaking that rule only. */
const BROKEN: ReadonlyArray<[rule: string, password: string, message: string]> = [
  ['too short', 'a1!bc', LENGTH],
  ['too long', `a1!${'x'.repeat(28)}`, LENGTH],
  ['no digit', 'abc!def', KINDS],
  ['no letter', '123!456', KINDS],
  ['no special character', 'abc1234', KINDS],
];

onEveryStore('password rules over HTTP', { signIn: ['demo'] }, (ctx) => {
  let staff: Staff;

  beforeAll(async () => {
    staff = await createStaff(ctx.server, '100001', 'pw_rules');
  });

  it.each(BROKEN)('refuses a new user whose password is %s', async (_rule, password, message) => {
    expectRefusedExactly(await ctx.demo.post(`${USER}/submit`, { account: 'pw_new', name: 'pw_new', realName: 'pw_new', password }), message);
    expect(expectOk(await ctx.demo.get<PageData>(`${USER}/page`, { account: 'pw_new' })).total).toBe(0);
    expect(expectOk(await ctx.demo.get<PageData>(`${USER}/page`, { account: 'pw_rules' })).total).toBe(1); // the filter finds users
  });

  it.each(BROKEN)('refuses changing one’s own password to one %s', async (_rule, password, message) => {
    expectRefusedExactly(await postParams(staff.client, `${USER}/update-password`, { oldPassword: OLD, newPassword: password, newPassword1: password }), message);
    // The old password still signs in.
    await signedIn(ctx.server.url, 'pw_rules', OLD, '100001');
  });

  it('accepts a password keeping every rule, at both length bounds', async () => {
    for (const next of ['a1!bcd', `a1!${'x'.repeat(27)}`]) {
      const current = await signedIn(ctx.server.url, 'pw_rules', next === 'a1!bcd' ? OLD : 'a1!bcd', '100001');
      expectOk(await postParams(current, `${USER}/update-password`, { oldPassword: next === 'a1!bcd' ? OLD : 'a1!bcd', newPassword: next, newPassword1: next }));
      await signedIn(ctx.server.url, 'pw_rules', next, '100001');
    }
  });
});
