import { beforeEach, describe, expect, it } from 'vitest';
import { getRecord, getStore, removeStore, setStore, tokenCookies } from './storage';

describe('storage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('prefixes items with the site key and keeps them locally without a type', () => {
    setStore('theme', 'theme-dark');
    expect(localStorage.getItem('vigil-theme')).toContain('theme-dark');
    expect(getStore('theme')).toBe('theme-dark');
    expect(getRecord('theme')).toMatchObject({ dataType: 'string', content: 'theme-dark' });
  });

  it('uses session storage when a type is given', () => {
    setStore('tabs', [{ value: '/wel/index' }], 'session');
    expect(sessionStorage.getItem('vigil-tabs')).not.toBeNull();
    expect(localStorage.getItem('vigil-tabs')).toBeNull();
    removeStore('tabs');
    expect(getStore('tabs')).toBeUndefined();
  });

  it('keeps tokens in cookies', () => {
    tokenCookies.set('a.b.c', 'r.e.f');
    expect(tokenCookies.access()).toBe('a.b.c');
    expect(tokenCookies.refresh()).toBe('r.e.f');
    tokenCookies.clear();
    expect(tokenCookies.access()).toBeUndefined();
  });
});
