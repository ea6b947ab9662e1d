import { z } from 'zod';
import { defineResource } from '../define';
import { datetime, idList, int, required, text } from '../fields';

/** Spec §5 "Phone": 11 digits, 1 then 3–9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;

export const PHONE_MESSAGES = {
  empty: '手机号码不能为空',
  length: '手机号码长度不为11位',
  pattern: '手机号码格式不正确',
} as const;

/**
 * The spec §5 phone rule, in its message order. The console's profile form requires a phone (`required`); the
 * server accepts an empty one and checks only what is given.
 */
export function phoneError(phone: string | null | undefined, required = true): string | undefined {
  const value = (phone ?? '').trim();
  if (value === '') return required ? PHONE_MESSAGES.empty : undefined;
  if (value.length !== 11) return PHONE_MESSAGES.length;
  if (!PHONE_PATTERN.test(value)) return PHONE_MESSAGES.pattern;
  return undefined;
}

/** An optional phone: empty becomes null, anything else must pass the phone rule. */
export const phone = () =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const message = phoneError(value, false);
      if (message) ctx.addIssue({ code: 'custom', message });
    })
    .transform((value) => (value === '' ? null : value))
    .nullish();

/** An optional e-mail address: empty becomes null. */
export const email = () =>
  z
    .string()
    .trim()
    .max(100, '长度不能超过100个字符')
    .refine((value) => value === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), '邮箱格式不正确')
    .transform((value) => (value === '' ? null : value))
    .nullish();

/** Letters, digits and `_ . @ -`: an account is typed at sign-in, so no spaces or look-alike characters. */
export const account = () => required('请输入登录账号', 45).regex(/^[A-Za-z0-9_.@-]+$/, '账号只能包含字母、数字和 _ . @ -');

/** The profile a user edits about themself (spec §2 "Profile form", §3 "User profile"). */
export const profileFields = z.object({
  avatar: text(500).nullish(),
  realName: text(64).nullish(),
  name: text(64).nullish(),
  phone: phone(),
  email: email(),
});

/**
 * Users (spec §7 "Users"). Answers at /blade-user/… (BladeX's user service has no resource segment). The password
 * is write-only: set on insert (hashed by the server), changed only by update-password and reset-password.
 * Submitting `{id, status: 1}` approves a user who registered through a third-party login (status 0, pending).
 */
export const user = defineResource({
  service: 'blade-user',
  name: 'user',
  menu: 'user',
  path: '/blade-user',
  table: 'blade_user',
  tenancy: 'tenant',
  fields: profileFields.extend({
    account: account(),
    password: z.string().optional(),
    code: text(64).nullish(),
    userType: int().nullish(),
    birthday: datetime().nullish(),
    sex: int().nullish(),
    roleId: idList().nullish(),
    deptId: idList().nullish(),
    postId: idList().nullish(),
  }),
  variants: ['page'],
  hidden: ['password'],
  unique: [{ fields: ['account'], message: '当前用户已存在!' }],
  example: { account: 'example_user', password: 'Example@123', name: '示例用户', realName: '示例用户', phone: '13800138000', sex: 1 },
});

/** The platform profile of a user (update-platform / platform-detail): which client it uses and free JSON. */
export const platformFields = z.object({
  userType: int(),
  userExt: z
    .string()
    .max(65535, '长度不能超过65535个字符')
    .refine((value) => {
      if (value.trim() === '') return true;
      try {
        JSON.parse(value);
        return true;
      } catch {
        return false;
      }
    }, '用户拓展信息必须是 JSON')
    .nullish(),
});
