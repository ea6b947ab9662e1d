import { describe, expect, it } from 'vitest';
import { guard, type GuardInput } from './guard';

const base: GuardInput = { path: '/info/index', query: {}, meta: {}, label: '个人信息', hasToken: true, hasSession: true, locked: false };
const at = (extra: Partial<GuardInput>) => guard({ ...base, ...extra });

describe('navigation guard', () => {
  it('sends a visitor without a token to /login unless the route is public', () => {
    expect(at({ hasToken: false })).toEqual({ kind: 'redirect', to: '/login' });
    expect(at({ hasToken: false, path: '/login', meta: { isAuth: false } })).toEqual({ kind: 'enter' });
  });

  it('enters a standalone page (the wall screen) as it is: signed in or not, locked or not, never a sign-out', () => {
    const wall: Partial<GuardInput> = { path: '/wall', meta: { isAuth: false, isTab: false, standalone: true } };
    expect(at({ ...wall, hasToken: false })).toEqual({ kind: 'enter' });
    expect(at({ ...wall, locked: true })).toEqual({ kind: 'enter' });
    expect(at({ ...wall, hasSession: false })).toEqual({ kind: 'enter' });
    expect(at({ ...wall, query: { target: '_blank' } })).toEqual({ kind: 'enter' });
  });

  it('sends a logged-in user from /login to /', () => {
    expect(at({ path: '/login', meta: { isAuth: false } })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('redirects everything to /lock while locked', () => {
    expect(at({ locked: true })).toEqual({ kind: 'redirect', to: '/lock' });
    expect(at({ locked: true, path: '/lock', meta: { isTab: false } })).toEqual({ kind: 'enter' });
  });

  it('runs a federated logout when the token store is empty', () => {
    expect(at({ hasSession: false })).toEqual({ kind: 'federatedLogout' });
  });

  it('makes a tab of each visited page unless isTab is false', () => {
    const decision = at({});
    expect(decision).toMatchObject({ kind: 'enter', tab: { label: '个人信息', value: '/info/index' } });
    expect(at({ meta: { isTab: false } })).toEqual({ kind: 'enter' });
  });

  it('lets a query src override the path and a query name the label', () => {
    const decision = at({ path: '/myiframe/urlPath', query: { src: 'https://x.cn/a.html', name: '帮助' } });
    expect(decision).toMatchObject({ kind: 'enter', tab: { label: '帮助', value: 'https://x.cn/a.html' } });
  });

  it('opens a query target in a new window', () => {
    expect(at({ path: '/myiframe/urlPath', query: { src: 'https://x.cn', target: '_blank' } })).toEqual({ kind: 'openWindow', url: 'https://x.cn' });
  });

  it('opens the page itself without its target, so the new window does not open another', () => {
    expect(at({ path: '/system/param', query: { target: '_blank', a: '1' } })).toEqual({ kind: 'openWindow', url: '/system/param?a=1' });
    expect(at({ path: '/system/param', query: { target: '_blank' } })).toEqual({ kind: 'openWindow', url: '/system/param' });
  });

  it('keeps the query in the tab value', () => {
    expect(at({ query: { a: '1' } })).toMatchObject({ tab: { value: '/info/index?a=1' } });
    expect(at({ query: { a: '1' } })).not.toHaveProperty('tab.key');
  });

  it('keys the tab without the view state in its query', () => {
    const meta = { viewQuery: ['range', 'start', 'end'] };
    expect(at({ path: '/xinde/device/history', meta, query: { id: '7', range: '1h' } })).toMatchObject({ tab: { value: '/xinde/device/history?id=7&range=1h', key: '/xinde/device/history?id=7' } });
  });
});
