import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import type { BoardData, LevelCounts } from '../../../resources/wire/statistics';
import { alarmsPerDayOption, boardHas, instantOf, onlineOption, pointsPerDayOption, rankedItemAt, rankedOption } from './boardOptions';

// The source catalog: labels are the Chinese source texts.
const i18n = setupI18n({ locale: 'zh', messages: { zh: {} } });
const levels = (red: number, orange: number, yellow: number, blue: number): LevelCounts => ({ 1: red, 2: orange, 3: yellow, 4: blue });

describe('board options', () => {
  it('stacks alarms per day by level, red at the bottom, each level in its colour', () => {
    const option = alarmsPerDayOption([{ day: '2026-03-01', levels: levels(1, 0, 2, 3) }, { day: '2026-03-02', levels: levels(0, 4, 0, 0) }], i18n);
    expect(option.xAxis.data).toEqual(['03-01', '03-02']);
    expect(option.series.map((s) => [s.name, s.color, s.stack, s.data])).toEqual([
      ['红色', '#f56c6c', 'levels', [1, 0]],
      ['橙色', '#ff9800', 'levels', [0, 4]],
      ['黄色', '#e6c300', 'levels', [2, 0]],
      ['蓝色', '#409eff', 'levels', [3, 0]],
    ]);
  });

  it('ranks named counts largest on top, and maps a clicked bar back to its item', () => {
    const items = [
      { id: 'a', name: '大桥', count: 9 },
      { id: 'b', name: '隧道', count: 5 },
      { id: 'c', name: '边坡', count: 1 },
    ];
    const option = rankedOption(items, '告警', '#f56c6c', 2);
    // The category axis draws from the bottom: the largest is last.
    expect(option.yAxis.data).toEqual(['隧道', '大桥']);
    expect(option.series[0].data).toEqual([5, 9]);
    expect(rankedItemAt(items, 1, 2)?.id).toBe('a');
    expect(rankedItemAt(items, 0, 2)?.id).toBe('b');
    expect(rankedItemAt(items, 0)?.id).toBe('c');
    expect(rankedItemAt(items, 3)).toBeUndefined();
  });

  it('draws the online rate in percent on a time axis, and says how many of how many', () => {
    const samples = [
      { at: '2026-03-01 10:00:00', devices: 8, online: 6, rate: 0.75 },
      { at: '2026-03-01 11:00:00', devices: 8, online: 7, rate: 0.875 },
    ];
    const option = onlineOption(samples, i18n);
    expect(option.series[0].data).toEqual([
      [new Date(2026, 2, 1, 10).getTime(), 75],
      [new Date(2026, 2, 1, 11).getTime(), 87.5],
    ]);
    expect(option.yAxis).toMatchObject({ min: 0, max: 100 });
    const tip = option.tooltip.formatter([{ value: [instantOf('2026-03-01 11:00:00'), 87.5] }]);
    expect(tip).toContain('87.5%');
    expect(tip).toContain('在线 7 / 共 8');
  });

  it('tells an empty range from one with data', () => {
    const empty: BoardData = {
      startTime: '', endTime: '', online: [], alarmsByProject: [], alarmsByMonitorType: [], activePoints: [], silentDevices: [],
      alarmsPerDay: [{ day: '2026-03-01', levels: levels(0, 0, 0, 0) }],
      pointsPerDay: [{ day: '2026-03-01', count: 0 }],
    };
    expect([boardHas.online(empty), boardHas.alarmsPerDay(empty), boardHas.pointsPerDay(empty)]).toEqual([false, false, false]);
    const some = { ...empty, alarmsPerDay: [{ day: '2026-03-01', levels: levels(0, 0, 0, 1) }], pointsPerDay: [{ day: '2026-03-01', count: 3 }] };
    expect([boardHas.alarmsPerDay(some), boardHas.pointsPerDay(some)]).toEqual([true, true]);
    expect(pointsPerDayOption(some.pointsPerDay, i18n).series[0].data).toEqual([3]);
  });
});
