import { formatValue } from '../../../resources/readings';

/** Pure helpers of the wall screen: ages, changes, the clock and the scale of the screen. */

export type AgeUnit = 'seconds' | 'minutes' | 'hours' | 'days';

/** How old a reading is, in the largest whole unit: 59 s, then minutes, hours, days. A future time is 0 s old. */
export function ageOf(ts: number, now: number): { n: number; unit: AgeUnit } {
  const seconds = Math.max(0, Math.floor((now - ts) / 1000));
  if (seconds < 60) return { n: seconds, unit: 'seconds' };
  if (seconds < 3_600) return { n: Math.floor(seconds / 60), unit: 'minutes' };
  if (seconds < 86_400) return { n: Math.floor(seconds / 3_600), unit: 'hours' };
  return { n: Math.floor(seconds / 86_400), unit: 'days' };
}

export type Direction = 'up' | 'down' | 'flat';

/**
 * The change from the previous value to the latest, signed, with the channel's precision (`+0.12`, `-0.05`, `0.00`);
 * a change that rounds to nothing is flat. Undefined without both values.
 */
export function changeOf(value: number | null, previous: number | null, precision?: number | null): { text: string; direction: Direction } | undefined {
  if (value === null || previous === null || !Number.isFinite(value) || !Number.isFinite(previous)) return undefined;
  const magnitude = formatValue(Math.abs(value - previous), precision);
  if (Number(magnitude) === 0) return { text: formatValue(0, precision), direction: 'flat' };
  return value > previous ? { text: `+${magnitude}`, direction: 'up' } : { text: `-${magnitude}`, direction: 'down' };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** hh:mm (or hh:mm:ss) of an instant, local time. */
export function clockOf(ms: number, seconds = false): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ''}`;
}

/** The screen is designed at 1920×1080. */
export const DESIGN_WIDTH = 1920;
export const DESIGN_HEIGHT = 1080;
/** Below this a laptop's screen would make the type too small to read; above it a 4K wall is simply larger. */
export const MIN_SCALE = 0.6;
export const MAX_SCALE = 4;

/**
 * How much larger than designed everything is drawn: the design fitted into the window whole (the smaller of the two
 * ratios), so 1920×1080 is 1, 3840×2160 is 2, 1366×768 about 0.71 — within MIN_SCALE…MAX_SCALE.
 */
export function wallScale(width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 1;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.min(width / DESIGN_WIDTH, height / DESIGN_HEIGHT)));
}

/** Whole per cent, 0…100. */
export const percent = (share: number): string => `${Math.round(share * 100)}%`;

/**
 * The box an image fills when fitted whole into another (object-fit: contain), so that points placed as fractions of
 * the image land on the right spot whatever the screen's shape.
 */
export function containRect(boxWidth: number, boxHeight: number, imageWidth: number, imageHeight: number): { width: number; height: number } {
  if (!(boxWidth > 0 && boxHeight > 0 && imageWidth > 0 && imageHeight > 0)) return { width: 0, height: 0 };
  const ratio = Math.min(boxWidth / imageWidth, boxHeight / imageHeight);
  return { width: imageWidth * ratio, height: imageHeight * ratio };
}
