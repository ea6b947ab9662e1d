import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

export interface RegistrationForm {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  password2: string;
}

/** Spec §5 checks in order; the first failure's message, or undefined when the form may be sent. */
export function registrationProblem(form: RegistrationForm, i18n: I18n): string | undefined {
  if (!form.tenantId.trim()) return i18n._(msg`请先输入租户编号`);
  if (!form.account.trim()) return i18n._(msg`请先输入账号名称`);
  if (!form.password || !form.password2) return i18n._(msg`请先输入密码`);
  if (form.password !== form.password2) return i18n._(msg`两次密码输入不一致`);
  return undefined;
}

/** The registration dialog appears only for a third-party login without a local account. */
export const needsRegistration = (userId: string | undefined): boolean => !userId || Number(userId) < 0;
