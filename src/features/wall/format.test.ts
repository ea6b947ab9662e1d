import { describe, expect, it } from 'vitest';
import { ageOf, changeOf, clockOf, containRect, MAX_SCALE, MIN_SCALE, percent, wallScale } from './format';

describe('wall screen formats', () => {
  it('says how old a reading is in the largest whole unit', () => {
    const now = 10_000_000_000;
    expect(ageOf(now - 3_400, now)).toEqual({ n: 3, unit: 'seconds' });
    expect(ageOf(now - 59_999, now)).toEqual({ n: 59, unit: 'seconds' });
    expect(ageOf(now - 60_000, now)).toEqual({ n: 1, unit: 'minutes' });
    expect(ageOf(now - 3_599_999, now)).toEqual({ n: 59, unit: 'minutes' });
    expect(ageOf(now - 7_200_000, now)).toEqual({ n: 2, unit: 'hours' });
    expect(ageOf(now - 3 * 86_400_000, now)).toEqual({ n: 3, unit: 'days' });
    // A device clock ahead of the browser's: not "in the future", just now.
    expect(ageOf(now + 5_000, now)).toEqual({ n: 0, unit: 'seconds' });
  });

  it('signs the change with the precision of the channel, flat when it rounds to nothing', () => {
    expect(changeOf(1.25, 1.13, 2)).toEqual({ text: '+0.12', direction: 'up' });
    expect(changeOf(0.3, 0.35, 2)).toEqual({ text: '-0.05', direction: 'down' });
    expect(changeOf(1.001, 1.0, 2)).toEqual({ text: '0.00', direction: 'flat' });
    // Float noise cut without a precision.
    expect(changeOf(0.3, 0.1, null)).toEqual({ text: '+0.2', direction: 'up' });
    expect(changeOf(1, null, 2)).toBeUndefined();
    expect(changeOf(null, 1, 2)).toBeUndefined();
  });

  it('fits the 1920×1080 design into the window, larger on a 4K wall, never unreadably small', () => {
    expect(wallScale(1920, 1080)).toBe(1);
    expect(wallScale(3840, 2160)).toBe(2);
    expect(wallScale(1366, 768)).toBeCloseTo(0.711, 3);
    // A wide window is limited by its height, a tall one by its width.
    expect(wallScale(2560, 1080)).toBe(1);
    expect(wallScale(1920, 1400)).toBe(1);
    expect(wallScale(640, 360)).toBe(MIN_SCALE);
    expect(wallScale(20_000, 20_000)).toBe(MAX_SCALE);
    expect(wallScale(0, 0)).toBe(1);
  });

  it('fits an image whole into its panel, whichever side limits it', () => {
    expect(containRect(1000, 500, 2000, 500)).toEqual({ width: 1000, height: 250 });
    expect(containRect(1000, 500, 400, 400)).toEqual({ width: 500, height: 500 });
    expect(containRect(0, 500, 400, 400)).toEqual({ width: 0, height: 0 });
  });

  it('shows the clock and shares', () => {
    const at = new Date(2026, 0, 10, 8, 5, 9).getTime();
    expect(clockOf(at)).toBe('08:05');
    expect(clockOf(at, true)).toBe('08:05:09');
    expect(percent(0.857)).toBe('86%');
  });
});
