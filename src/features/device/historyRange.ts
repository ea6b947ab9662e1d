import { formatDateTime } from '../../../resources/datetime';
import type { TimeRange } from '../../../streams/history';

/**
 * The time range of the history chart: a preset ending now, or a custom start..end. It lives in the URL query
 * (`range=1h`, or `start=…&end=…` as `yyyy-MM-dd HH:mm:ss`) so a reload or a shared link opens the same view.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const PRESETS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type Preset = (typeof PRESETS)[number];
const PRESET_MS: Record<Preset, number> = { '1h': HOUR, '6h': 6 * HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
/** The server answers at most 3 years per chart (server/modules/wit-xinde/history.ts). */
export const MAX_CUSTOM_MS = 3 * 366 * DAY;

export type RangeChoice = { kind: 'preset'; preset: Preset } | { kind: 'custom'; range: TimeRange };
export const DEFAULT_CHOICE: RangeChoice = { kind: 'preset', preset: '24h' };
/** The query keys of the range: view state of the page, not what makes its tab. */
export const RANGE_QUERY = ['range', 'start', 'end'] as const;

const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A local `yyyy-MM-dd HH:mm:ss` (seconds optional) as epoch ms; undefined unless it is a real date and time. */
export function parseDateTime(text: string): number | undefined {
  const match = DATETIME.exec(text.trim());
  if (!match) return undefined;
  const [y, mo, d, h, mi, s = '0'] = match.slice(1).map((part) => part ?? '0');
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Date rolls 02-30 over into March: a round trip tells a real date from an overflowed one.
  const real = date.getFullYear() === Number(y) && date.getMonth() === Number(mo) - 1 && date.getDate() === Number(d) && date.getHours() === Number(h) && date.getMinutes() === Number(mi) && date.getSeconds() === Number(s);
  return real ? date.getTime() : undefined;
}

export type RangeProblem = 'start' | 'end' | 'order' | 'tooLong';

/** A custom range from the two inputs, or what is wrong with it. */
export function checkCustom(startText: string, endText: string): { range: TimeRange } | { problem: RangeProblem } {
  const start = parseDateTime(startText);
  if (start === undefined) return { problem: 'start' };
  const end = parseDateTime(endText);
  if (end === undefined) return { problem: 'end' };
  if (start >= end) return { problem: 'order' };
  if (end - start > MAX_CUSTOM_MS) return { problem: 'tooLong' };
  return { range: { start, end } };
}

/** The range the query asks for; anything malformed is the default (24 h). */
export function choiceOf(query: URLSearchParams): RangeChoice {
  const preset = query.get('range');
  if (preset && (PRESETS as readonly string[]).includes(preset)) return { kind: 'preset', preset: preset as Preset };
  const start = query.get('start');
  const end = query.get('end');
  if (start && end) {
    const checked = checkCustom(start, end);
    if ('range' in checked) return { kind: 'custom', range: checked.range };
  }
  return DEFAULT_CHOICE;
}

/** The query with the choice written in place of any earlier one (other keys, such as id, kept). */
export function withChoice(query: URLSearchParams, choice: RangeChoice): URLSearchParams {
  const next = new URLSearchParams(query);
  for (const key of RANGE_QUERY) next.delete(key);
  if (choice.kind === 'preset') next.set('range', choice.preset);
  else {
    next.set('start', formatDateTime(new Date(choice.range.start)));
    next.set('end', formatDateTime(new Date(choice.range.end)));
  }
  return next;
}

/** The time range of a choice; a preset ends now. */
export function rangeOf(choice: RangeChoice, now: number): TimeRange {
  return choice.kind === 'custom' ? choice.range : { start: now - PRESET_MS[choice.preset], end: now };
}

/** A stable key of a choice: the chart restarts when it changes. */
export const choiceKey = (choice: RangeChoice): string => (choice.kind === 'preset' ? choice.preset : `${choice.range.start}-${choice.range.end}`);
