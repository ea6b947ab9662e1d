import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { formatDateTime } from '../../../resources/datetime';
import type { Days } from './links';

/**
 * The data board's time range: the last 7, 30 (the default, as the server's) or 90 days ending today, or two days
 * typed. Days are whole: the server counts a date given alone to the end of that day.
 */
export const RANGE_PRESETS = [7, 30, 90] as const;
export type Preset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: Preset = 30;

/** The server refuses a range longer than a year (366 days, a leap year's). */
export const MAX_DAYS = 366;

export type RangeChoice = { kind: 'preset'; days: Preset } | { kind: 'custom'; days: Days };

const dayOf = (date: Date) => formatDateTime(date).slice(0, 10);

/** The days a choice covers, today being `now`'s local date. */
export function daysOf(choice: RangeChoice, now: Date = new Date()): Days {
  if (choice.kind === 'custom') return choice.days;
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (choice.days - 1));
  return { from: dayOf(from), to: dayOf(now) };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A typed yyyy-MM-dd as a local midnight, or undefined when it is no real day (2026-02-30). */
function parseDay(text: string): Date | undefined {
  const match = DAY.exec(text.trim());
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return dayOf(date) === text.trim() ? date : undefined;
}

/** Two typed days checked before they apply: real days, the first not after the second, at most MAX_DAYS. */
export function checkDays(from: string, to: string): { days: Days } | { problem: MessageDescriptor } {
  const [start, end] = [parseDay(from), parseDay(to)];
  if (!start || !end) return { problem: msg`请输入日期 yyyy-MM-dd` };
  if (start > end) return { problem: msg`开始日期不能晚于结束日期` };
  // Calendar days, rounded: a daylight-saving change makes a day 23 or 25 hours long.
  const span = Math.round((end.getTime() - start.getTime()) / 86_400_000) + 1;
  if (span > MAX_DAYS) return { problem: msg`统计时间范围不能超过一年` };
  return { days: { from: from.trim(), to: to.trim() } };
}
