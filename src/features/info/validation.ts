import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Spec §5 phone rule: 11 digits, 1 then 3-9. */
export function phoneProblem(phone: string, i18n: I18n): string | undefined {
  if (!phone) return i18n._(msg`手机号码不能为空`);
  if (phone.length !== 11) return i18n._(msg`手机号码长度不为11位`);
  if (!/^1[3-9]\d{9}$/.test(phone)) return i18n._(msg`手机号码格式不正确`);
  return undefined;
}

/** Spec §5 password policy: 6-30 characters with a digit, a letter and a special character. */
export function passwordProblem(password: string, i18n: I18n): string | undefined {
  if (!password) return i18n._(msg`请输入新密码`);
  const ok = password.length >= 6 && password.length <= 30 && /\d/.test(password) && /[A-Za-z]/.test(password) && /[^A-Za-z0-9]/.test(password);
  return ok ? undefined : i18n._(msg`密码长度为6-30位,且须包含数字、字母和特殊字符`);
}

export const AVATAR_MAX_BYTES = 500 * 1024;

/** Spec §5 avatar rule: jpg or png only, at most 500kb. */
export function avatarProblem(file: { type: string; size: number }, i18n: I18n): string | undefined {
  if (file.type !== 'image/jpeg' && file.type !== 'image/png') return i18n._(msg`上传头像图片只能是 JPG/PNG 格式!`);
  if (file.size > AVATAR_MAX_BYTES) return i18n._(msg`上传头像图片大小不能超过 500KB!`);
  return undefined;
}

/** Spec §5 URL rule. */
export const isHttpUrl = (value: string): boolean => /^https?:\/\//i.test(value);
