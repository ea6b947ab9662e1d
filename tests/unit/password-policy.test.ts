// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { passwordPolicyError } from '../../server/auth/passwords';

/** Spec §5 "Password": each rule broken on its own, the others kept, and the length bounds exactly. */
describe('the password policy, rule by rule', () => {
  const LENGTH = '密码长度应为6到30位';
  const KINDS = '密码必须包含数字、字母和特殊字符';

  it('accepts a password that keeps every rule, at both length bounds', () => {
    expect(passwordPolicyError('a1!bcd')).toBeUndefined();
    expect(passwordPolicyError(`a1!${'x'.repeat(27)}`)).toBeUndefined();
  });

  it('refuses one character too short or too long, with every kind present', () => {
    expect(passwordPolicyError('a1!bc')).toBe(LENGTH);
    expect(passwordPolicyError(`a1!${'x'.repeat(28)}`)).toBe(LENGTH);
  });

  it.each([
    ['no digit', 'abc!def'],
    ['no letter', '123!456'],
    ['no special character', 'abc1234'],
  ])('refuses %s alone', (_rule, password) => {
    expect(passwordPolicyError(password)).toBe(KINDS);
  });

  it('counts a space and a Chinese character as special characters, not as letters', () => {
    expect(passwordPolicyError('abc 123')).toBeUndefined();
    expect(passwordPolicyError('abc中123')).toBeUndefined();
    expect(passwordPolicyError('中文!123')).toBe(KINDS);
  });
});
