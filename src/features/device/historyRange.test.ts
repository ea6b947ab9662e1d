import { describe, expect, it } from 'vitest';
import { checkCustom, choiceOf, DEFAULT_CHOICE, MAX_CUSTOM_MS, parseDateTime, rangeOf, withChoice } from './historyRange';

const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();

describe('the history range', () => {
  it('parses yyyy-MM-dd HH:mm:ss in local time, seconds optional, real dates only', () => {
    expect(parseDateTime('2026-01-02 08:30:15')).toBe(local(2026, 1, 2, 8, 30, 15));
    expect(parseDateTime(' 2026-01-02 08:30 ')).toBe(local(2026, 1, 2, 8, 30));
    expect(parseDateTime('2026-02-30 00:00:00')).toBeUndefined();
    expect(parseDateTime('2026-01-02 24:00:00')).toBeUndefined();
    expect(parseDateTime('2026/01/02 08:30:00')).toBeUndefined();
    expect(parseDateTime('')).toBeUndefined();
  });

  it('checks a custom range: both times, start before end, at most 3 years', () => {
    expect(checkCustom('2026-01-01 00:00:00', '2026-01-02 00:00:00')).toEqual({ range: { start: local(2026, 1, 1), end: local(2026, 1, 2) } });
    expect(checkCustom('2026-01-01', '2026-01-02 00:00:00')).toEqual({ problem: 'start' });
    expect(checkCustom('2026-01-01 00:00:00', 'x')).toEqual({ problem: 'end' });
    expect(checkCustom('2026-01-02 00:00:00', '2026-01-02 00:00:00')).toEqual({ problem: 'order' });
    expect(checkCustom('2020-01-01 00:00:00', '2026-01-01 00:00:00')).toEqual({ problem: 'tooLong' });
    const start = local(2023, 1, 1);
    expect(local(2026, 1, 1) - start).toBeLessThanOrEqual(MAX_CUSTOM_MS);
  });

  it('reads the choice from the query, the default for anything malformed', () => {
    expect(choiceOf(new URLSearchParams('id=1&range=1h'))).toEqual({ kind: 'preset', preset: '1h' });
    expect(choiceOf(new URLSearchParams('id=1&start=2026-01-01+00:00:00&end=2026-01-01+12:00:00'))).toEqual({ kind: 'custom', range: { start: local(2026, 1, 1), end: local(2026, 1, 1, 12) } });
    expect(choiceOf(new URLSearchParams('id=1&range=2h'))).toEqual(DEFAULT_CHOICE);
    expect(choiceOf(new URLSearchParams('id=1&start=2026-01-02+00:00:00&end=2026-01-01+00:00:00'))).toEqual(DEFAULT_CHOICE);
    expect(choiceOf(new URLSearchParams('id=1'))).toEqual(DEFAULT_CHOICE);
  });

  it('writes the choice into the query in place of the previous one, keeping the id; round trips', () => {
    const custom = { kind: 'custom' as const, range: { start: local(2026, 3, 1, 6), end: local(2026, 3, 2, 6, 30) } };
    const query = withChoice(new URLSearchParams('id=7&range=6h'), custom);
    expect(query.toString()).toBe('id=7&start=2026-03-01+06%3A00%3A00&end=2026-03-02+06%3A30%3A00');
    expect(choiceOf(query)).toEqual(custom);
    expect(withChoice(query, { kind: 'preset', preset: '7d' }).toString()).toBe('id=7&range=7d');
  });

  it('ends a preset now; a custom range is itself', () => {
    expect(rangeOf({ kind: 'preset', preset: '6h' }, 100_000_000)).toEqual({ start: 100_000_000 - 6 * 3_600_000, end: 100_000_000 });
    expect(rangeOf({ kind: 'custom', range: { start: 1, end: 2 } }, 100)).toEqual({ start: 1, end: 2 });
  });
});
