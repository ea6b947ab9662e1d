import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { needsRegistration, registrationProblem } from './registration';

const i18n = setupI18n({ locale: 'zh', messages: { zh: {} } });
const full = { tenantId: '000000', name: '张三', account: 'zhangsan', password: 'a1!aaa', password2: 'a1!aaa' };

describe('registration', () => {
  it('checks tenant, account, both passwords and their equality, in that order', () => {
    const problem = (extra: object) => registrationProblem({ ...full, ...extra }, i18n);
    expect(problem({ tenantId: '', account: '', password: '' })).toBe('请先输入租户编号');
    expect(problem({ account: ' ', password: '' })).toBe('请先输入账号名称');
    expect(problem({ password2: '' })).toBe('请先输入密码');
    expect(problem({ password2: 'other' })).toBe('两次密码输入不一致');
    expect(problem({})).toBeUndefined();
  });

  it('is needed only when user_id is empty or negative', () => {
    expect(needsRegistration('')).toBe(true);
    expect(needsRegistration('-1')).toBe(true);
    expect(needsRegistration('1123598821738675201')).toBe(false);
  });
});
