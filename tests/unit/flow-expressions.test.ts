// @vitest-environment node
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: model expressions are written ${…}, not templates
import { describe, expect, it } from 'vitest';
import { evaluate, expressionError, isDirectoryRef } from '../../server/flow/expressions';

describe('workflow expressions', () => {
  it('evaluates the JUEL that models write, over the variables only', () => {
    const vars = { pass: true, days: 5, user: { dept: 'd1' } };
    expect(evaluate('${pass}', vars)).toBe(true);
    expect(evaluate('${!pass}', vars)).toBe(false);
    expect(evaluate('${pass && days > 3}', vars)).toBe(true);
    expect(evaluate('${pass && days <= 3}', vars)).toBe(false);
    expect(evaluate('${days eq 5}', vars)).toBe(true);
    expect(evaluate('${user.dept}', vars)).toBe('d1');
    expect(evaluate('${days > 3 ? "long" : "short"}', vars)).toBe('long');
    // Unknown variables are undefined, so a condition on them is false, as in JUEL.
    expect(evaluate('${missing}', vars)).toBeUndefined();
    expect(evaluate('plain text', vars)).toBe('plain text');
  });

  it('reaches nothing but the variables: no prototype, no global, no call', () => {
    expect(evaluate('${process}', {})).toBeUndefined();
    expect(evaluate('${global}', {})).toBeUndefined();
    expect(() => evaluate('${constructor}', {})).toThrow();
    expect(() => evaluate('${require("fs")}', {})).toThrow('Jexl Function require is not defined');
    // A value's constructor can be named but never called: only the directory functions are.
    expect(() => evaluate('${a["constructor"]("return process")}', { a: {} })).toThrow();
    expect(expressionError('${a["constructor"]["constructor"]("return process")()}')).toBeDefined();
  });

  it('names people through directory functions, resolved later', () => {
    const ref = evaluate('${deptHead(applyUser)}', { applyUser: '42' });
    expect(isDirectoryRef(ref) && ref).toEqual({ directory: 'deptHead', arg: '42' });
  });

  it('tells the model author what is wrong with an expression', () => {
    expect(expressionError('${pass}')).toBeUndefined();
    expect(expressionError('${pass &&}')).toMatch(/^表达式 \$\{pass &&\} 无法解析/);
    expect(expressionError('pass')).toMatch(/^表达式应写作/);
  });
});
