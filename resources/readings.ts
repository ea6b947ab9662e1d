/**
 * How a measured value is shown, everywhere it is shown (debug, charts, lists): with the point's precision (decimal
 * places, its own or its factor item's) and unit. Without a precision, float noise is cut at six significant digits
 * (`0.36434999999999995` -> `0.36435`).
 */

/** Significant digits of a value whose point declares no precision. */
const SIGNIFICANT = 6;

/**
 * The unit as common fonts draw it: `℃` (U+2103) is missing from many Latin and canvas fonts and shows as a gap, so it
 * is written `°C` (U+00B0 + C), which every font has; the same for `℉`.
 */
export function displayUnit(unit: string | null | undefined): string {
  return (unit ?? '').replaceAll('℃', '°C').replaceAll('℉', '°F');
}

/** The number alone, rounded to `precision` decimals (0 to 6) or to six significant digits. */
export function formatValue(value: number | null | undefined, precision?: number | null): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (precision !== null && precision !== undefined && precision >= 0 && precision <= 6) return value.toFixed(precision);
  return String(Number(value.toPrecision(SIGNIFICANT)));
}

/** The value with its unit: `0.364 mm`, `21.5 °C`; `—` when there is none. */
export function formatReading(value: number | null | undefined, precision?: number | null, unit?: string | null): string {
  const shown = formatValue(value, precision);
  const suffix = displayUnit(unit);
  return shown === '—' || !suffix ? shown : `${shown} ${suffix}`;
}
