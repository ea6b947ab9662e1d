import { describe, expect, it } from 'vitest';
import { worstFirst } from './levels';

describe('worstFirst', () => {
  it('puts items in alarm first, worst level first, and keeps the given order within a level and among the rest', () => {
    const items = [
      { id: 'a', level: null },
      { id: 'b', level: 3 },
      { id: 'c', level: 1 },
      { id: 'd', level: null },
      { id: 'e', level: 3 },
      { id: 'f', level: 9 },
      { id: 'g', level: 1 },
    ];
    expect(worstFirst(items, (i) => i.level).map((i) => i.id)).toEqual(['c', 'g', 'b', 'e', 'a', 'd', 'f']);
    expect(worstFirst([], () => 1)).toEqual([]);
  });
});
