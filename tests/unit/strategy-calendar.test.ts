import { expect, it } from 'vitest';
import { Calendar } from '../../server/modules/wit-xinde/strategy-scheduler';
import { parseDateTime } from '../../server/time';

const at = (text: string) => parseDateTime(text)?.getTime() ?? Number.NaN;

it('computes occurrences on the interval grid from the last change and at the daily times', () => {
  const calendar = Calendar.of({ intervalSeconds: 7200, times: '06:00,18:30', updateTime: '2030-01-01 05:00:10' });
  expect(calendar.next(at('2030-01-01 05:00:10'))).toEqual({ at: at('2030-01-01 06:00:00'), trigger: 'time' });
  expect(calendar.next(at('2030-01-01 06:00:00'))).toEqual({ at: at('2030-01-01 07:00:10'), trigger: 'interval' });
  expect(calendar.next(at('2030-01-01 17:00:10'))).toEqual({ at: at('2030-01-01 18:30:00'), trigger: 'time' });
  expect(calendar.next(at('2030-01-01 23:00:10'))).toEqual({ at: at('2030-01-02 01:00:10'), trigger: 'interval' });
});

it('fires a daily time strictly after the instant asked about, and nothing without a schedule', () => {
  const daily = Calendar.of({ times: '06:00', updateTime: '2030-01-01 05:00:10' });
  expect(daily.next(at('2030-01-01 06:00:00'))).toEqual({ at: at('2030-01-02 06:00:00'), trigger: 'time' });
  expect(Calendar.of({ updateTime: '2030-01-01 05:00:10' }).next(at('2030-01-01 06:00:00'))).toBeUndefined();
});
