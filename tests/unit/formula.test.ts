import { describe, expect, it } from 'vitest';
import { compileFormula, compileModelFormula, FormulaError } from '../../server/ingest/formula';

const scope = { x: 3, x0: 2, T: 25 };

describe('model formulas', () => {
  it('evaluates arithmetic with precedence, powers and unary minus', () => {
    expect(compileFormula('1 + 2 * 3')(scope)).toBe(7);
    expect(compileFormula('(1 + 2) * 3')(scope)).toBe(9);
    expect(compileFormula('2 ^ 3 ^ 2')(scope)).toBe(512);
    expect(compileFormula('-x ^ 2')(scope)).toBe(-9);
    expect(compileFormula('x ** 2 - x0 ** 2')(scope)).toBe(5);
    expect(compileFormula('1.5e3 / .5')(scope)).toBe(3000);
  });

  it('knows the variables and the math functions', () => {
    expect(compileFormula('0.0035 * (x^2 - x0^2)')(scope)).toBeCloseTo(0.0175);
    expect(compileFormula('max(x, x0, T) + abs(-1) + sqrt(16)')(scope)).toBe(30);
    expect(compileFormula('atan2(1, 1)')(scope)).toBeCloseTo(Math.PI / 4);
    expect(Number.isNaN(compileFormula('x + T')({ ...scope, T: Number.NaN }))).toBe(true);
  });

  it('refuses anything that is not arithmetic', () => {
    for (const bad of ['', 'process.exit()', 'x +', '(x', 'x)', 'y * 2', 'foo(1)', 'x; 1', 'x = 1', '"a"']) {
      expect(() => compileFormula(bad), bad).toThrow(FormulaError);
    }
  });

  it('reads a model formula as nothing, one expression, or expressions by point key', () => {
    expect(compileModelFormula(null)('any')(scope)).toBe(3);
    expect(compileModelFormula('x * 10')('any')(scope)).toBe(30);
    const byKey = compileModelFormula('{"tilt_x": "x * 0.001"}');
    expect(byKey('tilt_x')(scope)).toBeCloseTo(0.003);
    expect(byKey('tilt_y')(scope)).toBe(3);
    expect(() => compileModelFormula('{"a": 1}')).toThrow(FormulaError);
  });
});
