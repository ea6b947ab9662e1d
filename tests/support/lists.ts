import { expect } from 'vitest';

/**
 * Asserts that `list` holds items — exactly `count` when given — and that `check` holds for each: a bare
 * `expect(list.every(…)).toBe(true)` passes on an empty list, so a query that stopped returning rows went unseen.
 * The items failing the check are shown, not just `false`.
 */
export function expectEvery<T>(list: readonly T[], check: (item: T) => unknown, what = 'list', count?: number): void {
  if (count === undefined) expect(list.length, `${what}: expected at least one item`).toBeGreaterThan(0);
  else expect(list, `${what}: expected ${count} items`).toHaveLength(count);
  expect(list.filter((item) => !check(item)), `${what}: items failing the check`).toEqual([]);
}
