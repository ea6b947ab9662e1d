/** Where a point dropped on the project's image sits, as the wall screen stores it: fractions of its width and height. */

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Four decimals: a tenth of a pixel on a 4K-wide image. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** The place of a drop at (clientX, clientY) on the image's box, or undefined when it fell outside it. */
export function dropPosition(clientX: number, clientY: number, box: Box): { x: number; y: number } | undefined {
  if (!(box.width > 0 && box.height > 0)) return undefined;
  const x = (clientX - box.left) / box.width;
  const y = (clientY - box.top) / box.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return undefined;
  return { x: round(x), y: round(y) };
}

/** The value a monitor point's stored coordinate is read as: a number 0…1, or null (not placed). */
export function fractionOf(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
}
