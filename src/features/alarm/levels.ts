import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * Alarm levels (dictionary `alarm_level`, docs/alarms.md): 1 red, the most severe, to 4 blue. Every screen colours
 * them alike: the threshold limits, the notice centre's dots (notice.css), the home and the data board.
 */
export const ALARM_LEVELS = [1, 2, 3, 4] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];

export const LEVEL_COLOURS: Readonly<Record<AlarmLevel, string>> = { 1: '#f56c6c', 2: '#ff9800', 3: '#e6c300', 4: '#409eff' };

/** Level names in the user's language (a message's levelName is the server's Chinese). */
export const LEVEL_NAMES: Readonly<Record<AlarmLevel, MessageDescriptor>> = { 1: msg`红色`, 2: msg`橙色`, 3: msg`黄色`, 4: msg`蓝色` };

export const isAlarmLevel = (level: number): level is AlarmLevel => (ALARM_LEVELS as readonly number[]).includes(level);
