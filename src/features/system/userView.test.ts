import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../../resources/system/user';
import { activate } from '../../app/i18n';
import { fieldProblem } from '../../crud/validation';
import { userView } from './userView';

const view = (platformAdmin = false) => userView({ platformAdmin, approve: () => undefined, platform: () => undefined });
const field = (name: string) => {
  const found = view().fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

describe('user form rules (spec §5)', () => {
  beforeAll(() => activate('zh'));

  it('asks for a password on add only, with the password policy', () => {
    const password = field('password');
    expect(typeof password.hideInForm === 'function' && [password.hideInForm('add'), password.hideInForm('edit')]).toEqual([false, true]);
    expect(fieldProblem(user, password, '', i18n)).toBe('请输入密码');
    expect(fieldProblem(user, password, 'abcdef', i18n)).toBe('密码长度为6-30位,且须包含数字、字母和特殊字符');
    expect(fieldProblem(user, password, 'Abc@12', i18n)).toBeUndefined();
  });

  it('checks a given phone with the spec messages and accepts none', () => {
    const phone = field('phone');
    expect(fieldProblem(user, phone, '', i18n)).toBeUndefined();
    expect(fieldProblem(user, phone, '1380013800', i18n)).toBe('手机号码长度不为11位');
    expect(fieldProblem(user, phone, '12800138000', i18n)).toBe('手机号码格式不正确');
    expect(fieldProblem(user, phone, '13800138000', i18n)).toBeUndefined();
  });

  it('shows the tenant column to the platform administrator only', () => {
    expect(view(true).fields.some((f) => f.name === 'tenantId')).toBe(true);
    expect(view(false).fields.some((f) => f.name === 'tenantId')).toBe(false);
  });
});
