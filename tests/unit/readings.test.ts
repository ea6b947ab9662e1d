import { describe, expect, it } from 'vitest';
import { displayUnit, formatReading, formatValue } from '../../resources/readings';

describe('readings as shown', () => {
  it('rounds to the point precision, or cuts float noise at six significant digits', () => {
    expect(formatValue(0.36434999999999995, 3)).toBe('0.364');
    expect(formatValue(2, 2)).toBe('2.00');
    expect(formatValue(0.36434999999999995)).toBe('0.36435');
    expect(formatValue(0.1 + 0.2)).toBe('0.3');
    expect(formatValue(0.0000123456789)).toBe('0.0000123457');
    expect(formatValue(123456.789)).toBe('123457');
    expect(formatValue(null)).toBe('—');
    expect(formatValue(Number.NaN, 2)).toBe('—');
  });

  it('writes the unit with glyphs every font has, and no unit on a missing value', () => {
    expect(displayUnit('℃')).toBe('°C');
    expect(displayUnit('mm/d')).toBe('mm/d');
    expect(formatReading(21.456, 1, '℃')).toBe('21.5 °C');
    expect(formatReading(0.36434999999999995, null, 'mm')).toBe('0.36435 mm');
    expect(formatReading(undefined, 2, 'mm')).toBe('—');
    expect(formatReading(3, 0, null)).toBe('3');
  });
});
