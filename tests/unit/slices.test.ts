import { describe, expect, it } from 'vitest';
import { IN_LIST, slices } from '../../server/db/slices';

describe('slices', () => {
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('splits values into full slices and a shorter last one, in order', () => {
    expect(slices(numbers(7), 3)).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(slices(numbers(2), 3)).toEqual([[0, 1]]);
    expect(slices(numbers(3), 1)).toEqual([[0], [1], [2]]);
  });

  it('ends with a full slice when the values fill them exactly: no empty slice after it', () => {
    expect(slices(numbers(6), 3)).toEqual([[0, 1, 2], [3, 4, 5]]);
    expect(slices(numbers(3), 3)).toEqual([[0, 1, 2]]);
  });

  it('gives no slice for no values', () => {
    expect(slices([], 3)).toEqual([]);
  });

  it('slices 500 values at a time by default', () => {
    expect(IN_LIST).toBe(500);
    expect(slices(numbers(1001)).map((s) => s.length)).toEqual([500, 500, 1]);
  });

  it('refuses a size that would never end or split nothing', () => {
    for (const size of [0, -1, 1.5, Number.NaN]) expect(() => slices(numbers(3), size), String(size)).toThrow(RangeError);
  });
});
