import { describe, expect, it } from 'vitest';
import { type Mark, waves } from '../../server/series/rollups';

const mark = (deviceId: string, hour: number): Mark => ({ deviceId, hour });

/** The hours PostgreSQL recomputes side by side (server/series/rollups.ts): never two of one device at once. */
describe('rollup waves', () => {
  it('keeps the order, at most `lanes` a wave, and starts a new wave before a device already in it', () => {
    const marks = [mark('a', 1), mark('b', 1), mark('c', 1), mark('a', 2), mark('d', 1), mark('e', 1), mark('f', 1), mark('g', 1)];
    expect(waves(marks, 4)).toEqual([[mark('a', 1), mark('b', 1), mark('c', 1)], [mark('a', 2), mark('d', 1), mark('e', 1), mark('f', 1)], [mark('g', 1)]]);
  });

  it('is one hour at a time with one lane, and nothing for no marks', () => {
    expect(waves([mark('a', 1), mark('b', 1)], 1)).toEqual([[mark('a', 1)], [mark('b', 1)]]);
    expect(waves([], 4)).toEqual([]);
  });
});
