import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { avatarProblem, isHttpUrl, passwordProblem, phoneProblem } from './validation';

const i18n = setupI18n({ locale: 'zh', messages: { zh: {} } });

describe('profile validation', () => {
  it('phone: empty, length, pattern', () => {
    expect(phoneProblem('', i18n)).toBe('手机号码不能为空');
    expect(phoneProblem('1380013800', i18n)).toBe('手机号码长度不为11位');
    expect(phoneProblem('12800138000', i18n)).toBe('手机号码格式不正确');
    expect(phoneProblem('1380013800a', i18n)).toBe('手机号码格式不正确');
    expect(phoneProblem('13800138000', i18n)).toBeUndefined();
  });

  it('password: 6-30 with a digit, a letter and a special character', () => {
    expect(passwordProblem('a1!', i18n)).toMatch(/6-30/);
    expect(passwordProblem('abcdef1', i18n)).toMatch(/6-30/);
    expect(passwordProblem('abcdef!', i18n)).toMatch(/6-30/);
    expect(passwordProblem('123456!', i18n)).toMatch(/6-30/);
    expect(passwordProblem(`a1!${'x'.repeat(28)}`, i18n)).toMatch(/6-30/);
    expect(passwordProblem('abc12!', i18n)).toBeUndefined();
  });

  it('avatar: jpg or png up to 500kb', () => {
    expect(avatarProblem({ type: 'image/gif', size: 10 }, i18n)).toMatch(/JPG\/PNG/);
    expect(avatarProblem({ type: 'image/png', size: 500 * 1024 + 1 }, i18n)).toMatch(/500KB/);
    expect(avatarProblem({ type: 'image/jpeg', size: 500 * 1024 }, i18n)).toBeUndefined();
  });

  it('urls start with http or https', () => {
    expect(isHttpUrl('https://x.cn')).toBe(true);
    expect(isHttpUrl('ftp://x.cn')).toBe(false);
  });
});
