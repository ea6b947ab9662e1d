/** Dates travel and are stored as `yyyy-MM-dd HH:mm:ss` in the server's time zone (TZ), as the contract says. */
export { formatDateTime } from '../resources/datetime';

export const DATETIME_PATTERN = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

/** Parses the contract's date format (date only, or with minutes or seconds) in local time. */
export function parseDateTime(text: string): Date | undefined {
  if (!DATETIME_PATTERN.test(text)) return undefined;
  const [day, clock = '00:00:00'] = text.split(' ');
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm, ss = 0] = clock.split(':').map(Number);
  const date = new Date(y, m - 1, d, hh, mm, ss);
  return Number.isNaN(date.getTime()) || date.getMonth() !== m - 1 ? undefined : date;
}
