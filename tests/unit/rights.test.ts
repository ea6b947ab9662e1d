import { describe, expect, it } from 'vitest';
import { covers, type Holdings, needs } from '../../server/auth/rights';

const holding = (codes: string[], more: Partial<Holdings> = {}): Holdings => ({
  codes: new Set(codes),
  dataScopes: new Set(),
  apiScopes: new Set(),
  administrator: false,
  platform: false,
  ...more,
});

describe('whether a caller covers somebody it would manage', () => {
  const clerk = holding(['user', 'user_edit'], { apiScopes: new Set(['s1']) });

  it('covers one holding part of its menus and API scopes, and refuses one holding another', () => {
    expect(covers(clerk, holding(['user']))).toBe(true);
    expect(covers(clerk, holding(['user', 'user_edit'], { apiScopes: new Set(['s1']) }))).toBe(true);
    expect(covers(clerk, holding(['user', 'param']))).toBe(false);
    expect(covers(clerk, holding(['user'], { apiScopes: new Set(['s2']) }))).toBe(false);
  });

  it('leaves administrators to administrators, whatever they were granted, and the platform to its own', () => {
    expect(covers(clerk, holding([], { administrator: true }))).toBe(false);
    expect(covers(holding([], { administrator: true }), holding(['user', 'param'], { apiScopes: new Set(['s2']) }))).toBe(true);
    expect(covers(holding([], { administrator: true }), holding([], { administrator: true, platform: true }))).toBe(false);
    expect(covers(holding([], { administrator: true, platform: true }), holding([], { administrator: true, platform: true }))).toBe(true);
  });
});

describe('declared rights', () => {
  it('takes at least one menu or button code', () => {
    expect(needs('user', 'user_edit').config.right).toEqual({ kind: 'menu', codes: ['user', 'user_edit'] });
    expect(() => needs()).toThrow('needs() takes at least one menu or button code');
  });
});
