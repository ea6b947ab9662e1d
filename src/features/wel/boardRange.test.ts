import { describe, expect, it } from 'vitest';
import { checkDays, daysOf, MAX_DAYS } from './boardRange';

describe('board range', () => {
  it('gives the last n days ending today, today included', () => {
    const now = new Date(2026, 2, 5, 15, 30);
    expect(daysOf({ kind: 'preset', days: 7 }, now)).toEqual({ from: '2026-02-27', to: '2026-03-05' });
    expect(daysOf({ kind: 'preset', days: 30 }, now)).toEqual({ from: '2026-02-04', to: '2026-03-05' });
    expect(daysOf({ kind: 'custom', days: { from: '2026-01-01', to: '2026-01-31' } }, now)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  });

  it('checks typed days: real days, in order, at most a leap year', () => {
    expect(checkDays(' 2026-01-01', '2026-01-31 ')).toEqual({ days: { from: '2026-01-01', to: '2026-01-31' } });
    expect(checkDays('2026-01-05', '2026-01-05')).toEqual({ days: { from: '2026-01-05', to: '2026-01-05' } });
    for (const [from, to] of [['2026-02-30', '2026-03-01'], ['2026/01/01', '2026-01-02'], ['', '2026-01-02']]) {
      expect(checkDays(from, to)).toMatchObject({ problem: { message: '请输入日期 yyyy-MM-dd' } });
    }
    expect(checkDays('2026-01-02', '2026-01-01')).toMatchObject({ problem: { message: '开始日期不能晚于结束日期' } });
    // 2024 is a leap year: 2024-01-01 … 2024-12-31 is 366 days, one more is too many.
    expect(checkDays('2024-01-01', '2024-12-31')).toEqual({ days: { from: '2024-01-01', to: '2024-12-31' } });
    expect(MAX_DAYS).toBe(366);
    expect(checkDays('2024-01-01', '2025-01-01')).toMatchObject({ problem: { message: '统计时间范围不能超过一年' } });
  });
});
