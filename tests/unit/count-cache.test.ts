import { describe, expect, it, vi } from 'vitest';
import { CountCache } from '../../server/db/count-cache';

const deferred = () => {
  let resolve!: (n: number) => void;
  const promise = new Promise<number>((r) => (resolve = r));
  return { promise, resolve };
};

describe('list count cache', () => {
  it('shares one count between concurrent misses', async () => {
    const cache = new CountCache();
    const d = deferred();
    const load = vi.fn(() => d.promise);
    const both = Promise.all([cache.get('q', load), cache.get('q', load)]);
    d.resolve(7);
    expect(await both).toEqual([7, 7]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('serves an expired total while counting again in the background', async () => {
    vi.useFakeTimers();
    try {
      const cache = new CountCache(1000);
      expect(await cache.get('q', async () => 1)).toBe(1);
      vi.advanceTimersByTime(1500);
      const next = deferred();
      const load = vi.fn(() => next.promise);
      expect(await cache.get('q', load)).toBe(1); // stale, without waiting
      expect(await cache.get('q', load)).toBe(1);
      expect(load).toHaveBeenCalledTimes(1);
      next.resolve(2);
      await next.promise;
      await Promise.resolve();
      expect(await cache.get('q', async () => 99)).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets everything on clear, including a count under way', async () => {
    const cache = new CountCache();
    const d = deferred();
    const first = cache.get('q', () => d.promise);
    cache.clear();
    d.resolve(5);
    expect(await first).toBe(5);
    expect(await cache.get('q', async () => 6)).toBe(6);
  });
});
