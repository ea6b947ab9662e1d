import { describe, expect, it } from 'vitest';
import { MENUS, type MenuSeed } from '../../server/db/seed/menus';
import { hasIcon } from './icons';

const iconsOf = (menus: readonly MenuSeed[]): string[] => menus.flatMap((m) => [...(m.source ? [m.source] : []), ...iconsOf(m.children ?? [])]);

describe('menu icons', () => {
  it('every seeded menu has an icon the console bundles, and leaves do not all share one', () => {
    const leaves = MENUS.flatMap((group) => group.children ?? []);
    expect(leaves.filter((leaf) => !leaf.source).map((leaf) => leaf.code)).toEqual([]);
    expect(iconsOf(MENUS).filter((icon) => !hasIcon(icon))).toEqual([]);
    expect(new Set(leaves.map((leaf) => leaf.source)).size).toBeGreaterThan(leaves.length / 2);
  });
});
