import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BoardData, DayCount, LevelCounts, NamedCount, OnlineSample } from '../../../resources/wire/statistics';
import { ALARM_LEVELS, LEVEL_COLOURS, LEVEL_NAMES } from '../alarm/levels';

/**
 * ECharts options of the data board's panels (docs/console-screens.md "Home and data board"), pure so they can be
 * checked without a canvas. Charts have no animation (a live refresh redraws them) and a transparent background
 * (the card's, light or dark).
 */

const PRIMARY = '#409eff';
const BASE = { animation: false, backgroundColor: 'transparent' } as const;
const GRID = { left: 48, right: 24, top: 36, bottom: 32, containLabel: true } as const;

/** A sample's time (yyyy-MM-dd HH:mm:ss, the server's local time) as epoch ms in the browser's time zone. */
export const instantOf = (at: string): number => new Date(at.replace(' ', 'T')).getTime();

/** The share of devices online over the range, in percent; the tooltip says how many of how many. */
export function onlineOption(samples: readonly OnlineSample[], i18n: I18n) {
  const byTime = new Map(samples.map((s) => [instantOf(s.at), s]));
  return {
    ...BASE,
    grid: GRID,
    tooltip: {
      trigger: 'axis',
      formatter: (params: Array<{ value: [number, number] }>) => {
        const sample = byTime.get(params[0]?.value[0]);
        if (!sample) return '';
        return `${sample.at}<br/>${i18n._(msg`在线率`)}: ${Math.round(sample.rate * 1000) / 10}%<br/>${i18n._(msg`在线 ${sample.online} / 共 ${sample.devices}`)}`;
      },
    },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        name: i18n._(msg`在线率`),
        type: 'line',
        showSymbol: samples.length < 60,
        areaStyle: { opacity: 0.15 },
        color: '#67c23a',
        data: samples.map((s) => [instantOf(s.at), Math.round(s.rate * 1000) / 10]),
      },
    ],
  };
}

/** Alarms raised per day, one stacked bar per day, a series per level in its colour (red at the bottom). */
export function alarmsPerDayOption(days: ReadonlyArray<{ day: string; levels: LevelCounts }>, i18n: I18n) {
  return {
    ...BASE,
    grid: GRID,
    legend: { top: 0 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: ALARM_LEVELS.map((level) => ({
      name: i18n._(LEVEL_NAMES[level]),
      type: 'bar',
      stack: 'levels',
      color: LEVEL_COLOURS[level],
      data: days.map((d) => d.levels[String(level) as keyof LevelCounts]),
    })),
  };
}

/** Named counts as horizontal bars, the largest on top (at most `limit`). */
export function rankedOption(items: readonly NamedCount[], name: string, colour = PRIMARY, limit = 10) {
  // The category axis draws its first item at the bottom: the largest goes last.
  const shown = items.slice(0, limit).reverse();
  return {
    ...BASE,
    grid: { ...GRID, top: 12, left: 8 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: shown.map((item) => item.name), axisLabel: { width: 120, overflow: 'truncate' } },
    series: [{ name, type: 'bar', color: colour, barMaxWidth: 22, data: shown.map((item) => item.count) }],
  };
}

/** The item of a ranked chart a click's data index names (the chart draws them reversed). */
export const rankedItemAt = <T>(items: readonly T[], dataIndex: number, limit = 10): T | undefined => {
  const shown = Math.min(limit, items.length);
  return items[shown - 1 - dataIndex];
};

/** Data points stored per day. */
export function pointsPerDayOption(days: readonly DayCount[], i18n: I18n) {
  return {
    ...BASE,
    grid: GRID,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: i18n._(msg`数据点`), type: 'bar', color: PRIMARY, data: days.map((d) => d.count) }],
  };
}

/** Whether a panel has anything to draw (an empty chart says so instead of drawing bare axes). */
export const boardHas = {
  online: (board: BoardData) => board.online.length > 0,
  alarmsPerDay: (board: BoardData) => board.alarmsPerDay.some((d) => ALARM_LEVELS.some((level) => d.levels[String(level) as keyof LevelCounts] > 0)),
  pointsPerDay: (board: BoardData) => board.pointsPerDay.some((d) => d.count > 0),
};
