import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Alarm levels as the wall screen names and colours them (dictionary alarm_level: 1 red … 4 blue). */
export const LEVEL_NAMES: Readonly<Record<number, MessageDescriptor>> = {
  1: msg`红色`,
  2: msg`橙色`,
  3: msg`黄色`,
  4: msg`蓝色`,
};

export const LEVELS = [1, 2, 3, 4] as const;

/** The CSS class of a level (`is-level-1` …), of a normal point, or of one whose devices are offline. */
export function statusClass(level: number | null, online = true): string {
  if (level !== null && level >= 1 && level <= 4) return `is-level-${level}`;
  return online ? 'is-normal' : 'is-offline';
}

/**
 * Items in alarm first, worst level first, then the others, each group in its given order: one pass into a bucket per
 * level (a project of 20,000 channels is ordered again on every snapshot, where a sort cost tens of milliseconds).
 */
export function worstFirst<T>(items: Iterable<T>, level: (item: T) => number | null): T[] {
  const buckets: T[][] = [[], [], [], [], []];
  for (const item of items) {
    const l = level(item);
    buckets[l !== null && l >= 1 && l <= 4 ? l - 1 : 4].push(item);
  }
  return buckets.flat();
}
