/** Silence windows of notice strategies ("22:00"–"07:00", server time zone), as pure functions. */

const minutesOf = (clock: string): number => {
  const [h, m] = clock.split(':').map(Number);
  return h * 60 + m;
};

/**
 * When the silence window that `at` falls in ends, or undefined when `at` is outside it (or no window is set).
 * A window whose end is before its start wraps past midnight; equal start and end mean no window.
 */
export function silenceEnd(at: Date, start: string | null | undefined, end: string | null | undefined): Date | undefined {
  if (!start || !end) return undefined;
  const from = minutesOf(start);
  const to = minutesOf(end);
  if (from === to) return undefined;
  const now = at.getHours() * 60 + at.getMinutes();
  const inside = from < to ? now >= from && now < to : now >= from || now < to;
  if (!inside) return undefined;
  const out = new Date(at);
  out.setHours(Math.floor(to / 60), to % 60, 0, 0);
  if (out <= at) out.setDate(out.getDate() + 1);
  return out;
}
